/**
 * What the tree's dependency lists are narrowed to: ecosystems, direct or transitive, vulnerable
 * only, licenses. Applied to lists already read (a lockfile is read whole), so changing it asks
 * the platform for nothing. Pure state with one change event.
 */
import { Emitter, type Disposable } from '../events';
import type { Dependency } from '../model/dependency';

export interface DependencyViewFilter {
  readonly ecosystems?: readonly string[];
  readonly transitivity?: readonly ('direct' | 'transitive')[];
  readonly vulnerableOnly?: boolean;
  readonly licenses?: readonly string[];
}

/** Whether a dependency passes; `vulnerable` says whether it has open findings. */
export function passes(filter: DependencyViewFilter, d: Dependency, vulnerable: boolean): boolean {
  if (filter.vulnerableOnly && !vulnerable) return false;
  if (filter.ecosystems?.length && !filter.ecosystems.includes(d.ecosystem)) return false;
  if (filter.transitivity?.length && !filter.transitivity.some((t) => t === d.transitivity)) return false;
  if (filter.licenses?.length && !d.licenses.some((l) => filter.licenses?.includes(l))) return false;
  return true;
}

/** "npm · direct · vulnerable · MIT", or undefined when nothing is filtered. */
export function describeFilter(filter: DependencyViewFilter): string | undefined {
  const parts = [...(filter.ecosystems ?? []), ...(filter.transitivity ?? []), ...(filter.vulnerableOnly ? ['vulnerable'] : []), ...(filter.licenses ?? [])];
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

export class DependencyFilterState implements Disposable {
  private current: DependencyViewFilter = {};
  private readonly changed = new Emitter<DependencyViewFilter>();
  readonly onDidChange = this.changed.event;

  get value(): DependencyViewFilter {
    return this.current;
  }

  set(filter: DependencyViewFilter): void {
    // Empty parts are dropped so "nothing filtered" has one shape.
    const next: DependencyViewFilter = {
      ...(filter.ecosystems?.length ? { ecosystems: filter.ecosystems } : {}),
      ...(filter.transitivity?.length ? { transitivity: filter.transitivity } : {}),
      ...(filter.vulnerableOnly ? { vulnerableOnly: true } : {}),
      ...(filter.licenses?.length ? { licenses: filter.licenses } : {}),
    };
    this.current = next;
    this.changed.fire(next);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
