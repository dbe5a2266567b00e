/**
 * Joins the inventory with the supply-chain findings already held: a dependency's open findings
 * are those naming the same package and version. Names are compared as each ecosystem compares
 * them (PyPI ignores case and treats runs of `-`, `_` and `.` alike), so `PyYAML` in a finding
 * meets `pyyaml` in a lockfile.
 */
import type { Dependency } from '../model/dependency';
import type { Finding, FindingStatus } from '../model/types';
import { pep503Name } from './name-mentions';
import { kindOf } from '../model/finding-kinds';

/** A finding still to act on: neither fixed nor ignored. */
const OPEN: ReadonlySet<FindingStatus> = new Set(['open', 'reviewing', 'fixing']);

export function isOpenFinding(finding: Finding): boolean {
  return OPEN.has(finding.status);
}

/** The name as its ecosystem compares it. */
export function packageName(ecosystem: string | undefined, name: string): string {
  return ecosystem?.toLowerCase() === 'pypi' ? pep503Name(name) : name;
}

function identity(ecosystem: string | undefined, name: string, version: string): string {
  return `${packageName(ecosystem, name)}\u0000${version}`;
}

/** Open supply-chain findings by package and version, built once per list of findings. */
export class PackageFindings {
  private readonly byPackage = new Map<string, Finding[]>();

  constructor(findings: Iterable<Finding>) {
    for (const finding of findings) {
      const sca = finding.sca;
      if (!kindOf(finding).packages || !sca?.package || sca.version === undefined || !isOpenFinding(finding)) continue;
      const key = identity(sca.ecosystem, sca.package, sca.version);
      const list = this.byPackage.get(key);
      if (list) list.push(finding);
      else this.byPackage.set(key, [finding]);
    }
  }

  /** An ecosystem the finding names must be the dependency's. */
  of(dependency: Dependency): readonly Finding[] {
    const ecosystem = dependency.ecosystem.toLowerCase();
    return (this.byPackage.get(identity(dependency.ecosystem, dependency.name, dependency.version)) ?? []).filter(
      (f) => !f.sca?.ecosystem || f.sca.ecosystem.toLowerCase() === ecosystem,
    );
  }
}

const indexes = new WeakMap<readonly Finding[], PackageFindings>();

/** The index of a list of findings, built once per list (an answer's list is never changed in place). */
export function packageFindingsOf(findings: readonly Finding[]): PackageFindings {
  let index = indexes.get(findings);
  if (!index) indexes.set(findings, (index = new PackageFindings(findings)));
  return index;
}

/** A dependency's open findings among `findings` (one lookup; build a {@link PackageFindings} for many). */
export function findingsOfDependency(dependency: Dependency, findings: Iterable<Finding>): readonly Finding[] {
  return new PackageFindings(findings).of(dependency);
}
