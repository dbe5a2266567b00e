/**
 * The one typed map of command ids to handlers (package.json must declare exactly these). Each
 * handler's arguments are typed by `CommandSignatures` and checked by `COMMAND_ARGUMENTS`
 * (command-arguments.ts) before it runs.
 */
import type { TreeCommandHandlers } from '../views/tree-views';
import { agentServer, connectAgentCommand } from './agent-server-commands';
import { openFindingLink } from './link-commands';
import { checkConnection } from './connection-commands';
import type { CommandMap } from './command-arguments';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { itemOf } from './command-item';
import { fetchScannedCommit } from './drift-commands';
import { filterDependencies, whereUsed } from './dependency-commands';
import { clearFilters, filterByFile, filterByRule, filterBySeverity, filterFindings, groupBy } from './filter-commands';
import { copyFindingId, copyLink, copyRuleId, fixApplied, openFinding, openInPlatform, openOnCodeHost, showDetails, showRule } from './finding-commands';
import { chooseRef, tagProject } from './project-commands';
import { exportSarif } from './sarif-commands';
import { exportSbom, showSbomExports } from './sbom-commands';
import { refresh, signIn, signOut } from './session-commands';
import { createTicket, linkTicket, unlinkTicket, unlinkTicketEverywhere } from './ticket-commands';
import { setRuleMode } from './policy-commands';
import { editTags, setManagedScans, setPrimaryBranch } from './project-settings-commands';
import { addNote, ignore, setState, triageCommand } from './triage-commands';
import { showTrace } from './trace-commands';
import { fixWithAgent, requestAutofix } from './fix-commands';
import { isFindingTarget } from './finding-target-argument';

/** How a command reads the item it was given: what every group below shares. */
interface ItemReaders {
  /** Run from the palette (no argument), an item command acts on the item selected in a view. */
  readonly item: (given: CommandItem | undefined) => CommandItem;
  /** Triage and tickets: without an argument, the view's whole selection (see `subjectOr`). */
  readonly subject: (given: CommandItem | undefined) => CommandItem | undefined;
  /** A hover's command link names its finding by reference: the store's finding as it is now. */
  readonly withFinding: (given: CommandItem) => CommandItem;
}

export function buildCommands(app: CommandDeps, tree: TreeCommandHandlers): CommandMap {
  const withFinding = (given: CommandItem): CommandItem => {
    const slug = app.session.deployment?.slug;
    const finding = given.findingRef && !given.finding && slug ? app.findings.finding(slug, given.findingRef.issueType, given.findingRef.id) : undefined;
    return finding ? { ...given, finding } : given;
  };
  const readers: ItemReaders = {
    withFinding,
    item: (given) => (given ? withFinding(given) : itemOf(app.selectedItem())),
    subject: (given) => given && withFinding(given),
  };
  return { ...tree, ...sessionCommands(app), ...projectCommands(app, readers), ...findingCommands(app, readers), ...triageCommands(app, readers) };
}

/** The session, the views' filters, the connection, the inventory and the agents. */
function sessionCommands(app: CommandDeps) {
  return {
    'appsecFindings.signIn': (token) => signIn(app, token),
    'appsecFindings.signOut': () => signOut(app),
    'appsecFindings.refresh': () => refresh(app),
    'appsecFindings.filterFindings': (selection) => filterFindings(app, selection),
    'appsecFindings.clearFilters': () => clearFilters(app),
    'appsecFindings.groupBy': (by) => groupBy(app, by),
    'appsecFindings.showLogs': () => app.log.show(),
    'appsecFindings.checkConnection': () => checkConnection(app),
    'appsecFindings.fetchScannedCommit': (which) => fetchScannedCommit(app, which),
    'appsecFindings.whereUsed': (query) => whereUsed(app, query),
    'appsecFindings.filterDependencies': (filter) => filterDependencies(app, filter),
    'appsecFindings.agentServer': () => agentServer(app),
    'appsecFindings.connectAgent': (request) => connectAgentCommand(app, request),
    'appsecFindings.openFindingLink': (link) => openFindingLink(app, link),
  } satisfies Partial<CommandMap>;
}

/** A project: its ref, tags, settings and exports, and its policy rules. */
function projectCommands(app: CommandDeps, { item }: ItemReaders) {
  return {
    'appsecFindings.tagProject': (project, tags) => tagProject(app, item(project), tags),
    'appsecFindings.chooseRef': (project, ref) => chooseRef(app, item(project), ref),
    'appsecFindings.exportSbom': (project, options) => exportSbom(app, item(project), options),
    'appsecFindings.exportSarif': (project, options) => exportSarif(app, item(project), options),
    'appsecFindings.showSbomExports': () => showSbomExports(app),
    'appsecFindings.editTags': (project, changes) => editTags(app, item(project), changes),
    'appsecFindings.setPrimaryBranch': (project, branch) => setPrimaryBranch(app, item(project), branch),
    'appsecFindings.setManagedScans': (project, change) => setManagedScans(app, item(project), change),
    // The menu's four modes run the one command with the rule they were opened on.
    'appsecFindings.setRuleMode': (target) => setRuleMode(app, target ?? item(undefined)),
    'appsecFindings.setRuleModeMonitor': (rule) => setRuleMode(app, item(rule), 'monitor'),
    'appsecFindings.setRuleModeComment': (rule) => setRuleMode(app, item(rule), 'comment'),
    'appsecFindings.setRuleModeBlock': (rule) => setRuleMode(app, item(rule), 'block'),
    'appsecFindings.setRuleModeDisabled': (rule) => setRuleMode(app, item(rule), 'disabled'),
    'appsecFindings.unlinkTicketEverywhere': (target) => unlinkTicketEverywhere(app, target && 'ticketId' in target ? target : item(target)),
  } satisfies Partial<CommandMap>;
}

/** One finding: where it is, its links, its rule, its story and its fixes. */
function findingCommands(app: CommandDeps, { item, subject, withFinding }: ItemReaders) {
  return {
    'appsecFindings.openInPlatform': (arg) => openInPlatform(app, item(arg)),
    // One handler; three titles, so the menu names the host it opens.
    'appsecFindings.openOnGitHub': (arg) => openOnCodeHost(item(arg)),
    'appsecFindings.openOnGitLab': (arg) => openOnCodeHost(item(arg)),
    'appsecFindings.openOnCodeHost': (arg) => openOnCodeHost(item(arg)),
    'appsecFindings.openFinding': (arg) => openFinding(app, item(arg)),
    'appsecFindings.copyFindingId': (arg) => copyFindingId(app, item(arg)),
    'appsecFindings.copyLink': (arg) => copyLink(app, item(arg)),
    'appsecFindings.filterBySeverity': (arg) => filterBySeverity(app, item(arg)),
    'appsecFindings.filterByRule': (arg) => filterByRule(app, item(arg)),
    'appsecFindings.filterByFile': (arg) => filterByFile(app, item(arg)),
    'appsecFindings.showRule': (arg) => showRule(app, item(arg)),
    'appsecFindings.copyRuleId': (arg) => copyRuleId(app, item(arg)),
    'appsecFindings.fixApplied': (arg) => fixApplied(app, arg),
    'appsecFindings.showDetails': (arg) => showDetails(app, arg && withFinding(arg), () => itemOf(app.selectedItem())),
    // Without an argument, the finding under the cursor, else the tree's selection (see `targetFinding`).
    'appsecFindings.showTrace': (arg) => showTrace(app, isFindingTarget(arg) ? arg : subject(arg)),
    'appsecFindings.requestAutofix': (arg) => requestAutofix(app, isFindingTarget(arg) ? arg : subject(arg)),
    'appsecFindings.fixWithAgent': (arg) => fixWithAgent(app, isFindingTarget(arg) ? arg : subject(arg)),
  } satisfies Partial<CommandMap>;
}

/** Triage and tickets. */
function triageCommands(app: CommandDeps, { subject }: ItemReaders) {
  return {
    // Tree commands get the clicked node and, with several selected, all of them.
    'appsecFindings.triage': (request) => triageCommand(app, request),
    'appsecFindings.ignore': (arg, selected) => ignore(app, subject(arg), selected),
    'appsecFindings.markReviewing': (arg, selected) => setState(app, 'reviewing', subject(arg), selected),
    'appsecFindings.markFixing': (arg, selected) => setState(app, 'fixing', subject(arg), selected),
    'appsecFindings.reopen': (arg, selected) => setState(app, 'reopened', subject(arg), selected),
    'appsecFindings.addNote': (arg, selected) => addNote(app, subject(arg), selected),
    'appsecFindings.createTicket': (arg, selected) => createTicket(app, arg && 'ids' in arg ? arg : subject(arg), selected),
    'appsecFindings.linkTicket': (arg, selected, url) => linkTicket(app, subject(arg), selected, url),
    'appsecFindings.unlinkTicket': (arg, selected) => unlinkTicket(app, subject(arg), selected),
  } satisfies Partial<CommandMap>;
}
