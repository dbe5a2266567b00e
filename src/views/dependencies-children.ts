/**
 * The inventory's levels of the Projects tree: under a project, "Dependencies"; under it, the
 * lockfiles; under each, its packages (paged like findings). Pure (no `vscode`).
 */
import type { Dependency, LockfileSummary } from '../core/model/dependency';
import type { Finding } from '../core/model/types';
import type { InventoryAnswer, LicenseOutcomes } from '../core/services/dependencies-service';
import type { Unavailable } from '../core/services/kind-availability';
import { dependencyKey } from '../core/services/dependency-usage';
import { describeFilter, passes, type DependencyViewFilter } from '../core/services/dependency-view-filter';
import { actions, message, notAvailable } from './state-messages';
import { formatCount, t } from '../core/l10n';
import {
  nodeIds,
  PAGE_SIZE,
  pageRanges,
  uniqueBy,
  type DependenciesNode,
  type LockfileNode,
  type Node,
  type PackageItem,
  type PackageNode,
  type PageNode,
  type ProjectNode,
} from './tree-nodes';

/** The product's name as the platform's license page gives it. */
const PRODUCT = 'Supply Chain';

/** Calm, as for a kind of findings the deployment lacks: what to check, no Retry. */
function inventoryUnavailable(unavailable: Unavailable): ReturnType<typeof notAvailable> {
  return { ...notAvailable(PRODUCT, unavailable), text: t('Dependencies — the inventory is not available for this deployment ({0})', unavailable.status) };
}

export function dependenciesNode(project: ProjectNode): DependenciesNode {
  return { kind: 'dependencies', id: nodeIds.dependencies(project.id), parent: project, repositoryId: String(project.project.id) };
}

export function lockfileChildren(node: DependenciesNode, answer: InventoryAnswer<LockfileSummary>): Node[] {
  const say = (spec: Parameters<typeof message>[2]): Node => message(node, node.id, spec);
  if (answer.unavailable) return [say(inventoryUnavailable(answer.unavailable))];
  const lockfiles = uniqueBy(
    [...answer.items].sort((a, b) => a.path.localeCompare(b.path)),
    (l) => l.path,
  );
  if (lockfiles.length === 0) {
    return [
      say({
        state: 'empty',
        tone: 'info',
        text: t('No dependencies known for {0}', node.parent.project.name),
        tooltip: t('The platform lists no lockfile for this project: it has not been scanned with Supply Chain, or it declares no dependencies.'),
      }),
    ];
  }
  return lockfiles.map((lockfile) => ({ kind: 'lockfile', id: nodeIds.lockfile(node.id, lockfile.path), parent: node, lockfile }));
}

/** What a lockfile's packages are shown with. */
export interface PackageContext {
  readonly filter: DependencyViewFilter;
  readonly outcomes: LicenseOutcomes;
  /** Open supply-chain findings of a dependency, from the findings already held. */
  findingsOf(dependency: Dependency): readonly Finding[];
}

/** The packages that pass the filter, direct first, then by name. */
export function packageItems(dependencies: readonly Dependency[], context: PackageContext): PackageItem[] {
  const items: PackageItem[] = [];
  for (const dependency of dependencies) {
    const findings = context.findingsOf(dependency);
    if (!passes(context.filter, dependency, findings.length > 0)) continue;
    const licensePolicy = context.outcomes.get(dependencyKey(dependency));
    items.push({ dependency, findings, ...(licensePolicy ? { licensePolicy } : {}) });
  }
  const direct = (i: PackageItem): number => (i.dependency.transitivity === 'direct' ? 0 : 1);
  return items.sort(
    (a, b) => direct(a) - direct(b) || a.dependency.name.localeCompare(b.dependency.name) || a.dependency.version.localeCompare(b.dependency.version),
  );
}

export function packageChildren(node: LockfileNode, answer: InventoryAnswer<Dependency>, context: PackageContext): Node[] {
  const say = (spec: Parameters<typeof message>[2]): Node => message(node, node.id, spec);
  if (answer.unavailable) return [say(inventoryUnavailable(answer.unavailable))];
  const items = packageItems(answer.items, context);
  const head =
    answer.skipped > 0
      ? [
          say({
            state: 'skipped',
            tone: 'warning',
            text:
              answer.skipped === 1
                ? t('{0} dependency could not be read and is not shown', formatCount(1))
                : t('{0} dependencies could not be read and are not shown', formatCount(answer.skipped)),
            action: actions.showLogs(),
          }),
        ]
      : [];
  if (items.length === 0) {
    const filtered = describeFilter(context.filter);
    return [
      ...head,
      say(
        filtered
          ? // One row: its click (or Enter) clears the filter, with nothing nested to open first.
            {
              state: 'filtered',
              tone: 'info',
              icon: 'filter',
              text: t('No dependency here matches {0}', filtered),
              tooltip: t('No dependency of this lockfile matches {0}. Click to clear the dependency filter.', filtered),
              action: { title: t('Clear Dependency Filter'), command: 'appsecFindings.filterDependencies', args: [{}], icon: 'clear-all' },
            }
          : { state: 'empty', tone: 'info', text: t('No dependencies listed for this lockfile') },
      ),
    ];
  }
  if (items.length <= PAGE_SIZE) return [...head, ...packageNodes(node, items)];
  return [
    ...head,
    ...pageRanges(items.length).map(({ start, end }): PageNode => ({
      kind: 'page',
      of: 'packages',
      id: nodeIds.page(node.id, start),
      parent: node,
      start,
      end,
      items: items.slice(start, end),
    })),
  ];
}

export function packageNodes(lockfile: LockfileNode, items: readonly PackageItem[], parent: LockfileNode | PageNode = lockfile): PackageNode[] {
  return uniqueBy(
    items.map((item): PackageNode => ({ kind: 'package', id: nodeIds.package(lockfile.id, item.dependency), parent, item })),
    (n) => n.id,
  );
}

/** The children of a page of packages. */
export function packagePageChildren(page: Extract<PageNode, { of: 'packages' }>): PackageNode[] {
  return packageNodes(page.parent, page.items, page);
}

/** A load that failed: the reason, with Refresh (which reads the inventory again) and the log. */
export function inventoryFailed(parent: Node, reason: string): Node[] {
  return [
    message(parent, parent.id, {
      state: 'failed',
      tone: 'error',
      text: t('Could not load the dependencies: {0}', reason),
      actions: [actions.refresh(), actions.showLogs()],
    }),
  ];
}
