/**
 * Local changes to findings (a triage state, a reason): applying one to the answers that hold
 * the findings, undoing it exactly, and the filters a patched finding is checked against
 * without asking the platform. The store decides when; this file says how.
 */
import type { Finding, FindingFilters, ScaFacts, SourceRange } from '../model/types';
import { kindOf } from '../model/finding-kinds';
import { filterApplies } from './filters';

/** An answer a patch can change: the store's entry of one query. */
export interface PatchTarget {
  readonly key: string;
  readonly query: { readonly filters: FindingFilters };
  result?: { readonly findings: readonly Finding[] };
  /**
   * Findings a patch took out of this answer (they stopped meeting its filters), with where they
   * were: a later patch that makes one match again (Reopen, Undo) puts it back there. Forgotten
   * when a load brings a new answer.
   */
  removed?: Map<number, { finding: Finding; position: number }>;
}

export interface ActivePatch {
  readonly seq: number;
  /** The deployment and issue type whose findings it changes (see `indexKey`). */
  readonly indexKey: string;
  readonly ids: ReadonlySet<number>;
  readonly change: FindingChange;
  /** Per id, the finding before the patch and the patched one. */
  readonly findings: Map<number, { before: Finding; after: Finding }>;
  /** Per answer, the answer before the patch and the patched one. */
  readonly results: Map<string, { before: NonNullable<PatchTarget['result']>; after: NonNullable<PatchTarget['result']> }>;
  committed: boolean;
}

/** Undoes a patch exactly (what a later load brought stays); `commit` keeps it until a newer load. */
export interface PatchHandle {
  rollback(): void;
  commit(): void;
}

/**
 * The patches in force, in order. A load remembers the number of the latest patch when it
 * started: patches made after that are applied to its answer when it lands (it was asked for
 * before they were made). A committed patch stays until no load that started before it is still
 * on its way; one rolled back goes at once.
 */
export class PatchSequence {
  private readonly patches: ActivePatch[] = [];
  private seq = 0;

  /** The number of the latest patch: a load that starts now has seen every patch up to it. */
  get latest(): number {
    return this.seq;
  }

  /** A new patch, in force from now on. */
  start(indexKey: string, ids: readonly number[], change: FindingChange): ActivePatch {
    const patch: ActivePatch = { seq: ++this.seq, indexKey, ids: new Set(ids), change, findings: new Map(), results: new Map(), committed: false };
    this.patches.push(patch);
    return patch;
  }

  /** The patches made after a load that started at `startSeq`. */
  after(startSeq: number): ActivePatch[] {
    return this.patches.filter((p) => p.seq > startSeq);
  }

  /** Takes a patch out (rolled back); false when it is no longer in force. */
  remove(patch: ActivePatch): boolean {
    const at = this.patches.indexOf(patch);
    if (at < 0) return false;
    this.patches.splice(at, 1);
    return true;
  }

  /** Drops the committed patches that every load in flight has seen (a load sees the patches made before it started). */
  dropSeen(answers: Iterable<{ readonly flight?: { readonly startSeq: number } }>): void {
    let oldestStart = Infinity;
    for (const answer of answers) if (answer.flight && answer.flight.startSeq < oldestStart) oldestStart = answer.flight.startSeq;
    for (let i = this.patches.length - 1; i >= 0; i--) {
      const patch = this.patches[i];
      if (patch.committed && patch.seq <= oldestStart) this.patches.splice(i, 1);
    }
  }

  clear(): void {
    this.patches.length = 0;
  }
}

/**
 * Applies the patch to the answers that hold its findings (they get new answer objects; a
 * finding that no longer meets an answer's filters leaves it) and puts the patched findings in
 * `ids`. Returns the keys of the answers it changed.
 */
export function applyPatch(patch: ActivePatch, targets: readonly PatchTarget[], ids: Map<number, Finding>): string[] {
  const touched: string[] = [];
  for (const target of targets) {
    const result = target.result;
    const returning = target.removed ? [...patch.ids].filter((id) => target.removed?.has(id)) : [];
    if (!result || (returning.length === 0 && !result.findings.some((f) => patch.ids.has(f.id)))) continue;
    const findings: Finding[] = [];
    result.findings.forEach((f, position) => {
      if (!patch.ids.has(f.id)) {
        findings.push(f);
        return;
      }
      const after = patchedFinding(patch, f, ids);
      if (matchesFilters(after, target.query.filters)) findings.push(after);
      else (target.removed ??= new Map()).set(f.id, { finding: after, position });
    });
    for (const id of returning) {
      const gone = target.removed?.get(id);
      if (!gone || findings.some((f) => f.id === id)) continue;
      const after = patchedFinding(patch, gone.finding, ids);
      if (!matchesFilters(after, target.query.filters)) {
        target.removed?.set(id, { finding: after, position: gone.position });
        continue;
      }
      target.removed?.delete(id);
      findings.splice(Math.min(gone.position, findings.length), 0, after);
    }
    const next = { ...result, findings };
    patch.results.set(target.key, { before: result, after: next });
    target.result = next;
    touched.push(target.key);
  }
  return touched;
}

/** The patched object of a finding: made once per finding object, and put in the index. */
function patchedFinding(patch: ActivePatch, finding: Finding, ids: Map<number, Finding>): Finding {
  const known = patch.findings.get(finding.id);
  if (known && (known.before === finding || known.after === finding)) return known.after;
  const after = applyChange(finding, patch.change);
  patch.findings.set(finding.id, { before: finding, after });
  ids.set(finding.id, after);
  return after;
}

/**
 * Puts back the very objects from before the patch, where nothing newer replaced them (an
 * answer loaded since wins). Returns the keys of the answers it changed.
 */
export function undoPatch(patch: ActivePatch, targets: ReadonlyMap<string, PatchTarget>, ids: Map<number, Finding>): string[] {
  for (const [id, { before, after }] of patch.findings) if (ids.get(id) === after) ids.set(id, before);
  const touched: string[] = [];
  for (const [key, { before, after }] of patch.results) {
    const target = targets.get(key);
    if (target?.result === after) {
      target.result = before;
      // What the patch took out is back in the answer: nothing of it is waiting to return.
      for (const id of patch.ids) if (before.findings.some((f) => f.id === id)) target.removed?.delete(id);
      touched.push(key);
    }
  }
  return touched;
}

/**
 * What a patch may change: what triage and tickets change on the platform. A key given as
 * `null` removes the value (a ticket unlinked); an absent key leaves it.
 */
export type FindingChange = { readonly [K in 'status' | 'triageReason' | 'triageComment' | 'ticket']?: Finding[K] | null };

/** The finding with `change` applied: a new object, the original left untouched for the undo. */
export function applyChange(finding: Finding, change: FindingChange): Finding {
  const next: Record<string, unknown> = { ...finding };
  for (const [key, value] of Object.entries(change)) next[key] = value === null ? undefined : value;
  return next as unknown as Finding;
}

/**
 * Whether a finding still belongs to the answer of `filters`, judged by the fields a patch can
 * change or that the platform filters on locally knowable facts. Used only for patched findings:
 * the platform's own answer is trusted for the others.
 */
export function matchesFilters(finding: Finding, filters: FindingFilters): boolean {
  if (filters.status !== undefined && finding.status !== filters.status) return false;
  if (filters.severities && filters.severities.length > 0 && !filters.severities.includes(finding.severity)) return false;
  // "Applies when status is ignored": it narrows ignored findings and leaves the others alone.
  const reasons = filters.triageReasons;
  if (reasons && reasons.length > 0 && finding.status === 'ignored' && !reasons.includes(finding.triageReason ?? '')) return false;
  if (filters.confidence !== undefined && filterApplies('confidence', finding.issueType) && finding.confidence !== filters.confidence) return false;
  const sca = finding.sca;
  if (sca && kindOf(finding).packages) {
    if (filters.exposures && filters.exposures.length > 0 && !filters.exposures.includes(sca.reachability ?? '')) return false;
    if (filters.transitivities && filters.transitivities.length > 0 && !filters.transitivities.includes(sca.transitivity ?? '')) return false;
    if (filters.isMalicious !== undefined && (sca.isMalicious === true) !== filters.isMalicious) return false;
  }
  return true;
}

/**
 * Two decodings of one finding that say the same: the later one can then share the earlier
 * object, so a finding loaded by two queries is held once. Nested parts decoded through one
 * interner are compared field by field (their objects differ between loads).
 */
export function sameFinding(a: Finding, b: Finding): boolean {
  return (
    a.id === b.id &&
    a.issueType === b.issueType &&
    a.ruleName === b.ruleName &&
    a.message === b.message &&
    a.severity === b.severity &&
    a.confidence === b.confidence &&
    a.status === b.status &&
    a.ref === b.ref &&
    a.repositoryName === b.repositoryName &&
    a.lineOfCodeUrl === b.lineOfCodeUrl &&
    a.triageReason === b.triageReason &&
    a.relevantSince === b.relevantSince &&
    a.matchKey === b.matchKey &&
    a.triageComment === b.triageComment &&
    a.ticket?.slug === b.ticket?.slug &&
    a.ticket?.url === b.ticket?.url &&
    a.ticket?.id === b.ticket?.id &&
    sameRange(a.location, b.location) &&
    samePolicy(a.policy, b.policy) &&
    sameSca(a.sca, b.sca) &&
    a.ai?.impact === b.ai?.impact &&
    (a.ai === undefined) === (b.ai === undefined) &&
    a.secret?.service === b.secret?.service &&
    a.secret?.validation === b.secret?.validation
  );
}

function sameRange(a: SourceRange | undefined, b: SourceRange | undefined): boolean {
  if (a === b) return true;
  return (
    a !== undefined &&
    b !== undefined &&
    a.filePath === b.filePath &&
    a.line === b.line &&
    a.column === b.column &&
    a.endLine === b.endLine &&
    a.endColumn === b.endColumn
  );
}

function samePolicy(a: Finding['policy'], b: Finding['policy']): boolean {
  return a === b || (a !== undefined && b !== undefined && a.id === b.id && a.name === b.name && a.slug === b.slug);
}

function sameSca(a: ScaFacts | undefined, b: ScaFacts | undefined): boolean {
  if (a === b) return true;
  return (
    a !== undefined &&
    b !== undefined &&
    a.advisory === b.advisory &&
    a.package === b.package &&
    a.version === b.version &&
    a.ecosystem === b.ecosystem &&
    a.transitivity === b.transitivity &&
    a.reachability === b.reachability &&
    a.isMalicious === b.isMalicious &&
    a.lockfileLineUrl === b.lockfileLineUrl &&
    a.lockfileLine === b.lockfileLine &&
    (a.fixVersions ?? []).join('\n') === (b.fixVersions ?? []).join('\n') &&
    sameRange(a.usage, b.usage)
  );
}
