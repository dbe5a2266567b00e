/**
 * Deterministic generator of a whole deployment: projects, policies with rules, and code and
 * supply-chain findings spread over several refs (with duplicates across refs, so `dedup` is
 * meaningful). Linear in the number of findings: 100 000 findings take about a second.
 */
import type { WireSastFinding, WireScaFinding, WireScan } from './wire';
import { buildSastFinding, buildScaFinding, type FindingSpecBase, type SastSpec, type ScaSpec } from './build-findings';
import { deploymentPolicies, generatePolicies, type GeneratedPolicy } from './generate-policies';
import { Rng } from './prng';
import { formatTimestamp } from './timestamps';
import type { PlatformData, StoredProject } from './types';
import {
  COMPONENT_TAGS,
  CONFIG_PATHS,
  FEATURE_REFS,
  LOCKFILE_BY_LANGUAGE,
  MALICIOUS_NPM,
  PACKAGES_BY_LANGUAGE,
  PATHS_BY_LANGUAGE,
  RULE_CATALOG,
  TRIAGE_COMMENTS,
  type Language,
  type RuleTemplate,
} from './vocab';

export type { PlatformData, StoredProject } from './types';

export interface GenerateOptions {
  seed?: number;
  deploymentId?: number;
  deploymentSlug?: string;
  deploymentName?: string;
  projects?: number;
  sastPerProject?: number;
  scaPerProject?: number;
  refsPerProject?: number;
  policies?: number;
  rulesPerPolicy?: number;
}

/** Fixed "now" so generated timestamps (and `since` filters in tests) do not drift with the clock. */
export const GENERATION_BASE_TIME = Date.UTC(2024, 5, 1, 12, 0, 0);
const DAY_MS = 86_400_000;

/** Project names: a deep GitLab-style path and one whose segments need percent-encoding. */
const PROJECT_SHAPES: readonly (readonly [string, Language])[] = [
  ['payments-api', 'python'],
  ['platform/sub/billing-service', 'java'],
  ['web-frontend', 'javascript'],
  ['labs/proto+grpc gateway', 'go'],
  ['auth-service', 'javascript'],
  ['inventory-service', 'go'],
  ['data/ml/feature-store', 'python'],
  ['checkout-web', 'javascript'],
  ['legacy-monolith', 'java'],
  ['mobile/backend-for-frontend', 'javascript'],
];
const PROJECT_TAGS = ['team:payments', 'team:platform', 'tier:1', 'pci', 'internal', 'customer-facing'];
const FIRST_PROJECT_ID = 370_001;
const FIRST_FINDING_ID = 10_000_001;
const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

/** Catalog rules usable in a project of each language (its own plus the generic secret rules). */
const CATALOG_BY_LANGUAGE = new Map<Language, readonly RuleTemplate[]>(
  (['python', 'javascript', 'java', 'go'] as const).map((l) => [l, RULE_CATALOG.filter((r) => r.language === l || r.language === 'generic')]),
);

interface ProjectContext {
  project: StoredProject;
  language: Language;
  refs: { name: string; sha: string }[];
}

function makeProject(rng: Rng, index: number, slug: string): ProjectContext {
  const [shape, language] = PROJECT_SHAPES[index % PROJECT_SHAPES.length];
  const round = Math.floor(index / PROJECT_SHAPES.length);
  const name = `${slug}/${shape}${round === 0 ? '' : `-${round + 1}`}`;
  const encoded = name.split('/').map(encodeURIComponent).join('/');
  const host = name.split('/').length > 2 ? 'https://gitlab.com' : 'https://github.com';
  const id = FIRST_PROJECT_ID + index;
  const style = rng.chance(0.5) ? 'iso' : 'python';
  const project: StoredProject = {
    id,
    name,
    tags: PROJECT_TAGS.filter(() => rng.chance(0.3)),
    created_at: formatTimestamp(GENERATION_BASE_TIME - rng.int(400, 1500) * DAY_MS - rng.int(0, DAY_MS), style),
    default_branch: 'main',
    primary_branch: 'main',
    latest_scan_at: formatTimestamp(GENERATION_BASE_TIME - rng.int(1, 72 * 3_600_000), style),
    url: `${host}/${encoded}`,
    managed_scan_config: { diff_scan: { enabled: rng.chance(0.5) }, full_scan: { enabled: rng.chance(0.7) } },
    repository_id: id,
  };
  return { project, language, refs: [] };
}

function refNames(count: number): string[] {
  const names = ['main'];
  for (let k = 1; k < count; k++) names.push(FEATURE_REFS[k - 1] ?? `feature/branch-${k}`);
  return names;
}

/** The choices shared by code and supply-chain findings. */
function baseSpec(rng: Rng, ctx: ProjectContext, id: number, ref: { name: string; sha: string }, path: string): FindingSpecBase {
  const relevantSince = GENERATION_BASE_TIME - rng.int(0, 730 * DAY_MS);
  const line = rng.int(1, 400);
  const column = rng.int(1, 40);
  const status = rng.weighted([
    ['open', 55],
    ['fixed', 15],
    ['ignored', 14],
    ['reviewing', 8],
    ['fixing', 8],
  ] as const);
  return {
    id,
    syntacticId: rng.hex(32),
    matchBasedId: rng.hex(32),
    projectName: ctx.project.name,
    repoUrl: ctx.project.url,
    ref: ref.name,
    commitSha: ref.sha,
    severity: 'medium',
    confidence: rng.weighted([
      ['high', 50],
      ['medium', 35],
      ['low', 15],
    ] as const),
    status,
    triageReason: rng.weighted([
      ['acceptable_risk', 35],
      ['false_positive', 35],
      ['no_time', 20],
      ['no_triage_reason', 10],
    ] as const),
    triageComment: rng.pick(TRIAGE_COMMENTS),
    createdAt: relevantSince - rng.int(0, 30 * DAY_MS),
    relevantSince,
    scanId: 9_000_000 + rng.int(0, 999_999),
    locationStyle: rng.chance(0.5) ? 'camel' : 'snake',
    timeStyle: rng.chance(0.7) ? 'iso' : 'python',
    path,
    line,
    column,
    // Explicit `undefined` rather than conditional spreads: this runs 100 000 times.
    end: rng.chance(0.9) ? { line: line + rng.int(0, 3), column: column + rng.int(5, 60) } : undefined,
    ticketId: rng.chance(0.15) ? rng.int(1000, 99_999) : undefined,
    reviewCommentCount: rng.chance(0.2) ? rng.int(1, 2) : 0,
  };
}

function sastSpec(rng: Rng, ctx: ProjectContext, id: number, ref: { name: string; sha: string }, policies: GeneratedPolicy[]): SastSpec {
  const policy = policies.length > 1 && rng.chance(0.3) ? policies[rng.int(1, policies.length - 1)] : policies[0];
  const fromPolicy = policy?.templatesByLanguage.get(ctx.language) ?? [];
  // Most findings come from a rule of their sourcing policy; a few from rules the policy lacks.
  const pool: readonly RuleTemplate[] = fromPolicy.length > 0 && rng.chance(0.85) ? fromPolicy : (CATALOG_BY_LANGUAGE.get(ctx.language) ?? RULE_CATALOG);
  const rule = rng.pick(pool);
  const path = rule.language === 'generic' ? rng.pick(CONFIG_PATHS) : rng.pick(PATHS_BY_LANGUAGE[ctx.language]);
  const spec: SastSpec = Object.assign(baseSpec(rng, ctx, id, ref, path), {
    severity: rng.chance(0.7) ? rule.severity : rng.pick(SEVERITIES),
    rule,
    policy: policy ? { id: policy.numericId, name: policy.policy.name ?? '', slug: policy.policy.slug ?? '' } : { id: 0, name: 'None', slug: 'none' },
    fixPrCount: 0,
    fixFailureCount: rng.chance(0.05) ? 1 : 0,
    assistant: undefined,
  });
  // A one-click fix PR: merged ones fixed the finding, open ones leave it "fixing".
  if (rng.chance(0.15)) {
    spec.fixPrCount = 1;
    spec.status = rng.chance(0.5) ? 'fixed' : 'fixing';
  }
  if (rng.chance(0.4)) {
    spec.assistant = {
      verdict: rng.chance(0.8) ? 'true_positive' : 'false_positive',
      tag: rng.pick(COMPONENT_TAGS),
      risk: rng.pick(['high', 'medium', 'low'] as const),
      autofix: rng.chance(0.6),
    };
  }
  return spec;
}

function scaSpec(rng: Rng, ctx: ProjectContext, id: number, ref: { name: string; sha: string }, forceMalicious: boolean): ScaSpec {
  const malicious = ctx.language === 'javascript' && (forceMalicious || rng.chance(0.03));
  const pkg = malicious ? rng.pick(MALICIOUS_NPM) : rng.pick(PACKAGES_BY_LANGUAGE[ctx.language]);
  const base = baseSpec(rng, ctx, id, ref, LOCKFILE_BY_LANGUAGE[ctx.language]);
  const reachability = malicious
    ? 'always_reachable'
    : rng.weighted([
        ['reachable', 25],
        ['always_reachable', 10],
        ['conditionally_reachable', 15],
        ['unreachable', 35],
        ['unknown', 15],
      ] as const);
  const score = Math.round(rng.next() ** 3 * 100_000) / 100_000;
  const spec: ScaSpec = Object.assign(base, {
    column: 5,
    severity: rng.chance(0.8) ? pkg.severity : rng.pick(SEVERITIES),
    pkg,
    transitivity: rng.weighted([
      ['direct', 45],
      ['transitive', 45],
      ['unknown', 10],
    ] as const),
    reachability,
    epss: { score, percentile: Math.round(Math.min(0.99999, Math.sqrt(score) + 0.05) * 100_000) / 100_000 },
    usage: undefined,
  });
  if (base.end) spec.end = { line: base.line, column: 5 + pkg.package.length + pkg.version.length + 6 };
  const reached = reachability !== 'unreachable' && reachability !== 'unknown';
  if (reached && rng.chance(0.7)) {
    const line = rng.int(1, 400);
    const column = rng.int(1, 30);
    spec.usage = {
      path: rng.pick(PATHS_BY_LANGUAGE[ctx.language]),
      line,
      column,
      endLine: line,
      endColumn: column + rng.int(8, 40),
      ticketId: rng.chance(0.2) ? rng.int(1000, 99_999) : undefined,
    };
  }
  return spec;
}

/**
 * `count` findings for one project: most on the primary branch, the rest on feature refs, where
 * most are duplicates (same syntactic_id, fresh id and time) of a primary-branch finding.
 */
function spreadOverRefs<S extends FindingSpecBase>(
  rng: Rng,
  ctx: ProjectContext,
  count: number,
  nextId: () => number,
  make: (id: number, ref: { name: string; sha: string }, slot: number) => S,
): S[] {
  const out: S[] = [];
  const onPrimary: S[] = [];
  const [primary] = ctx.refs;
  for (let slot = 0; slot < count; slot++) {
    const ref = ctx.refs.length > 1 && rng.chance(0.35) ? ctx.refs[rng.int(1, ctx.refs.length - 1)] : primary;
    if (ref !== primary && onPrimary.length > 0 && rng.chance(0.7)) {
      const twin = rng.pick(onPrimary);
      const relevantSince = Math.min(GENERATION_BASE_TIME, twin.relevantSince + rng.int(-10 * DAY_MS, 10 * DAY_MS));
      out.push({
        ...twin,
        id: nextId(),
        ref: ref.name,
        commitSha: ref.sha,
        relevantSince,
        createdAt: relevantSince - rng.int(0, DAY_MS),
        scanId: twin.scanId + rng.int(1, 5000),
      });
      continue;
    }
    const spec = make(nextId(), ref, slot);
    out.push(spec);
    if (ref === primary) onPrimary.push(spec);
  }
  return out;
}

export function generateDeployment(opts: GenerateOptions = {}): PlatformData {
  const rng = new Rng(opts.seed ?? 1);
  const slug = opts.deploymentSlug ?? 'acme';
  const policies = generatePolicies(rng, opts.policies ?? 2, opts.rulesPerPolicy ?? 30, GENERATION_BASE_TIME, slug);
  const sast: WireSastFinding[] = [];
  const sca: WireScaFinding[] = [];
  const projects: StoredProject[] = [];
  const scans: WireScan[] = [];
  let id = FIRST_FINDING_ID;
  const nextId = (): number => id++;
  let maliciousPlaced = false;
  for (let i = 0; i < (opts.projects ?? 5); i++) {
    const ctx = makeProject(rng, i, slug);
    ctx.refs = refNames(Math.max(1, opts.refsPerProject ?? 2)).map((name) => ({ name, sha: rng.hex(40) }));
    projects.push(ctx.project);
    for (const ref of ctx.refs) scans.push(...scansOf(ctx.project.repository_id, ref, scans.length));
    for (const spec of spreadOverRefs(rng, ctx, opts.sastPerProject ?? 40, nextId, (fid, ref) => sastSpec(rng, ctx, fid, ref, policies))) {
      sast.push(buildSastFinding(spec));
    }
    // Guarantee one malicious dependency in the first JavaScript project, so `is_malicious` has a hit.
    const placeMalicious: boolean = !maliciousPlaced && ctx.language === 'javascript';
    for (const spec of spreadOverRefs(rng, ctx, opts.scaPerProject ?? 15, nextId, (fid, ref, slot) =>
      scaSpec(rng, ctx, fid, ref, placeMalicious && slot === 0),
    )) {
      sca.push(buildScaFinding(spec));
    }
    maliciousPlaced ||= placeMalicious && (opts.scaPerProject ?? 15) > 0;
  }
  return {
    deployment: { id: opts.deploymentId ?? 4242, name: opts.deploymentName ?? 'Acme Corp', slug },
    projects,
    sast,
    sca,
    ai_sast: [],
    secrets: [],
    ...deploymentPolicies(policies, GENERATION_BASE_TIME),
    scans,
  };
}

/** Each ref: the completed scan of the commit its findings name, after an older one and a failed one. */
export function scansOf(repositoryId: number, ref: { name: string; sha: string }, firstId: number): WireScan[] {
  const at = (hoursBefore: number): string => new Date(GENERATION_BASE_TIME - hoursBefore * 3_600_000).toISOString();
  const scan = (n: number, commit: string, status: string, hoursBefore: number): WireScan => ({
    id: 70_000 + firstId + n,
    repository_id: repositoryId,
    branch: ref.name,
    commit,
    status,
    started_at: at(hoursBefore + 1),
    completed_at: at(hoursBefore),
    is_full_scan: true,
  });
  const older = ref.sha.slice(20) + ref.sha.slice(0, 20);
  return [scan(0, older, 'SCAN_STATUS_COMPLETED', 48), scan(1, ref.sha, 'SCAN_STATUS_COMPLETED', 2), scan(2, older, 'SCAN_STATUS_ERROR', 1)];
}
