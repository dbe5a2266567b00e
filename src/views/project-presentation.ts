/**
 * How a project reads in the tree: order, description, context flags and tooltip. Pure (no
 * `vscode`); the tooltip's details come from `ProjectsService.loadDetails`, resolved lazily.
 */
import type { Project } from '../core/model/types';
import { codeHostOf } from '../core/model/links';
import { isHttpUrl, TooltipText } from './markdown';
import { formatDayTime, t } from '../core/l10n';

/** Projects of the open workspace first (they are why the user is here), then by name. */
export function sortProjects(projects: readonly Project[], inWorkspace: ReadonlySet<string>): Project[] {
  return [...projects].sort((a, b) => Number(inWorkspace.has(b.name)) - Number(inWorkspace.has(a.name)) || a.name.localeCompare(b.name));
}

/**
 * "project hasUrl github inWorkspace": space-separated flags that menus match with `\bword\b`.
 * `hasUrl` and `github`/`gitlab`/`otherHost` say where the code-host link goes.
 */
export function projectContextValue(project: Project, inWorkspace: boolean): string {
  return ['project', ...codeHostFlags(project.url), ...(inWorkspace ? ['inWorkspace'] : [])].join(' ');
}

/** `hasUrl` plus the code host (`github`, `gitlab`, `otherHost`) of an http(s) link; nothing for another link. */
export function codeHostFlags(url: string | undefined): string[] {
  const host = isHttpUrl(url) ? codeHostOf(url) : undefined;
  return host ? ['hasUrl', host === 'other' ? 'otherHost' : host] : [];
}

/**
 * "main · pci, team-payments". The side bar is narrow at its default width, so the row holds only
 * what differs between projects: the open workspace's project is marked by its icon and said in
 * its tooltip and accessible label, not in words here.
 */
export function projectDescription(project: Project, ref: string | undefined, checkedOut?: string): string {
  const tags = project.tags.length > 0 ? project.tags.join(', ') : undefined;
  // Another branch than the one checked out is what differs from Problems, so it says so first.
  const shown = ref && checkedOut ? t('{0} (checked out: {1})', ref, checkedOut) : ref;
  return [shown, tags].filter((p): p is string => !!p).join(' · ');
}

export function projectAccessibilityLabel(project: Project, inWorkspace: boolean, ref: string | undefined): string {
  const parts = [
    t('project {0}', project.name),
    inWorkspace ? t('in the open workspace') : undefined,
    ref ? t('findings on {0}', ref) : undefined,
    project.tags.length > 0 ? t('tags {0}', project.tags.join(', ')) : undefined,
  ];
  return parts.filter((p): p is string => !!p).join(', ');
}

const onOff = (value: boolean | undefined): string | undefined => (value === undefined ? undefined : value ? t('enabled') : t('disabled'));
const day = (date: Date | undefined): string | undefined => (date ? formatDayTime(date) : undefined);

/**
 * Tooltip markdown. `details` is the single-project answer (with managed scan settings), or the
 * reason it could not be loaded; until then the list's facts are shown.
 */
export function projectTooltip(project: Project, ref: string | undefined, details?: Project | { readonly error: string }, inWorkspace = false): string {
  const full = details && !('error' in details) ? { ...project, ...details } : project;
  const tip = new TooltipText().heading(full.name);
  if (inWorkspace) tip.text(t('Open in this window: its findings are in Problems.'));
  tip
    .field(t('Findings shown for'), ref)
    .field(t('Primary branch'), full.primaryBranch)
    .field(t('Default branch'), full.defaultBranch)
    .field(t('Tags'), full.tags.length > 0 ? full.tags.join(', ') : t('none'))
    .field(t('Last scan'), day(full.latestScanAt) ?? t('never'))
    .field(t('Created'), day(full.createdAt))
    .field(t('Project id'), full.id);
  if (details === undefined) {
    tip.text(t('Loading managed scan settings…'));
  } else if ('error' in details) {
    tip.text(t('Managed scan settings could not be loaded: {0}', details.error));
  } else if (full.managedScanConfig) {
    tip
      .field(t('Managed diff scans'), onOff(full.managedScanConfig.diffScanEnabled) ?? t('unknown'))
      .field(t('Managed full scans'), onOff(full.managedScanConfig.fullScanEnabled) ?? t('unknown'));
  } else {
    tip.text(t('No managed scans configured.'));
  }
  return tip.link(full.url ?? '', full.url).toString();
}
