/**
 * The supply-chain inventory's commands: "where else is this package used?" and the tree's
 * dependency filter. Both run without prompts when given their arguments (docs: automation).
 */
import * as vscode from 'vscode';
import { showInformation, showInput, withProgress } from '../host/notify';
import { formatCount, t } from '../core/l10n';
import { DEPENDENCY_ECOSYSTEMS, ecosystemName } from '../core/model/dependency';
import { checkPackageQuery, contractRow, parseVersionRange, splitTypedPackage, type PackageQuery, type UsageRow } from '../core/services/dependency-usage';
import type { DependencyViewFilter } from '../core/services/dependency-view-filter';
import { unavailableText } from '../core/services/kind-availability';
import { withAbortSignal } from '../host/cancellation';
import { boolean, listOf, noSuchOption, object, oneOf, optional, schema, text, valid, type Infer } from '../host/schema';
import { checkedQuery, PACKAGE_QUERY_FIELDS } from '../host/package-query-input';
import type { CommandDeps } from './command-deps';
import { inertIcons } from '../core/model/untrusted-text';

/** A package name, in the input box (a name, not words). */
const PACKAGE_EXAMPLE = 'log4j-core';

/** `whereUsed`'s query, checked like typed input. */
export const WHERE_USED_QUERY = checkedQuery(
  object(PACKAGE_QUERY_FIELDS, 'whereUsed takes { package, ecosystem?, version?, lower?, upper? }.', noSuchOption('whereUsed')),
);

/** A query object, or what a tree node or a manifest line carries: `{ dependency }` or `{ item: { dependency } }`. */
export const WHERE_USED_ARGUMENT = schema<PackageQuery | undefined>((value) => {
  if (value === undefined || Array.isArray(value)) return valid(undefined);
  const carried = dependencyOf(value);
  if (carried) return valid(carried);
  return WHERE_USED_QUERY.check(value);
});

function dependencyOf(value: unknown): PackageQuery | undefined {
  const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined);
  const outer = record(value);
  const dependency = record(outer?.dependency) ?? record(record(outer?.item)?.dependency);
  if (typeof dependency?.name !== 'string') return undefined;
  return { package: dependency.name, ...(typeof dependency.ecosystem === 'string' ? { ecosystem: dependency.ecosystem } : {}) };
}

export const DEPENDENCY_FILTER = object(
  {
    ecosystems: optional(listOf(text('each ecosystem is text, such as npm.'), 'ecosystems is a list of ecosystems.')),
    transitivity: optional(listOf(oneOf(['direct', 'transitive'] as const, 'transitivity takes direct or transitive.'), 'transitivity is a list.')),
    vulnerableOnly: optional(boolean('vulnerableOnly must be true or false.')),
    licenses: optional(listOf(text('each license is text, such as MIT.'), 'licenses is a list of licenses.')),
  },
  'filterDependencies takes { ecosystems?, transitivity?, vulnerableOnly?, licenses? }.',
  noSuchOption('filterDependencies'),
);
export type DependencyFilterArgument = Infer<typeof DEPENDENCY_FILTER>;

type UsageDeps = Pick<CommandDeps, 'dependencies' | 'repos' | 'revealProject'>;

/**
 * `whereUsed(query?)`: every repository and lockfile of the deployment that uses the package,
 * shown in a list (in range first) and resolved with the contract's rows.
 */
export async function whereUsed(app: UsageDeps, given?: PackageQuery): Promise<ReturnType<typeof contractRow>[] | undefined> {
  const query = given ?? (await askQuery());
  if (!query) return undefined;
  const problem = checkPackageQuery(query);
  if (problem) throw new Error(problem);
  const usage = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: finding where {0} is used…', query.package), cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, (signal) => app.dependencies.whereUsed(query, signal)),
  );
  if (usage.unavailable) {
    void showInformation(t('AppSec: the supply-chain inventory is {0}, so where {1} is used is not known.', unavailableText(usage.unavailable), query.package));
    return [];
  }
  showUsage(app, query, usage.rows);
  return usage.rows.map(contractRow);
}

async function askQuery(): Promise<PackageQuery | undefined> {
  const badRange = t('Write bounds such as >=2.0.0 <2.17.1, or one exact version.');
  const typed = await showInput({
    title: t('AppSec: where is this package used? (1/2)'),
    prompt: t("The package's name, as its lockfiles spell it, and a version range after it if you like ({0}).", 'express <4.19.2'),
    placeHolder: PACKAGE_EXAMPLE,
    validateInput: (v) => {
      const { name, range } = splitTypedPackage(v);
      if (name === '') return t('Give a package name.');
      return parseVersionRange(range) ? undefined : badRange;
    },
  });
  if (typed === undefined) return undefined;
  // A range typed after the name is the answer to the second question: it is not asked.
  const { name, range: typedRange } = splitTypedPackage(typed);
  const range =
    typedRange !== ''
      ? typedRange
      : await showInput({
          title: t('AppSec: where is {0} used? (2/2)', name),
          prompt: t('A version range to highlight (optional): <2.17.1, >=2.0.0 <2.17.1, or an exact version.'),
          placeHolder: '<2.17.1',
          validateInput: (v) => (parseVersionRange(v) ? undefined : badRange),
        });
  if (range === undefined) return undefined;
  return { package: name, ...parseVersionRange(range) };
}

interface UsageItem extends vscode.QuickPickItem {
  readonly row?: UsageRow;
}

/** The rows in a list the user can act on; not awaited, so the command resolves with the rows at once. */
function showUsage(app: UsageDeps, query: PackageQuery, rows: readonly UsageRow[]): void {
  const bounded = query.version !== undefined || query.lower !== undefined || query.upper !== undefined;
  const range = query.version ?? [query.lower, query.upper].filter(Boolean).join(' ');
  const inWorkspace = app.repos.projectNames();
  const item = (row: UsageRow): UsageItem => ({
    label: `${bounded && row.inRange ? '$(warning) ' : ''}${inertIcons(row.repository)}`,
    description: `${inertIcons(row.version)} · ${transitivityWord(row.transitivity)}${inWorkspace.has(row.repository) ? ` · ${t('in workspace')}` : ''}`,
    detail: inertIcons(row.lockfilePath),
    row,
  });
  const items: UsageItem[] = [];
  const inside = rows.filter((r) => r.inRange);
  const outside = rows.filter((r) => !r.inRange);
  if (bounded) items.push({ label: t('In range {0} ({1})', range, formatCount(inside.length)), kind: vscode.QuickPickItemKind.Separator });
  items.push(...inside.map(item));
  if (outside.length > 0)
    items.push({ label: t('Other versions ({0})', formatCount(outside.length)), kind: vscode.QuickPickItemKind.Separator }, ...outside.map(item));
  const pick = vscode.window.createQuickPick<UsageItem>();
  const repositories = new Set(rows.map((r) => r.repositoryId)).size;
  const usedIn =
    repositories === 1
      ? t('AppSec: {0} is used in 1 repository', query.package)
      : t('AppSec: {0} is used in {1} repositories', query.package, formatCount(repositories));
  pick.title = bounded
    ? inside.length === 1
      ? t('{0}; 1 use in range {1}', usedIn, range)
      : t('{0}; {1} uses in range {2}', usedIn, formatCount(inside.length), range)
    : usedIn;
  pick.placeholder =
    rows.length === 0 ? t('No repository of the deployment uses {0}', query.package) : t('Open the file in the workspace, or the project in the tree');
  pick.items = items;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.onDidAccept(() => {
    const row = pick.selectedItems[0]?.row;
    pick.hide();
    if (row) void openUsage(app, row);
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}

/** The lockfile in the workspace when its repository is there, else the project in the tree. */
async function openUsage(app: UsageDeps, row: UsageRow): Promise<void> {
  const repo = app.repos.repos().find((r) => r.projectName === row.repository);
  if (repo && row.lockfilePath !== '') {
    const uri = vscode.Uri.joinPath(repo.folder.uri, ...row.lockfilePath.split('/'));
    const line = Math.max(0, (row.line ?? 1) - 1);
    try {
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0) });
      return;
    } catch {
      // The file is not in this checkout (another branch): the project in the tree instead.
    }
  }
  if (!(await app.revealProject(row.repository))) {
    void showInformation(t('AppSec: {0} is not in the Projects view.', row.repository));
  }
}

type FilterDeps = Pick<CommandDeps, 'dependencyFilter' | 'dependencies'>;

/** `filterDependencies(filter?)`: what the tree's dependency lists show; `{}` clears it. */
export async function filterDependencies(app: FilterDeps, given?: DependencyViewFilter): Promise<DependencyViewFilter | undefined> {
  const chosen = given ?? (await pickFilter(app));
  if (!chosen) return undefined;
  app.dependencyFilter.set(chosen);
  return app.dependencyFilter.value;
}

interface FilterItem extends vscode.QuickPickItem {
  readonly apply?: (f: { -readonly [K in keyof DependencyViewFilter]: DependencyViewFilter[K] }) => void;
}

/**
 * The ecosystems of the packages listed so far, and any the filter keeps now; every known one
 * (but "no package manager") before anything was listed.
 */
function ecosystemsToOffer(app: FilterDeps, now: DependencyViewFilter): string[] {
  const seen = app.dependencies.seenEcosystems();
  const base = seen.length > 0 ? seen : DEPENDENCY_ECOSYSTEMS.filter((e) => e !== 'no_package_manager');
  return [...new Set([...base, ...(now.ecosystems ?? [])])];
}

async function pickFilter(app: FilterDeps): Promise<DependencyViewFilter | undefined> {
  const now = app.dependencyFilter.value;
  const add = <T>(list: readonly T[] | undefined, value: T): T[] => [...(list ?? []), value];
  const items: FilterItem[] = [
    {
      label: t('Vulnerable only'),
      description: t('packages with open supply-chain findings'),
      picked: now.vulnerableOnly === true,
      apply: (f) => (f.vulnerableOnly = true),
    },
    { label: t('Direct'), picked: now.transitivity?.includes('direct') ?? false, apply: (f) => (f.transitivity = add(f.transitivity, 'direct')) },
    { label: t('Transitive'), picked: now.transitivity?.includes('transitive') ?? false, apply: (f) => (f.transitivity = add(f.transitivity, 'transitive')) },
    { label: t('Ecosystem'), kind: vscode.QuickPickItemKind.Separator },
    ...ecosystemsToOffer(app, now).map((e): FilterItem => ({
      label: ecosystemName(e),
      picked: now.ecosystems?.includes(e) ?? false,
      apply: (f) => (f.ecosystems = add(f.ecosystems, e)),
    })),
    { label: t('License'), kind: vscode.QuickPickItemKind.Separator },
    ...app.dependencies
      .seenLicenses()
      .map((l): FilterItem => ({ label: inertIcons(l), picked: now.licenses?.includes(l) ?? false, apply: (f) => (f.licenses = add(f.licenses, l)) })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: t('AppSec: filter dependencies (none picked shows all)'),
    canPickMany: true,
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  const filter: { -readonly [K in keyof DependencyViewFilter]: DependencyViewFilter[K] } = {};
  for (const item of picked) item.apply?.(filter);
  return filter;
}

/** `direct` and `transitive` in the display language; another value as the platform sent it. */
function transitivityWord(transitivity: string): string {
  return transitivity === 'direct' ? t('direct') : transitivity === 'transitive' ? t('transitive') : transitivity;
}
