/**
 * Fetches every page of one findings query. A branch is asked for in the spelling the
 * deployment's findings use (`main` or `refs/heads/main`; docs/platform-api.md, "Branches"):
 * while that is not known, an empty answer is asked again in the other spelling, and the one
 * that brought findings is remembered per deployment until `forget()` (sign-out).
 */
import { StringInterner } from '../model/interner';
import { spellRef, spellingOf, type RefSpelling } from '../model/refs';
import type { Finding, FindingFilters } from '../model/types';
import type { FindingsQuery, FindingsResult } from './findings-store';
import type { PlatformApi } from './platform-api';

export class FindingsFetcher {
  private readonly refSpellings = new Map<string, RefSpelling>();

  constructor(private readonly api: () => PlatformApi, private readonly pageSize: number) {}

  /** The branch spelling learnt for a deployment, if any answer taught one. */
  refSpelling(deploymentSlug: string): RefSpelling | undefined {
    return this.refSpellings.get(deploymentSlug);
  }

  /** Forgets what was learnt (another deployment, or none). */
  forget(): void {
    this.refSpellings.clear();
  }

  /** `onProgress` hears the count of findings arrived so far, after each page. */
  async fetch(query: FindingsQuery, signal: AbortSignal, onProgress?: (arrived: number) => void): Promise<FindingsResult> {
    const ref = query.filters.ref;
    if (ref === undefined || spellingOf(ref) === undefined) return this.fetchFiltered(query, query.filters, signal, onProgress);
    const slug = query.deploymentSlug;
    const known = this.refSpellings.get(slug);
    const first = known ?? 'short';
    const result = await this.fetchFiltered(query, { ...query.filters, ref: spellRef(ref, first) }, signal, onProgress);
    if (result.findings.length > 0 || result.skipped > 0) {
      this.refSpellings.set(slug, first);
      return result;
    }
    if (known) return result;
    const other: RefSpelling = first === 'short' ? 'full' : 'short';
    const retried = await this.fetchFiltered(query, { ...query.filters, ref: spellRef(ref, other) }, signal, onProgress);
    if (retried.findings.length > 0 || retried.skipped > 0) this.refSpellings.set(slug, other);
    return retried;
  }

  /** Every page of one query, sent with `filters` (the query's own, or its ref spelled otherwise). */
  private async fetchFiltered(query: FindingsQuery, filters: FindingFilters, signal: AbortSignal, onProgress?: (arrived: number) => void): Promise<FindingsResult> {
    const interner = new StringInterner();
    const findings: Finding[] = [];
    let skipped = 0;
    const pages = this.api().findings(query.deploymentSlug, query.issueType, filters, { signal, pageSize: this.pageSize, interner });
    for await (const page of pages) {
      for (const finding of page.findings) findings.push(finding);
      skipped += page.skipped;
      if (findings.length > 0) onProgress?.(findings.length);
    }
    return { query, findings, skipped, loadedAt: new Date() };
  }
}
