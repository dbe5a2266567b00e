/**
 * Generators of malformed platform answers for the property tests (not a test file). Each wire
 * field is sometimes right, sometimes wrong in a way seen in the wild or feared: wrong type,
 * missing, null, an unknown enumeration value, a 1 MB string, a 10 000-level nesting, a number
 * beyond 2^53 (as a number and as digits), a zero or negative line, an end before the start.
 */
import fc from 'fast-check';

const MB = 1024 * 1024;
const DEPTH = 10_000;

/** Prints as a short label: fast-check must not recurse 10 000 levels to report a failure. */
function labelled<T extends object>(value: T, label: string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => label, enumerable: false });
  return value;
}

/** Built once, directly (JSON.parse of such text would hit the parser's own limits first). */
function nest(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

const DEEP_VALUES: readonly unknown[] = [
  labelled(nest(DEPTH, (inner) => [inner]) as object, `[[…${DEPTH} levels…]]`),
  labelled(nest(DEPTH, (inner) => ({ a: inner })) as object, `{a:{a:…${DEPTH} levels…}}`),
  // Nested under the very names the decoders read.
  labelled(nest(DEPTH, (inner) => ({ location: inner, line: inner, findings: [inner], name: inner, id: inner })) as object, `{location:{…${DEPTH} levels…}}`),
  labelled(nest(DEPTH, (inner) => ({ sastFindings: { findings: [inner] }, projects: [inner], rules: [inner] })) as object, `{sastFindings:…${DEPTH} levels…}`),
];

const HUGE_STRINGS: readonly string[] = [
  'a'.repeat(MB),
  '9'.repeat(MB),
  ' '.repeat(MB),
  `2024-05-01T12:00:00.${'1'.repeat(MB)}Z`,
  `https://github.com/acme/api/blob/${'f'.repeat(40)}/${'dir/'.repeat(MB / 4)}lock.json#L12`,
  `#L${'1'.repeat(MB)}`,
  `${'%2e%2e/'.repeat(MB / 7)}etc/passwd`,
  `${'/-/blob/x'.repeat(MB / 9)}#L3`,
];

export const hugeString = fc.constantFrom(...HUGE_STRINGS);
export const deepValue = fc.constantFrom(...DEEP_VALUES);

/** Numbers that are not usable ids, lines or columns, and some that are at the edge. */
export const edgeNumber = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  1.5,
  -2.5,
  2 ** 31,
  2 ** 32 + 1,
  Number.MAX_SAFE_INTEGER,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  // What JSON.parse makes of a 20-digit id: already rounded.
  Number('12345678901234567890'),
  1e21,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
);

/** Numbers as text: some payloads quote them, some quote them badly. */
export const numericString = fc.constantFrom(
  '0',
  '1',
  '42',
  '-1',
  '-0',
  '00042',
  '9007199254740991',
  '9007199254740993',
  '-9007199254740993',
  '12345678901234567890',
  '1e3',
  '0x10',
  ' 12',
  '12 ',
  '+5',
  '1.0',
  '\u0661\u0662',
  '12\n',
  '',
  'NaN',
  'Infinity',
);

/** Any JSON-ish value, including the hostile ones above. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.anything({ maxDepth: 2, maxKeys: 4 }) },
  { weight: 2, arbitrary: edgeNumber },
  { weight: 2, arbitrary: numericString },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, '__proto__', 'constructor', 'toString') },
);

/** Mostly `valid`, otherwise anything hostile. */
export function field<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostile });
}

/** Nearly always `valid`: for the envelope levels, so that the items inside get exercised. */
export function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

/** An open enumeration: known values, values the service may add tomorrow, or garbage. */
export function enumeration(known: readonly string[]): fc.Arbitrary<unknown> {
  return field(fc.oneof(fc.constantFrom(...known), fc.constantFrom('SOMETHING_NEW', 'Critical', 'HIGH ', '\u0000', ''), fc.string({ maxLength: 12 })));
}

export const text = field(fc.string({ maxLength: 24 }));

/** Small lines and columns, so that end-before-start and equal positions are frequent. */
const position = field(fc.integer({ min: -2, max: 12 }));

const filePath = field(
  fc.oneof(
    fc.constantFrom(
      'src/app.py',
      'a/b/c.ts',
      'lib\\win\\x.js',
      '../../etc/passwd',
      '/etc/passwd',
      'C:\\x.js',
      '%2e%2e/x',
      'a\u0000b',
      './',
      'ok/../../x',
      '\\\\server\\share',
    ),
    fc.string({ maxLength: 20 }),
  ),
);

/** A location in any of the three spellings seen (spec, snake_case, supply-chain usage). */
export const location: fc.Arbitrary<unknown> = field(
  fc.record(
    {
      filePath,
      file_path: filePath,
      path: filePath,
      line: position,
      start_line: position,
      column: position,
      start_col: position,
      endLine: position,
      end_line: position,
      endColumn: position,
      end_column: position,
      end_col: position,
    },
    { requiredKeys: [] },
  ),
);

export const timestamp = field(
  fc.oneof(
    fc.constantFrom(
      '2024-05-01T12:00:00.123Z',
      '2020-11-18 23:28:12.391807+00:00',
      '2024-02-30T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '0000-01-01T00:00:00Z',
      'yesterday',
      '',
    ),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  ),
);

export const lineUrl = field(
  fc.oneof(
    fc.constantFrom(
      'https://github.com/acme/api/blob/abc123/src/app.py#L12',
      'https://github.com/acme/api/blob/abc/package-lock.json#L0',
      'https://github.com/acme/api/blob/abc/x#L-1',
      'https://github.com/acme/api/blob/abc/x#L12-L3',
      'https://github.com/a/b/blob/c/d#L99999999999999999999',
      'https://gitlab.com/g/s/r/-/blob/sha/pkg/package-lock.json#L7',
      'https://github.com/a/b/blob/c/../../x#L5',
      'javascript:alert(1)#L1',
      '#L',
      'x#L1#L2',
    ),
    fc.tuple(fc.string({ maxLength: 10 }), fc.integer({ min: -5, max: 2 ** 40 })).map(([p, n]) => `https://github.com/o/r/blob/s/${p}#L${n}`),
  ),
);

/** Ids: mostly usable, else the hostile kinds, including beyond 2^53. */
export const integerId = field(fc.integer({ min: 1, max: 2 ** 40 }));

/** A tiny alphabet with NUL, so that lists and names which differ only in how NUL splits them occur. */
export const nulProne = fc.constantFrom('1', '2', '1\u00002', 'a', 'a\u0000b', 'b');

const findingRule = field(fc.record({ message: text, confidence: enumeration(['low', 'medium', 'high']), name: text }, { requiredKeys: [] }));

const sharedFindingFields = {
  id: integerId,
  rule_name: field(fc.constantFrom('python.flask.security.xss', 'javascript.express.open-redirect', 'r')),
  rule_message: text,
  rule: findingRule,
  severity: enumeration(['low', 'medium', 'high', 'critical']),
  confidence: enumeration(['low', 'medium', 'high']),
  status: enumeration(['open', 'fixed', 'ignored', 'reviewing', 'fixing', 'provisionally_ignored']),
  triage_reason: enumeration(['acceptable_risk', 'false_positive', 'no_time', 'no_triage_reason', 'duplicate']),
  ref: text,
  repository: field(fc.record({ name: text, url: text }, { requiredKeys: [] })),
  location,
  line_of_code_url: lineUrl,
  relevant_since: timestamp,
  created_at: timestamp,
  categories: field(fc.array(field(fc.string({ maxLength: 8 })), { maxLength: 3 })),
};

export const sastFinding: fc.Arbitrary<unknown> = fc.record(
  {
    ...sharedFindingFields,
    sourcing_policy: field(fc.record({ id: field(fc.integer({ min: 1, max: 3 })), name: field(nulProne), slug: field(nulProne) }, { requiredKeys: [] })),
    assistant: field(
      fc.record(
        {
          autofix: field(fc.record({ fix_code: text, explanation: text }, { requiredKeys: [] })),
          autotriage: field(fc.record({ verdict: enumeration(['true_positive', 'false_positive']) })),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

export const scaFinding: fc.Arbitrary<unknown> = fc.record(
  {
    ...sharedFindingFields,
    vulnerability_identifier: text,
    is_malicious: field(fc.boolean()),
    reachability: enumeration(['reachable', 'always_reachable', 'conditionally_reachable', 'unreachable', 'unknown']),
    found_dependency: field(
      fc.record(
        {
          ecosystem: text,
          package: text,
          version: text,
          transitivity: enumeration(['direct', 'transitive', 'unknown']),
          lockfile_line_url: lineUrl,
        },
        { requiredKeys: [] },
      ),
    ),
    fix_recommendations: field(fc.array(field(fc.record({ package: text, version: field(nulProne) }, { requiredKeys: [] })), { maxLength: 3 })),
    usage: field(fc.record({ location, external_ticket: hostile }, { requiredKeys: [] })),
    epss_score: field(fc.record({ score: field(fc.double()), percentile: field(fc.double()) }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);

/** A findings answer in either shape (the service's flat list or the spec's envelope), right or wrong at every level. */
export function findingsBody(item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const list = mostly(fc.array(fc.oneof({ weight: 4, arbitrary: item }, { weight: 1, arbitrary: hostile }), { maxLength: 8 }));
  const member = mostly(fc.record({ findings: list }, { requiredKeys: [] }));
  return fc.oneof(
    mostly(fc.record({ findings: list }, { requiredKeys: [] })),
    mostly(fc.record({ sastFindings: member, scaFindings: member, aiSastFindings: member }, { requiredKeys: [] })),
  );
}

const project = fc.record(
  {
    id: integerId,
    name: field(fc.constantFrom('acme/api', 'group/sub/repo', 'x')),
    tags: field(fc.array(field(fc.string({ maxLength: 6 })), { maxLength: 3 })),
    created_at: timestamp,
    latest_scan_at: timestamp,
    default_branch: text,
    primary_branch: text,
    url: text,
    managed_scan_config: field(
      fc.record(
        { diff_scan: field(fc.record({ enabled: field(fc.boolean()) })), full_scan: field(fc.record({ enabled: field(fc.boolean()) })) },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

export const projectsBody = field(fc.record({ projects: field(fc.array(field(project), { maxLength: 6 })) }, { requiredKeys: [] }));
export const projectBody = field(fc.record({ project: field(project) }, { requiredKeys: [] }));

/** Ids kept as text (policies, rules, deployments): digits, big digits, or numbers of any size. */
const textId = field(fc.oneof(fc.integer({ min: 1, max: 2 ** 40 }).map(String), fc.constantFrom('1234567890123456789', '7'), edgeNumber));

const policy = fc.record(
  {
    id: textId,
    name: text,
    slug: text,
    isDefault: field(fc.boolean()),
    productType: enumeration(['PRODUCT_TYPE_SAST']),
  },
  { requiredKeys: [] },
);

const rule = fc.record(
  {
    id: textId,
    path: field(fc.constantFrom('python.flask.xss', 'a.b.c')),
    policyMode: enumeration(['MODE_MONITOR', 'MODE_COMMENT', 'MODE_BLOCK', 'MODE_DISABLED']),
    severity: enumeration(['SEVERITY_HIGH', 'SEVERITY_MEDIUM']),
    category: text,
    confidence: text,
    source: enumeration(['SOURCE_COMMUNITY', 'SOURCE_PRO', 'SOURCE_CUSTOM']),
    languages: field(fc.array(field(fc.string({ maxLength: 6 })), { maxLength: 3 })),
    cweCategories: field(fc.array(text, { maxLength: 2 })),
    owaspCategories: field(fc.array(text, { maxLength: 2 })),
    url: text,
    lastChangeAt: timestamp,
    lastChangeBy: text,
  },
  { requiredKeys: [] },
);

/** A cursor as the service might send it, or not. */
export const cursor = field(fc.oneof(fc.constantFrom('', 'c1', 'c2', 'null', ' ', '\u0000'), fc.string({ maxLength: 6 })));

export const policyRulesBody = field(fc.record({ policy: field(policy), rules: field(fc.array(field(rule), { maxLength: 6 })), cursor }, { requiredKeys: [] }));
export const policiesBody = field(fc.record({ policies: field(fc.array(field(policy), { maxLength: 5 })) }, { requiredKeys: [] }));
export const deploymentsBody = field(
  fc.record(
    {
      deployments: field(
        fc.array(field(fc.record({ id: textId, name: text, slug: field(fc.constantFrom('acme', 'x')) }, { requiredKeys: [] })), { maxLength: 4 }),
      ),
    },
    { requiredKeys: [] },
  ),
);
export const sbomCreatedBody = field(fc.record({ taskToken: text }, { requiredKeys: [] }));
export const sbomStatusBody = field(
  fc.record(
    {
      status: enumeration(['SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_COMPLETED', 'SBOM_EXPORT_STATUS_FAILED']),
      downloadUrl: text,
      errorMessage: text,
    },
    { requiredKeys: [] },
  ),
);
