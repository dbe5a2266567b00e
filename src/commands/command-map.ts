/** The one typed map of command ids to handlers (package.json must declare exactly these). */
import type { App } from '../app';
import { checkConnection } from './connection-commands';
import { clearFilters, filterFindings, groupBy } from './filter-commands';
import { copyFindingId, copyRuleId, openFinding, openInPlatform, openOnCodeHost } from './finding-commands';
import { chooseRef, exportSbom, showSbomExports, tagProject } from './project-commands';
import type { TreeCommandId } from '../views/tree-views';
import type { CommandMap } from './register';
import { refresh, signIn, signOut } from './session-commands';

export function buildCommands(app: App, tree: Record<TreeCommandId, (arg?: unknown) => void>): CommandMap {
  return {
    ...tree,
    'appsecFindings.signIn': (token) => signIn(app, token),
    'appsecFindings.signOut': () => signOut(app),
    'appsecFindings.refresh': () => refresh(app),
    'appsecFindings.filterFindings': (selection) => filterFindings(app, selection),
    'appsecFindings.clearFilters': () => clearFilters(app),
    'appsecFindings.groupBy': (value) => groupBy(app, value),
    'appsecFindings.tagProject': (project, tags) => tagProject(app, project, tags),
    'appsecFindings.chooseRef': (project, ref) => chooseRef(app, project, ref),
    'appsecFindings.exportSbom': (project, options) => exportSbom(app, project, options),
    'appsecFindings.showSbomExports': () => showSbomExports(app),
    'appsecFindings.openInPlatform': (item) => openInPlatform(app, item),
    // One handler; three titles, so the menu names the host it opens.
    'appsecFindings.openOnGitHub': (item) => openOnCodeHost(item),
    'appsecFindings.openOnGitLab': (item) => openOnCodeHost(item),
    'appsecFindings.openOnCodeHost': (item) => openOnCodeHost(item),
    'appsecFindings.openFinding': (item) => openFinding(app, item),
    'appsecFindings.copyFindingId': (item) => copyFindingId(app, item),
    'appsecFindings.copyRuleId': (item) => copyRuleId(app, item),
    'appsecFindings.showLogs': () => app.log.show(),
    'appsecFindings.checkConnection': () => checkConnection(app),
  };
}
