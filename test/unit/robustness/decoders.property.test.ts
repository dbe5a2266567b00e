/**
 * Thousands of generated malformed answers through every decoder. Whatever arrives, a decoder
 * returns a value or throws a typed PlatformError (never another exception), and what it
 * returns is safe to show: ids exact, ranges well-formed, so no diagnostic ever lands on a bad
 * range (checked through planDiagnostics too). Seeded, so every run tries the same inputs.
 *
 * No decode is timed: how long one takes is the machine's. A pathological path (a regular
 * expression gone quadratic on the 1 MB strings) does not end in any time a run would wait, so
 * it shows as a run that does not finish.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeDeploymentsResponse } from '../../../src/core/model/decodeDeployment';
import { decodeFindingsPageInSlices, type DecodedFindingsPage } from '../../../src/core/model/decodeFinding';
import { lineFromUrl } from '../../../src/core/model/links';
import { decodeFindingDetail } from '../../../src/core/model/decodeFindingDetail';
import { decodePoliciesResponse, decodePolicyRulesPage } from '../../../src/core/model/decodePolicy';
import { decodeProjectResponse, decodeProjectsPage } from '../../../src/core/model/decodeProject';
import { readTimestamp } from '../../../src/core/model/decodeRead';
import { decodeSbomExportCreated, decodeSbomExportStatus } from '../../../src/core/model/decodeSbom';
import { StringInterner } from '../../../src/core/model/interner';
import type { Finding, IssueType, ListIssueType, SourceRange } from '../../../src/core/model/types';
import { DEFAULT_MAPPING, planDiagnostics, type PlannedRange } from '../../../src/core/workspace/diagnostic-plan';
import {
  deploymentsBody,
  findingsBody,
  hostile,
  nulProne,
  policiesBody,
  policyRulesBody,
  projectBody,
  projectsBody,
  sastFinding,
  sbomCreatedBody,
  sbomStatusBody,
  scaFinding,
} from './malformed';

const SEED = 0x5eed;
const RUNS = 2_000;

/** The decoder's result, or its PlatformError; any other exception fails the property. */
function outcome<T>(decode: () => T): { value: T } | { error: PlatformError } {
  try {
    return { value: decode() };
  } catch (e) {
    return { error: unusableAnswer(e) };
  }
}

/** The same for a findings page, decoded as src decodes it: in slices (the pauses between them do not matter here). */
async function pageOutcome(
  body: unknown,
  type: ListIssueType,
  interner = new StringInterner(),
  slice?: number,
): Promise<{ value: DecodedFindingsPage } | { error: PlatformError }> {
  try {
    return { value: await decodeFindingsPageInSlices(body, type, interner, () => Promise.resolve(), slice) };
  } catch (e) {
    return { error: unusableAnswer(e) };
  }
}

/** A decoder refuses an answer with an invalidResponse that blames the platform, and nothing else. */
function unusableAnswer(e: unknown): PlatformError {
  if (!PlatformError.is(e)) throw new Error(`threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)} instead of a PlatformError`);
  assert.equal(e.reason, 'invalidResponse');
  assert.match(e.message, /^The platform/, 'says the platform sent something unusable');
  return e;
}

function check<Ts extends [unknown, ...unknown[]]>(property: fc.IProperty<Ts>, numRuns = RUNS): void {
  fc.assert(property, { seed: SEED, numRuns });
}

function checkAsync<Ts extends [unknown, ...unknown[]]>(property: fc.IAsyncProperty<Ts>, numRuns = RUNS): Promise<void> {
  return fc.assert(property, { seed: SEED, numRuns });
}

/**
 * The body with lists of its own: decoding lets go of each raw item it read by emptying its slot
 * in the list, so a body decoded twice needs a second list (the items themselves are only read).
 */
function withOwnLists(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const copy: Record<string, unknown> = { ...body };
  if (Array.isArray(body.findings)) copy.findings = [...(body.findings as unknown[])];
  for (const member of ['sastFindings', 'scaFindings', 'aiSastFindings']) {
    const held = body[member];
    if (isRecord(held) && Array.isArray(held.findings)) copy[member] = { ...held, findings: [...(held.findings as unknown[])] };
  }
  return copy;
}

const isPositiveInt = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** The range invariants a diagnostic relies on (1-based, end not before start). */
function assertGoodRange(r: SourceRange, what: string): void {
  assert.ok(typeof r.filePath === 'string' && r.filePath.length > 0, `${what}: file path`);
  assert.ok(isPositiveInt(r.line), `${what}: line ${r.line}`);
  for (const [name, v] of [
    ['column', r.column],
    ['endLine', r.endLine],
    ['endColumn', r.endColumn],
  ] as const) {
    assert.ok(v === undefined || isPositiveInt(v), `${what}: ${name} ${String(v)}`);
  }
  if (r.endLine !== undefined) assert.ok(r.endLine >= r.line, `${what}: ends on line ${r.endLine} before line ${r.line}`);
  const sameLine = r.endLine === undefined || r.endLine === r.line;
  if (sameLine && r.column !== undefined && r.endColumn !== undefined) {
    assert.ok(r.endColumn >= r.column, `${what}: ends at column ${r.endColumn} before column ${r.column}`);
  }
}

function assertGoodPlannedRange(r: PlannedRange, what: string): void {
  for (const v of [r.startLine, r.startCharacter, r.endLine, r.endCharacter]) {
    assert.ok(Number.isSafeInteger(v) && v >= 0, `${what}: position ${v}`);
  }
  assert.ok(r.startLine <= r.endLine, `${what}: planned lines ${r.startLine} > ${r.endLine}`);
  if (r.startLine === r.endLine) assert.ok(r.startCharacter <= r.endCharacter, `${what}: planned characters ${r.startCharacter} > ${r.endCharacter}`);
}

function assertSafeFinding(f: Finding, issueType: IssueType): void {
  assert.equal(f.issueType, issueType);
  assert.ok(Number.isSafeInteger(f.id), `id ${f.id}`);
  assert.ok(typeof f.ruleName === 'string' && f.ruleName !== '', 'rule name');
  assert.equal(typeof f.message, 'string');
  assert.ok(typeof f.severity === 'string' && f.severity !== '', 'severity');
  assert.ok(typeof f.status === 'string' && f.status !== '', 'status');
  assert.ok(f.relevantSince === undefined || Number.isFinite(f.relevantSince), 'a real instant or none');
  if (f.location) assertGoodRange(f.location, `finding ${f.id} location`);
  if (f.sca?.usage) assertGoodRange(f.sca.usage, `finding ${f.id} usage`);
  if (f.sca?.lockfileLine !== undefined) assert.ok(isPositiveInt(f.sca.lockfileLine), `lockfile line ${f.sca.lockfileLine}`);
  for (const v of f.sca?.fixVersions ?? []) assert.equal(typeof v, 'string');
  if (issueType === 'sast') assert.equal(f.sca, undefined);
  else assert.equal(f.policy, undefined);
}

/** Planning diagnostics from decoded findings: every range well-formed, every path confined. */
function assertSafePlan(findings: readonly Finding[]): void {
  const plan = planDiagnostics(findings, DEFAULT_MAPPING);
  for (const d of plan.diagnostics) {
    assertGoodPlannedRange(d.range, `diagnostic of finding ${d.finding.id}`);
    if (d.related) assertGoodPlannedRange(d.related.range, `related place of finding ${d.finding.id}`);
    for (const path of [d.relativePath, d.related?.relativePath ?? 'ok']) {
      assert.ok(path !== '' && !path.startsWith('/') && !path.includes('\\') && !path.includes('\0'), `path ${JSON.stringify(path.slice(0, 80))}`);
      assert.ok(!path.split('/').includes('..'), `path leaves the folder: ${path.slice(0, 80)}`);
    }
  }
}

const issueType = fc.constantFrom<ListIssueType>('sast', 'sca');
const anyFindingsBody = fc.oneof(
  { weight: 3, arbitrary: findingsBody(sastFinding) },
  { weight: 3, arbitrary: findingsBody(scaFinding) },
  { weight: 1, arbitrary: hostile },
);

void describe('findings decoder under malformed pages', () => {
  void it(`${RUNS * 2} pages of both kinds: a page or an invalidResponse, safe findings, safe diagnostics`, async (t) => {
    let decodedFindings = 0;
    let errors = 0;
    await checkAsync(
      fc.asyncProperty(anyFindingsBody, issueType, async (body, type) => {
        const result = await pageOutcome(body, type);
        if ('error' in result) {
          errors++;
          return;
        }
        const page = result.value;
        assert.equal(page.findings.length + page.skipped, page.rawCount, 'every raw item is decoded or counted as skipped');
        for (const f of page.findings) assertSafeFinding(f, type === 'sca' ? 'sca' : 'sast');
        assertSafePlan(page.findings);
        decodedFindings += page.findings.length;
      }),
      RUNS * 2,
    );
    t.diagnostic(`${RUNS * 2} malformed pages: ${decodedFindings} findings decoded and planned, ${errors} pages refused as invalidResponse`);
    // The generators must reach both outcomes, or the property proves little.
    assert.ok(decodedFindings > RUNS && errors > RUNS / 20, `decoded ${decodedFindings} findings, ${errors} envelope errors`);
  });

  void it('decoded in small slices, a page is the same page (or the same refusal) as in one, with a pause between slices', async () => {
    await fc.assert(
      fc.asyncProperty(anyFindingsBody, issueType, fc.integer({ min: 1, max: 4 }), async (body, type, slice) => {
        const whole = await pageOutcome(withOwnLists(body), type, new StringInterner(), Number.MAX_SAFE_INTEGER);
        let pauses = 0;
        let sliced: { value: unknown } | { error: string };
        try {
          sliced = {
            value: await decodeFindingsPageInSlices(
              body,
              type,
              new StringInterner(),
              () => {
                pauses++;
                return Promise.resolve();
              },
              slice,
            ),
          };
        } catch (e) {
          sliced = { error: e instanceof Error ? e.message : String(e) };
        }
        if ('error' in whole) {
          assert.deepEqual(sliced, { error: whole.error.message });
          return;
        }
        assert.deepEqual(sliced, { value: whole.value });
        assert.equal(pauses, Math.max(0, Math.ceil(whole.value.rawCount / slice) - 1), 'a pause between slices, none after the last');
      }),
      { numRuns: RUNS },
    );
  });

  void it('a finding keeps what it was sent, in either envelope: exact ids, its rule name, unknown enumeration values', async () => {
    await checkAsync(
      fc.asyncProperty(fc.array(fc.oneof(scaFinding, sastFinding), { minLength: 1, maxLength: 8 }), issueType, fc.boolean(), async (items, type, flat) => {
        const body = flat ? { findings: [...items] } : { sastFindings: { findings: [...items] }, scaFindings: { findings: [...items] } };
        const page = await pageOutcome(body, type);
        assert.ok('value' in page);
        // The rule's name: the deprecated `rule_name`, else `rule.name`; without either, not a finding.
        const nameOf = (raw: Record<string, unknown>): unknown => {
          if (typeof raw.rule_name === 'string' && raw.rule_name !== '') return raw.rule_name;
          const rule = raw.rule;
          return isRecord(rule) && typeof rule.name === 'string' && rule.name !== '' ? rule.name : undefined;
        };
        // Decoded findings are the decodable items, in order.
        const decodable = items.filter((raw): raw is Record<string, unknown> => isRecord(raw) && idOf(raw.id) !== undefined && nameOf(raw) !== undefined);
        assert.equal(page.value.findings.length, decodable.length);
        page.value.findings.forEach((f, i) => {
          const raw = decodable[i] ?? {};
          assert.equal(f.id, idOf(raw.id));
          assert.equal(f.ruleName, nameOf(raw));
          assert.equal(f.severity, typeof raw.severity === 'string' && raw.severity !== '' ? raw.severity : 'unknown');
          assert.equal(f.status, typeof raw.status === 'string' && raw.status !== '' ? raw.status : 'unknown');
        });
      }),
    );
  });

  // The decoder shares equal fix-version lists and policies between findings (one interner per
  // sync). Names made of a tiny alphabet with NUL make lists and names that only differ in where
  // NUL splits them: sharing must never hand one finding another's.
  const versions = fc.array(nulProne, { minLength: 1, maxLength: 3 });
  const splits = fc.constantFrom('a', 'c', 'a\u0000b', 'b\u0000c');
  const policy = fc.record({ id: fc.integer({ min: 1, max: 2 }), name: splits, slug: splits });

  void it("every finding of a sync keeps its own fix versions, even when another's look alike", async () => {
    await checkAsync(
      fc.asyncProperty(fc.array(versions, { minLength: 2, maxLength: 6 }), async (lists) => {
        const interner = new StringInterner();
        for (const [i, list] of lists.entries()) {
          const raw = { id: i + 1, rule_name: 'r', fix_recommendations: list.map((version) => ({ package: 'p', version })) };
          const page = await pageOutcome({ scaFindings: { findings: [raw] } }, 'sca', interner);
          assert.ok('value' in page);
          assert.deepEqual(page.value.findings[0]?.sca?.fixVersions, list, `finding ${i + 1} shows the fix versions of another`);
        }
      }),
    );
  });

  void it('every code finding of a sync keeps its own policy, even when another looks alike', async () => {
    await checkAsync(
      fc.asyncProperty(fc.array(policy, { minLength: 3, maxLength: 8 }), async (policies) => {
        const interner = new StringInterner();
        for (const [i, sent] of policies.entries()) {
          const raw = { id: i + 1, rule_name: 'r', sourcing_policy: sent };
          const page = await pageOutcome({ sastFindings: { findings: [raw] } }, 'sast', interner);
          assert.ok('value' in page);
          const shown = page.value.findings[0]?.policy;
          assert.deepEqual(
            shown && { id: shown.id, name: shown.name, slug: shown.slug },
            { id: sent.id, name: sent.name, slug: sent.slug },
            `finding ${i + 1} shows the policy of another`,
          );
        }
      }),
    );
  });

  void it('the detail decoder never throws and agrees with the list decoder on what is a finding', async () => {
    await checkAsync(
      fc.asyncProperty(fc.oneof(sastFinding, scaFinding, hostile), issueType, async (raw, type) => {
        const listed = await pageOutcome({ sastFindings: { findings: [raw] }, scaFindings: { findings: [raw] } }, type);
        const detail = outcome(() => decodeFindingDetail(raw, type));
        assert.ok('value' in listed && 'value' in detail, 'a single item never fails the page or the detail');
        assert.equal(detail.value === undefined, listed.value.findings.length === 0);
        if (detail.value) {
          assertSafeFinding(detail.value, type === 'sca' ? 'sca' : 'sast');
          for (const d of [detail.value.createdAt, detail.value.triagedAt, detail.value.stateUpdatedAt])
            assert.ok(d === undefined || Number.isFinite(d.getTime()));
        }
      }),
    );
  });
});

void describe('other decoders under malformed answers', () => {
  void it('project list and project: a value or an invalidResponse; exact ids, real dates', () => {
    check(
      fc.property(fc.oneof(projectsBody, projectBody), (body) => {
        const list = outcome(() => decodeProjectsPage(body));
        const one = outcome(() => decodeProjectResponse(body, 'acme/api'));
        const projects = [...('value' in list ? list.value.projects : []), ...('value' in one ? [one.value] : [])];
        if ('value' in list) assert.ok(list.value.projects.length <= list.value.rawCount);
        if ('error' in one) assert.match(one.error.message, /acme\/api/, 'names the project');
        for (const p of projects) {
          assert.ok(Number.isSafeInteger(p.id), `project id ${p.id}`);
          assert.ok(typeof p.name === 'string' && p.name !== '');
          assert.ok(p.tags.every((t) => typeof t === 'string'));
          for (const d of [p.createdAt, p.latestScanAt]) assert.ok(d === undefined || Number.isFinite(d.getTime()));
          for (const b of [p.managedScanConfig?.diffScanEnabled, p.managedScanConfig?.fullScanEnabled]) assert.ok(b === undefined || typeof b === 'boolean');
        }
      }),
    );
  });

  void it('policy rules pages and policy lists: a value or an invalidResponse; unknown modes kept', () => {
    check(
      fc.property(fc.oneof(policyRulesBody, policiesBody), (body) => {
        const page = outcome(() => decodePolicyRulesPage(body));
        const list = outcome(() => decodePoliciesResponse(body));
        if ('value' in page) {
          const { rules, skipped, rawCount, nextCursor, policy } = page.value;
          assert.equal(rules.length + skipped, rawCount);
          assert.ok(nextCursor === undefined || (typeof nextCursor === 'string' && nextCursor !== ''), 'a cursor is text or absent');
          for (const r of rules) {
            assert.ok(typeof r.id === 'string' && r.id !== '' && typeof r.path === 'string' && r.path !== '');
            assert.ok(typeof r.mode === 'string' && r.mode !== '', 'a mode, known or not, is kept');
            assert.ok(r.lastChangeAt === undefined || Number.isFinite(r.lastChangeAt.getTime()));
          }
          if (policy) assert.ok(typeof policy.id === 'string' && policy.id !== '' && typeof policy.isDefault === 'boolean');
        }
        if ('value' in list) for (const p of list.value) assert.ok(typeof p.id === 'string' && p.id !== '' && typeof p.name === 'string');
      }),
    );
  });

  void it('ids kept as text are exact: a number beyond 2^53 (already rounded by JSON.parse) is refused, not used', () => {
    check(
      fc.property(fc.oneof(policyRulesBody, policiesBody, deploymentsBody), (body) => {
        const ids = [
          ...valueOr(
            () => decodePolicyRulesPage(body),
            (v) => [...v.rules.map((r) => r.id), ...(v.policy ? [v.policy.id] : [])],
          ),
          ...valueOr(
            () => decodePoliciesResponse(body),
            (v) => v.map((p) => p.id),
          ),
          ...valueOr(
            () => decodeDeploymentsResponse(body),
            (v) => v.map((d) => d.id),
          ),
        ];
        for (const id of ids) {
          if (/^-?\d+$/.test(id) && Number(id) > Number.MAX_SAFE_INTEGER) {
            // Digits sent as text are fine at any length; a number sent as a number is not.
            assert.ok(sentAsText(body, id), `id ${id} came from a JSON number beyond 2^53 and names some other record`);
          }
          assert.ok(!/e[+-]/i.test(id), `id ${id} is a number in exponent form`);
        }
      }),
    );
  });

  void it('deployments and SBOM answers: a value or an invalidResponse, never anything else', () => {
    check(
      fc.property(fc.oneof(deploymentsBody, sbomCreatedBody, sbomStatusBody), (body) => {
        const deployments = outcome(() => decodeDeploymentsResponse(body));
        if ('value' in deployments) for (const d of deployments.value) assert.ok(d.id !== '' && d.slug !== '' && d.name !== '');
        const created = outcome(() => decodeSbomExportCreated(body));
        if ('value' in created) assert.ok(typeof created.value === 'string' && created.value !== '');
        const status = outcome(() => decodeSbomExportStatus(body));
        if ('value' in status) assert.ok(typeof status.value.state === 'string' && status.value.state !== '');
      }),
    );
  });
});

void describe('hand-written fast paths agree with the documented patterns', () => {
  // The patterns the readers are specified by (docs/platform-api.md): the shapes the service sends.
  const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
  function referenceTimestamp(value: string): number | undefined {
    const m = TIMESTAMP.exec(value.trim());
    if (!m) return undefined;
    const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
    const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
    if (new Date(local).getUTCDate() !== day) return undefined;
    const zone = m[8];
    if (!zone || zone.toUpperCase() === 'Z') return local;
    const digits = zone.slice(1).replace(':', '');
    const offset = (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60_000;
    return local - offset;
  }
  const referenceLine = (url: string): number | undefined => {
    const m = /#L(\d+)(?:-L?\d+)?$/.exec(url);
    const line = m ? Number(m[1]) : undefined;
    return line !== undefined && Number.isSafeInteger(line) && line > 0 ? line : undefined;
  };

  /** Timestamp-like text: each part right, wrong or odd, then sometimes one character changed. */
  const digits = (n: number): fc.Arbitrary<string> =>
    fc.oneof(
      fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0')),
      fc.constantFrom('0'.repeat(n - 1), 'x'.repeat(n)),
    );
  const stamp = fc
    .tuple(
      fc.oneof(digits(4), fc.constantFrom('0000', '0099', '1900', '2000', '2024')),
      digits(2),
      digits(2),
      fc.constantFrom('T', ' ', 't', 'x', '  '),
      digits(2),
      digits(2),
      fc.option(fc.tuple(digits(2), fc.option(fc.tuple(fc.constantFrom('.', ','), fc.stringMatching(/^\d{0,9}$/))))),
      fc.constantFrom('', ' ', '\t'),
      fc.constantFrom('', 'Z', 'z', '+00:00', '-08:00', '+0530', '+05', '+5', '-00', '+05:3', '+05:30:00', 'UTC', ':'),
      fc.constantFrom('', ' ', 'x'),
    )
    .map(
      ([y, mo, d, sep, h, mi, sec, space, zone, tail]) =>
        `${y}-${mo}-${d}${sep}${h}:${mi}${sec ? `:${sec[0]}${sec[1] ? `${sec[1][0]}${sec[1][1]}` : ''}` : ''}${space}${zone}${tail}`,
    );
  const mutated = fc
    .tuple(stamp, fc.nat(), fc.constantFrom('', '0', '9', ':', '-', 'T', ' ', '+'))
    .map(([s, at, c]) => s.slice(0, at % (s.length + 1)) + c + s.slice((at % (s.length + 1)) + 1));

  void it('readTimestamp reads exactly what the timestamp pattern reads, as the same instant', () => {
    fc.assert(
      fc.property(fc.oneof(stamp, mutated), (s) => {
        assert.equal(readTimestamp(s)?.getTime(), referenceTimestamp(s), JSON.stringify(s));
      }),
      { seed: SEED, numRuns: 20_000 },
    );
  });

  void it('lineFromUrl reads exactly the line the #L pattern reads', () => {
    const tail = fc.array(fc.constantFrom('#', 'L', '-', '0', '1', '7', '9', 'x', '/'), { maxLength: 10 }).map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.tuple(fc.constantFrom('https://github.com/o/r/blob/s/f', '', '#L12', 'x#L'), tail, fc.option(fc.bigInt({ min: 0n, max: 10n ** 20n }))),
        ([head, rest, n]) => {
          const url = `${head}${rest}${n === null ? '' : `#L${n}`}`;
          assert.equal(lineFromUrl(url), referenceLine(url), JSON.stringify(url));
        },
      ),
      { seed: SEED, numRuns: 20_000 },
    );
  });
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The id a decoder should read from `raw`: a safe integer, or digits that make one. */
function idOf(raw: unknown): number | undefined {
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

function valueOr<T>(decode: () => T, ids: (value: T) => string[]): string[] {
  const result = outcome(decode);
  return 'value' in result ? ids(result.value) : [];
}

/** Whether `id` occurs in `body` as a string (so it was sent as digits, exact at any length). */
function sentAsText(body: unknown, id: string): boolean {
  // Breadth first: the ids sit a few levels down, beside values nested 10 000 levels deep.
  const queue: unknown[] = [body];
  for (let at = 0; at < queue.length && at < 50_000; at++) {
    const v = queue[at];
    if (v === id) return true;
    if (Array.isArray(v)) queue.push(...(v as unknown[]).slice(0, 50));
    else if (isRecord(v)) queue.push(...Object.values(v).slice(0, 50));
  }
  return false;
}
