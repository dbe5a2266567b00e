/**
 * The kinds of finding beyond code and supply chain: AI code findings (`issue_type=ai_sast`, code
 * findings with `ai_impact`) and secrets (their own cursor-paged list, camelCase, protobuf-style
 * enumerations, never the secret's value). Derived from a project's code findings without
 * randomness, so adding them leaves the rest of the generated data as it was.
 */
import type { WireSastFinding } from './wire';
import { integer, QueryError } from './query-params';
import type { PlatformData } from './types';

export type WireAiSastFinding = WireSastFinding & { ai_impact?: string };

export interface WireSecretFinding {
  id: string;
  type: string;
  findingPath: string;
  findingPathUrl?: string;
  ref: string;
  refUrl?: string;
  repository: { name: string; url?: string; scmType: string; visibility: string };
  severity: string;
  confidence: string;
  status: string;
  validationState: string;
  mode: string;
  ruleHashId: string;
  createdAt: string;
  updatedAt: string;
  historicalInfo?: { gitCommit: string; gitBlob: string; gitCommitTimestamp: string };
  // Triage writes these (as it does on code findings).
  triage_comment?: string;
  triage_reason?: string;
  triage_state?: string;
  triaged_at?: string;
}

const SERVICES = ['AWS', 'GitHub', 'Slack', 'Stripe'];
const VALIDATIONS = [
  'VALIDATION_STATE_CONFIRMED_VALID',
  'VALIDATION_STATE_CONFIRMED_INVALID',
  'VALIDATION_STATE_NO_VALIDATOR',
  'VALIDATION_STATE_VALIDATION_ERROR',
];
const SEVERITIES = ['SEVERITY_CRITICAL', 'SEVERITY_HIGH', 'SEVERITY_MEDIUM', 'SEVERITY_LOW'];
const IMPACTS = [
  "An attacker could read other customers' orders by changing the id in the request.",
  'A crafted file name could overwrite files outside the upload folder.',
  'Session tokens could be replayed after logout.',
];
let nextAiId = 5_000_000;
let nextSecretId = 6_000_000;

/**
 * Adds `perProject` AI code findings and secrets to each named project (every project when none
 * is named), next to its code findings of the same refs. Returns what was added.
 */
export function addAiAndSecrets(
  data: PlatformData,
  perProject: number,
  projectNames?: readonly string[],
): { ai: WireAiSastFinding[]; secrets: WireSecretFinding[] } {
  const ai: WireAiSastFinding[] = [];
  const secrets: WireSecretFinding[] = [];
  for (const project of data.projects) {
    if (projectNames && !projectNames.includes(project.name)) continue;
    const code = data.sast.filter((f) => f.repository?.name === project.name && f.location?.file_path);
    for (let i = 0; i < Math.min(perProject, code.length); i++) {
      const base = code[i];
      const n = ai.length;
      ai.push({
        ...base,
        id: nextAiId++,
        rule_name: `ai.${base.rule_name ?? 'finding'}`,
        rule: { ...base.rule, name: `ai.${base.rule_name ?? 'finding'}` },
        rule_message: `The AI analysis found a likely ${n % 2 === 0 ? 'authorization' : 'path traversal'} flaw here.`,
        match_based_id: `ai-${base.match_based_id ?? base.id}`,
        syntactic_id: `ai-${base.syntactic_id ?? base.id}`,
        ai_impact: IMPACTS[n % IMPACTS.length],
      });
      const at = base.location?.line ?? 1;
      const url = base.line_of_code_url?.replace(/#L\d+(-L?\d+)?$/, '');
      secrets.push({
        id: String(nextSecretId++),
        type: SERVICES[n % SERVICES.length],
        findingPath: base.location?.file_path ?? 'README.md',
        // Every other secret has no line in its link: it is placed on the file's first line.
        ...(url && n % 2 === 0 ? { findingPathUrl: `${url}#L${at}` } : url ? { findingPathUrl: url } : {}),
        ref: base.ref ?? project.primary_branch,
        repository: { name: project.name, url: base.repository?.url, scmType: 'SCM_TYPE_GITHUB', visibility: 'REPOSITORY_VISIBILITY_PRIVATE' },
        severity: SEVERITIES[n % SEVERITIES.length],
        confidence: 'CONFIDENCE_HIGH',
        status: 'FINDING_STATUS_OPEN',
        validationState: VALIDATIONS[n % VALIDATIONS.length],
        mode: 'MODE_MONITOR',
        ruleHashId: `hash-${n}`,
        createdAt: base.created_at ?? new Date(0).toISOString(),
        updatedAt: base.created_at ?? new Date(0).toISOString(),
      });
    }
  }
  data.ai_sast.push(...ai);
  data.secrets.push(...secrets);
  return { ai, secrets };
}

const STATUS_VALUES = new Set(['OPEN', 'IGNORED', 'FIXED', 'REMOVED', 'UNKNOWN', 'PROVISIONALLY_IGNORED']);

/** The triage endpoint's spelling of a status written back in the list's spelling. */
export function secretStatusOf(status: string): string {
  return `FINDING_STATUS_${status.toUpperCase()}`;
}

/** `GET …/secrets`: filters `repo`, `status`, `severity`, `validationState` (each may repeat), cursor paging. */
export function listSecrets(data: PlatformData, params: URLSearchParams): { findings: WireSecretFinding[]; cursor: string } {
  const many = (key: string): string[] => [...params.getAll(key), ...params.getAll(`${key}[]`)];
  const repos = many('repo');
  const status = params.get('status');
  if (status && !STATUS_VALUES.has(status.replace(/^FINDING_STATUS_/, ''))) throw new QueryError(`unknown status ${status}`);
  const severities = many('severity');
  if (severities.some((s) => !SEVERITIES.includes(s))) throw new QueryError('severity must be SEVERITY_LOW … SEVERITY_CRITICAL');
  const validations = many('validationState');
  if (validations.some((v) => !VALIDATIONS.includes(v))) throw new QueryError('unknown validationState');
  const limit = integer(params, 'limit', 100, 1, 1000);
  const cursor = params.get('cursor');
  if (cursor && !/^\d+$/.test(cursor)) throw new QueryError('invalid cursor');
  const start = cursor ? Number(cursor) : 0;
  const matching = data.secrets.filter(
    (s) =>
      (repos.length === 0 || repos.includes(s.repository.name)) &&
      (!status || s.status === status) &&
      (severities.length === 0 || severities.includes(s.severity)) &&
      (validations.length === 0 || validations.includes(s.validationState)),
  );
  const page = matching.slice(start, start + limit);
  return { findings: page, cursor: start + limit < matching.length ? String(start + limit) : '' };
}
