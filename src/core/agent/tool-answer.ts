/**
 * What an agent tool answers, whoever asked (VS Code's chat or an MCP client): English text for
 * a model, the same facts as structured content for a client that reads them, and whether it is
 * an error. Platform text stays data in both: quoted in the text, a JSON string in the content.
 * Also where a finding is in today's code, as the handlers are told it and as they say it.
 */
import type { Finding } from '../model/types';
import { quote } from './agent-text';

export interface ToolAnswer {
  readonly text: string;
  readonly structured?: Readonly<Record<string, unknown>>;
  /** The question could not be answered (signed out, bad input, a refusal): the text says why. */
  readonly isError?: boolean;
}

export const SIGNED_OUT =
  'Not signed in to the AppSec platform: ask the user to run "AppSec: Sign In" (their token stays in VS Code\'s secret storage), then try again.';

export const answered = (text: string, structured?: Readonly<Record<string, unknown>>): ToolAnswer => ({ text, ...(structured ? { structured } : {}) });
export const refused = (text: string): ToolAnswer => ({ text, isError: true });

/** Where a finding is in today's code: its file relative to the repository root and its 1-based line, or gone from this copy. */
export type TodayPlace =
  | { readonly kind: 'here'; readonly path: string; readonly line: number; readonly changed: boolean }
  /** `notYet`: the scanned commit is not in this copy (the code is on `onBranch`, when known); else the code was removed. */
  | { readonly kind: 'gone'; readonly notYet: boolean; readonly onBranch?: string };

/** `file:line` where the finding is in today's code, said plainly when changed or gone. */
export function whereText(finding: Finding, place: TodayPlace | undefined): string | undefined {
  if (!place) return undefined;
  if (place.kind === 'here') return `${place.path}:${place.line}${place.changed ? ' (code changed since the scan)' : ''}`;
  const scanned = finding.location?.filePath ?? '?';
  if (!place.notYet) return `${scanned} (no longer in this copy)`;
  return `${scanned}${place.onBranch !== undefined ? ` (not in this copy yet: it is on the branch ${quote(place.onBranch)})` : ' (not in this copy yet)'}`;
}

/** One finding as structured content: the facts an agent acts on, placed in today's code. */
export function findingSummary(finding: Finding, place: TodayPlace | undefined, extra: { url?: string; isNew?: boolean }): Record<string, unknown> {
  const here = place?.kind === 'here' ? place : undefined;
  // What the platform did not send is left out, not sent as null: a client checks the content against its schema.
  return withoutUndefined({
    id: finding.id,
    issueType: finding.issueType,
    rule: finding.ruleName,
    severity: finding.severity,
    status: finding.status,
    // Only a place in today's code is `path` and `line`; else the scanned place, named as such.
    ...(here
      ? { path: here.path, line: here.line, codeChanged: here.changed }
      : finding.location
        ? { scannedPath: finding.location.filePath, scannedLine: finding.location.line }
        : {}),
    ...(place?.kind === 'gone' ? { notInThisCopy: true } : {}),
    ...(extra.url ? { url: extra.url } : {}),
    ...(finding.ref ? { ref: finding.ref } : {}),
    isNew: extra.isNew === true,
    message: finding.message,
    ...(finding.sca ? { package: finding.sca.package, version: finding.sca.version, advisory: finding.sca.advisory } : {}),
  });
}

export function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
