/**
 * Secrets findings (`GET …/secrets`, docs/platform-api.md, "Secrets and AI code findings"): camelCase items with
 * protobuf-style enumerations (`SEVERITY_HIGH`, `FINDING_STATUS_OPEN`,
 * `VALIDATION_STATE_CONFIRMED_VALID`), kept as findings of issue type `secrets`. The platform
 * never sends the secret's value; nothing here would keep one if it did: only the fields
 * listed are read.
 */
import { lineFromUrl } from './links';
import { decodeTicketLink } from './decodeTicket';
import { asObject, isObject, readSafeInteger, readString } from './decodeRead';
import type { StringInterner } from './interner';
import type { Finding } from './types';

export interface SecretsPage {
  readonly findings: Finding[];
  readonly skipped: number;
  readonly rawCount: number;
  readonly nextCursor?: string;
}

/** `SEVERITY_HIGH` → `high`; a value already short is kept (lower-cased). */
export function shortEnum(value: unknown, prefix: string): string | undefined {
  const text = readString(value);
  if (text === undefined) return undefined;
  return (text.startsWith(prefix) ? text.slice(prefix.length) : text).toLowerCase();
}

/** One page; a malformed item (no integer id, no path) is skipped and counted. */
export function decodeSecretsPage(body: unknown, interner: StringInterner): SecretsPage {
  const list = isObject(body) ? body.findings : undefined;
  const items = Array.isArray(list) ? list : [];
  const findings: Finding[] = [];
  for (const item of items) {
    const finding = decodeSecret(item, interner);
    if (finding) findings.push(finding);
  }
  const cursor = isObject(body) ? readString(body.cursor) : undefined;
  return { findings, skipped: items.length - findings.length, rawCount: items.length, ...(cursor ? { nextCursor: cursor } : {}) };
}

function decodeSecret(raw: unknown, interner: StringInterner): Finding | undefined {
  const o = asObject(raw);
  // Triage takes integer ids: an id that is not one could not be acted on.
  const id = readSafeInteger(o?.id);
  const path = readString(o?.findingPath);
  if (!o || id === undefined || path === undefined) return undefined;
  const intern = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : interner.intern(v));
  const service = intern(readString(o.type)) ?? 'Secret';
  const validation = intern(shortEnum(o.validationState, 'VALIDATION_STATE_')) ?? 'unknown';
  const url = readString(o.findingPathUrl);
  return {
    issueType: 'secrets',
    id,
    ruleName: service,
    message: interner.intern(`${service} secret committed in the repository`),
    severity: intern(shortEnum(o.severity, 'SEVERITY_')) ?? 'unknown',
    confidence: intern(shortEnum(o.confidence, 'CONFIDENCE_')),
    status: intern(shortEnum(o.status, 'FINDING_STATUS_')) ?? 'unknown',
    ref: intern(readString(o.ref)),
    repositoryName: intern(readString(asObject(o.repository)?.name)),
    // The link's `#L<n>` is the only line the platform gives; without one, the file's first line.
    location: { filePath: interner.intern(path), line: lineFromUrl(url) ?? 1 },
    lineOfCodeUrl: url,
    ticket: decodeTicketLink(o.externalTicket, interner),
    secret: { service, validation },
  };
}
