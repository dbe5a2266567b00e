/**
 * What a view must say about the kinds it cannot show as fresh: a kind the deployment does not
 * have, and a kind whose last load failed (its earlier findings, if any, still shown). Pure: the
 * tree, Problems' status bar and the refresh's one notification all read these.
 */
import { t } from '../l10n';
import { PlatformError } from '../model/errors';
import type { IssueType } from '../model/types';
import { shownResult, type SlotState } from './slot-bindings';
import type { FindingsResult } from './findings-query';
import { KIND_PRODUCTS, type FindingKind, type Unavailable } from './kind-availability';

export type KindGap =
  | { readonly kind: FindingKind; readonly unavailable: Unavailable }
  /** `since`: when the findings still shown were loaded (none shown when undefined). */
  | { readonly kind: FindingKind; readonly failedBecause: unknown; readonly since?: Date };

/** The gaps of one slot's state: its own kind's, and for code findings the AI analysis's. */
export function gapsOfSlot(issueType: IssueType, state: SlotState): KindGap[] {
  if (state.kind === 'failed') return [{ kind: issueType, failedBecause: state.error }];
  const result = shownResult(state);
  return result ? gapsOfResult(result) : [];
}

export function gapsOfResult(result: FindingsResult): KindGap[] {
  const gaps: KindGap[] = [];
  const kind: FindingKind = result.query.issueType;
  if (result.staleBecause !== undefined) gaps.push({ kind, failedBecause: result.staleBecause, since: result.loadedAt });
  else if (result.unavailable) gaps.push({ kind, unavailable: result.unavailable });
  const ai = result.ai;
  if (ai && 'unavailable' in ai) gaps.push({ kind: 'ai', unavailable: ai.unavailable });
  else if (ai) gaps.push({ kind: 'ai', failedBecause: ai.failedBecause, ...(ai.since ? { since: ai.since } : {}) });
  return gaps;
}

/** Kinds whose load failed, named once each in the order users know them ("Secrets, AI analysis"). */
export function failedKinds(gaps: readonly KindGap[]): FindingKind[] {
  return [...new Set(gaps.filter((g) => 'failedBecause' in g).map((g) => g.kind))];
}

/** "Supply Chain and Secrets" */
export function productList(kinds: readonly FindingKind[]): string {
  const names = kinds.map((k) => KIND_PRODUCTS[k]);
  return names.length <= 1 ? names.join('') : t('{0} and {1}', names.slice(0, -1).join(', '), names[names.length - 1] ?? '');
}

/** The refresh's one notification when kinds failed: which, and that what was shown stays. */
export function failureNotice(gaps: readonly KindGap[]): string | undefined {
  const kinds = failedKinds(gaps);
  if (kinds.length === 0) return undefined;
  const first = gaps.find((g) => 'failedBecause' in g);
  const failure = first && 'failedBecause' in first ? first.failedBecause : undefined;
  const reason = failure instanceof PlatformError ? ` ${failure.text}` : failure instanceof Error ? ` ${failure.message}` : '';
  const kept = gaps.some((g) => 'failedBecause' in g && g.since) ? ` ${t('The findings shown before stay, marked stale.')}` : '';
  return `${t('Could not refresh the {0} findings.', productList(kinds))}${reason}${kept} ${t('The other kinds are up to date.')}`;
}
