/**
 * Every loaded finding once, by deployment, issue type and id: the object every view shows.
 * A fresh answer is admitted through it, so a finding another answer already holds unchanged is
 * shared rather than kept twice, and a changed one replaces the old object (the caller swaps it
 * in the answers that held it).
 */
import type { Finding, IssueType } from '../model/types';
import { sameFinding } from './finding-patches';

export function indexKey(deploymentSlug: string, issueType: IssueType): string {
  return `${deploymentSlug}\u0000${issueType}`;
}

export class FindingIndex {
  private readonly byType = new Map<string, Map<number, Finding>>();

  get(deploymentSlug: string, issueType: IssueType, id: number): Finding | undefined {
    return this.byType.get(indexKey(deploymentSlug, issueType))?.get(id);
  }

  /** The findings of one deployment and issue type by id, for patches (created when missing). */
  ids(key: string): Map<number, Finding> {
    let ids = this.byType.get(key);
    if (!ids) this.byType.set(key, (ids = new Map<number, Finding>()));
    return ids;
  }

  get size(): number {
    let n = 0;
    for (const ids of this.byType.values()) n += ids.size;
    return n;
  }

  clear(): void {
    this.byType.clear();
  }

  /**
   * For a load under way: the held finding of the same id when it is the same, else the fresh
   * one. Nothing is admitted (the load's end does that).
   */
  reuser(key: string): (fresh: Finding) => Finding {
    // Looked up at each call: the index may be cleared or rebuilt while the load runs.
    return (fresh) => {
      const held = this.byType.get(key)?.get(fresh.id);
      return held !== undefined && sameFinding(held, fresh) ? held : fresh;
    };
  }

  /**
   * The findings of a fresh answer, each the one object of its id: unchanged ones share what is
   * held; changed ones replace it (returned as old → new, for the answers that hold the old).
   */
  admit(key: string, fresh: readonly Finding[]): { findings: Finding[]; replaced?: Map<Finding, Finding> } {
    const ids = this.ids(key);
    const findings = fresh.slice();
    let replaced: Map<Finding, Finding> | undefined;
    for (let i = 0; i < findings.length; i++) {
      const finding = findings[i];
      const held = ids.get(finding.id);
      if (held === finding) continue; // reused while loading
      if (held === undefined) {
        ids.set(finding.id, finding);
      } else if (sameFinding(held, finding)) {
        findings[i] = held;
      } else {
        ids.set(finding.id, finding);
        (replaced ??= new Map()).set(held, finding);
      }
    }
    return replaced ? { findings, replaced } : { findings };
  }

  /** The index again from the answers still held (after eviction): nothing refers to a dropped finding. */
  rebuild(answers: Iterable<{ readonly key: string; readonly findings: readonly Finding[] }>): void {
    this.byType.clear();
    for (const { key, findings } of answers) {
      const ids = this.ids(key);
      for (const f of findings) ids.set(f.id, f);
    }
  }
}
