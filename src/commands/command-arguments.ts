/**
 * Every command's arguments, typed and checked in one place: `CommandSignatures` says what each
 * handler takes (after the check) and resolves with; `COMMAND_ARGUMENTS` checks what VS Code
 * passed against it, before the handler runs, so a given argument is refused with a sentence
 * naming the field and nothing is sent (the automation contract, docs: automation). Tree items
 * are read, never refused (`command-item.ts`); from a view's context menu the second argument is
 * the selection, which an options argument takes as "no options".
 */
import type * as vscode from 'vscode';
import { isHttpUrl } from '../core/model/links';
import { ISSUE_TYPES, type Deployment, type ManagedScans, type Project } from '../core/model/types';
import type { TicketLinkResult, TicketResult } from '../core/model/triage-and-tickets';
import { CYCLONEDX_VERSIONS, SBOM_COMPONENT_TYPES, type SbomOutputFormat } from '../core/model/sbom';
import type { ConnectionReport } from '../core/api/check-connection';
import { parseSelection, type FilterSelection } from '../core/services/filters';
import type { GroupBy } from '../core/services/grouping';
import type { FindingKind } from '../core/services/kind-availability';
import type { ProductCheck } from '../core/services/product-check';
import type { SbomExportRecord } from '../core/services/sbom-service';
import type { TriageOutcome } from '../core/services/triage-service';
import {
  anything,
  argumentList,
  boolean,
  invalid,
  noSuchOption,
  object,
  oneOf,
  optional,
  refine,
  schema,
  text,
  valid,
  type ArgumentsSchema,
  type Infer,
  type Schema,
} from '../host/schema';
import { TRIAGE_INPUT, type TriageRequest } from '../host/triage-input';
import { isRetryTarget, type RetryTarget } from '../views/tree-commands';
import { itemOf, itemsOf, type CommandItem } from './command-item';
import type { CommandId } from '../core/model/command-ids';
import { SAVE_TO } from './save-target';
import { DEPENDENCY_FILTER, WHERE_USED_ARGUMENT } from './dependency-commands';
import { RULE_MODE_ARGUMENT, type RuleModeOutcome, type RuleModeRequest } from './policy-commands';
import { MANAGED_SCANS_CHANGE, TAG_CHANGES, type ManagedScansChange, type TagChanges } from './project-settings-commands';
import { TICKET_ID_ARGUMENT, TICKET_REQUEST_ARGUMENT, type TicketIdRequest, type TicketRequest } from './ticket-commands';
import type { PackageQuery, UsageRow } from '../core/services/dependency-usage';
import type { DependencyViewFilter } from '../core/services/dependency-view-filter';
import { findingTargetArgument, type FindingTarget } from './finding-target-argument';
import type { TraceStepResult } from './trace-commands';
import type { AgentHandOff, AutofixRequestResult } from './fix-commands';
import type { LaunchSpec } from '../core/agent/agent-configs';
import type { AgentClient } from '../core/agent/agent-configs';
import type { Connected } from '../agent/connect-agent';
import { CONNECT_AGENT_ARGUMENT } from './agent-server-commands';
import type { OpenedLink } from './link-commands';
import { kindsWhere } from '../core/model/finding-kinds';

/** A tree node as a menu passes it (`tree-nodes.ts`): it names what was clicked, never options. */
const isTreeNode = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string' && typeof (value as { id?: unknown }).id === 'string';

/**
 * An options argument that a menu may fill with what it passes: the clicked node (an inline icon
 * of a command without an item argument) or the view's selection (context menus pass it second).
 * Either counts as absent, so the command asks as it does from the palette.
 */
function unlessSelection<T>(inner: Schema<T>): Schema<T | undefined> {
  return schema((value) => (value === undefined || Array.isArray(value) || isTreeNode(value) ? valid(undefined) : inner.check(value)));
}

const FORMATS: readonly SbomOutputFormat[] = ['SBOM_OUTPUT_FORMAT_JSON', 'SBOM_OUTPUT_FORMAT_CYCLONEDX'];

export const SBOM_OPTIONS = object(
  {
    ref: optional(text('ref must be a branch or ref name (text).')),
    outputFormat: optional(oneOf(FORMATS, `outputFormat takes ${FORMATS.join(' or ')}.`)),
    cycloneDxVersion: optional(oneOf(CYCLONEDX_VERSIONS, `cycloneDxVersion takes ${CYCLONEDX_VERSIONS.join(', ')}.`)),
    componentType: optional(oneOf(SBOM_COMPONENT_TYPES, `componentType takes ${SBOM_COMPONENT_TYPES.join(', ')}.`)),
    /** `false`: only start the job (it is followed from the history, or after a reload). */
    follow: optional(boolean('follow must be true or false.')),
    /** Where to write the finished document: no dialog. */
    saveTo: optional(SAVE_TO),
  },
  "The SBOM export's options are an object: { ref?, outputFormat?, cycloneDxVersion?, componentType?, follow?, saveTo? }.",
  noSuchOption('exportSbom'),
);
export type SbomOptions = Infer<typeof SBOM_OPTIONS>;

export const SARIF_OPTIONS = object(
  {
    ref: optional(
      refine(text('ref must be a branch name without spaces.'), (ref) => (/\s/.test(ref) ? 'ref must be a branch name without spaces.' : undefined)),
    ),
    saveTo: optional(SAVE_TO),
  },
  "The SARIF export's options are an object: { ref?, saveTo? }.",
  noSuchOption('exportSarif'),
);
export type SarifOptions = Infer<typeof SARIF_OPTIONS>;

/** What `exportSarif` resolves with: the file written, how many results, the kinds left out. */
export interface SarifExport {
  readonly uri: vscode.Uri;
  readonly results: number;
  /** The branch whose findings the log holds. */
  readonly ref?: string;
  /** The branch asked for, when it was never scanned and its primary branch's findings are written instead. */
  readonly branchWithoutScan?: string;
  readonly missing?: readonly FindingKind[];
}

export const SCANNED_COMMIT = object(
  {
    folder: optional(text("folder must be a workspace folder's URI (text).")),
    commit: optional(text('commit must be a commit id (text).')),
  },
  'appsecFindings.fetchScannedCommit takes { folder?, commit? }.',
  noSuchOption('fetchScannedCommit'),
);
export type ScannedCommit = Infer<typeof SCANNED_COMMIT>;

const GROUPS: readonly GroupBy[] = ['severity', 'rule', 'file'];

/** What each command's handler takes and resolves with. */
export interface CommandSignatures {
  'appsecFindings.signIn': (token?: string) => Promise<Deployment | undefined>;
  'appsecFindings.signOut': () => Promise<void>;
  'appsecFindings.refresh': () => Promise<void>;
  'appsecFindings.filterFindings': (selection?: FilterSelection) => Promise<FilterSelection | undefined>;
  'appsecFindings.clearFilters': () => Promise<void>;
  'appsecFindings.groupBy': (by?: GroupBy) => Promise<GroupBy | undefined>;
  'appsecFindings.tagProject': (project?: CommandItem, tags?: string) => Promise<Project | undefined>;
  'appsecFindings.chooseRef': (project?: CommandItem, ref?: string) => Promise<string | undefined>;
  'appsecFindings.exportSbom': (project?: CommandItem, options?: SbomOptions) => Promise<SbomExportRecord | undefined>;
  'appsecFindings.exportSarif': (project?: CommandItem, options?: SarifOptions) => Promise<SarifExport | undefined>;
  'appsecFindings.showSbomExports': () => Promise<void>;
  'appsecFindings.openInPlatform': (item?: CommandItem) => Promise<boolean>;
  'appsecFindings.openOnGitHub': (item?: CommandItem) => Promise<boolean>;
  'appsecFindings.openOnGitLab': (item?: CommandItem) => Promise<boolean>;
  'appsecFindings.openOnCodeHost': (item?: CommandItem) => Promise<boolean>;
  'appsecFindings.openFinding': (item?: CommandItem) => Promise<'editor' | 'browser' | undefined>;
  'appsecFindings.copyFindingId': (item?: CommandItem) => Promise<string | undefined>;
  'appsecFindings.copyLink': (item?: CommandItem) => Promise<string | undefined>;
  'appsecFindings.filterBySeverity': (item?: CommandItem) => Promise<FilterSelection | undefined>;
  'appsecFindings.filterByRule': (item?: CommandItem) => Promise<FilterSelection | undefined>;
  'appsecFindings.filterByFile': (item?: CommandItem) => Promise<FilterSelection | undefined>;
  'appsecFindings.showRule': (item?: CommandItem) => Promise<boolean>;
  'appsecFindings.copyRuleId': (item?: CommandItem) => Promise<string | undefined>;
  'appsecFindings.showLogs': () => void;
  'appsecFindings.checkConnection': () => Promise<ConnectionReport & { readonly products?: readonly ProductCheck[] }>;
  'appsecFindings.cancelTreeLoad': (slot: string) => void;
  'appsecFindings.retryTreeLoad': (target: RetryTarget) => void;
  'appsecFindings.fetchScannedCommit': (which?: ScannedCommit) => Promise<boolean>;
  'appsecFindings.triage': (request: TriageRequest) => Promise<TriageOutcome>;
  'appsecFindings.ignore': (item?: CommandItem, selected?: readonly CommandItem[]) => Promise<TriageOutcome[] | undefined>;
  'appsecFindings.markReviewing': (item?: CommandItem, selected?: readonly CommandItem[]) => Promise<TriageOutcome[]>;
  'appsecFindings.markFixing': (item?: CommandItem, selected?: readonly CommandItem[]) => Promise<TriageOutcome[]>;
  'appsecFindings.reopen': (item?: CommandItem, selected?: readonly CommandItem[]) => Promise<TriageOutcome[]>;
  'appsecFindings.addNote': (item?: CommandItem, selected?: readonly CommandItem[]) => Promise<TriageOutcome[] | undefined>;
  'appsecFindings.createTicket': (target?: CommandItem | TicketRequest, selected?: readonly CommandItem[]) => Promise<TicketResult[] | undefined>;
  'appsecFindings.linkTicket': (item?: CommandItem, selected?: readonly CommandItem[], url?: string) => Promise<TicketLinkResult[] | undefined>;
  'appsecFindings.unlinkTicket': (item?: CommandItem, selected?: readonly CommandItem[]) => Promise<number | undefined>;
  'appsecFindings.showDetails': (item?: CommandItem) => Promise<boolean>;
  'appsecFindings.fixApplied': (item?: CommandItem) => boolean;
  'appsecFindings.whereUsed': (
    query?: PackageQuery,
  ) => Promise<Pick<UsageRow, 'repository' | 'lockfilePath' | 'version' | 'transitivity' | 'inRange'>[] | undefined>;
  'appsecFindings.filterDependencies': (filter?: DependencyViewFilter) => Promise<DependencyViewFilter | undefined>;
  'appsecFindings.editTags': (project?: CommandItem, changes?: TagChanges) => Promise<Project | undefined>;
  'appsecFindings.setPrimaryBranch': (project?: CommandItem, branch?: string) => Promise<Project | undefined>;
  'appsecFindings.setManagedScans': (project?: CommandItem, change?: ManagedScansChange) => Promise<ManagedScans | undefined>;
  'appsecFindings.setRuleMode': (target?: RuleModeRequest | CommandItem) => Promise<RuleModeOutcome | undefined>;
  'appsecFindings.setRuleModeMonitor': (rule?: CommandItem) => Promise<RuleModeOutcome | undefined>;
  'appsecFindings.setRuleModeComment': (rule?: CommandItem) => Promise<RuleModeOutcome | undefined>;
  'appsecFindings.setRuleModeBlock': (rule?: CommandItem) => Promise<RuleModeOutcome | undefined>;
  'appsecFindings.setRuleModeDisabled': (rule?: CommandItem) => Promise<RuleModeOutcome | undefined>;
  'appsecFindings.unlinkTicketEverywhere': (target?: CommandItem | TicketIdRequest) => Promise<readonly number[] | undefined>;
  'appsecFindings.showTrace': (target?: CommandItem | FindingTarget, selected?: readonly CommandItem[]) => Promise<TraceStepResult[] | undefined>;
  'appsecFindings.requestAutofix': (target?: CommandItem | FindingTarget, selected?: readonly CommandItem[]) => Promise<AutofixRequestResult | undefined>;
  'appsecFindings.fixWithAgent': (target?: CommandItem | FindingTarget, selected?: readonly CommandItem[]) => Promise<AgentHandOff | undefined>;
  'appsecFindings.agentServer': () => Promise<LaunchSpec | undefined>;
  'appsecFindings.connectAgent': (request?: { readonly client: AgentClient }) => Promise<Connected | undefined>;
  'appsecFindings.openFindingLink': (link?: string) => Promise<OpenedLink>;
}

/** The typed map: every id, its handler. */
export type CommandMap = { readonly [K in CommandId]: CommandSignatures[K] };

/** A tree item, a diagnostic, a finding, a project, text: read, never refused. */
const ITEM = anything((value) => (value === undefined ? undefined : itemOf(value)));
const SELECTED = anything(itemsOf);
const NONE = argumentList();
const ONE_ITEM = argumentList(ITEM);
const ITEM_AND_SELECTION = argumentList(ITEM, SELECTED);

/** What each command's arguments must be; checked by `registerCommands` before the handler runs. */
export const COMMAND_ARGUMENTS: { readonly [K in CommandId]: ArgumentsSchema<Parameters<CommandSignatures[K]>> } = {
  'appsecFindings.signIn': argumentList(optional(text('The token must be text (the API token).'))),
  'appsecFindings.signOut': NONE,
  'appsecFindings.refresh': NONE,
  // Tolerant, as a stored selection is read: unknown keys and values are dropped. The title-bar
  // icon's click passes the view's focused row and selection: that is no selection of filters,
  // so the picker opens as from the palette (read as one, it set every filter to "any").
  'appsecFindings.filterFindings': argumentList(
    unlessSelection(anything((value) => (typeof value === 'object' && value !== null ? parseSelection(value) : undefined))),
  ),
  'appsecFindings.clearFilters': NONE,
  // Its title-bar icon's click passes the focused row too: the picker opens.
  'appsecFindings.groupBy': argumentList(unlessSelection(optional(oneOf(GROUPS, `groupBy takes ${GROUPS.join(', ')}.`)))),
  'appsecFindings.tagProject': argumentList(ITEM, unlessSelection(text('The tags must be text, comma-separated.'))),
  'appsecFindings.chooseRef': argumentList(ITEM, unlessSelection(text('The ref must be a branch or ref name (text); empty for the primary branch.'))),
  'appsecFindings.exportSbom': argumentList(ITEM, unlessSelection(SBOM_OPTIONS)),
  'appsecFindings.exportSarif': argumentList(ITEM, unlessSelection(SARIF_OPTIONS)),
  'appsecFindings.showSbomExports': NONE,
  'appsecFindings.openInPlatform': ONE_ITEM,
  'appsecFindings.openOnGitHub': ONE_ITEM,
  'appsecFindings.openOnGitLab': ONE_ITEM,
  'appsecFindings.openOnCodeHost': ONE_ITEM,
  'appsecFindings.openFinding': ONE_ITEM,
  'appsecFindings.copyFindingId': ONE_ITEM,
  'appsecFindings.copyLink': ONE_ITEM,
  'appsecFindings.filterBySeverity': ONE_ITEM,
  'appsecFindings.filterByRule': ONE_ITEM,
  'appsecFindings.filterByFile': ONE_ITEM,
  'appsecFindings.showRule': ONE_ITEM,
  'appsecFindings.copyRuleId': ONE_ITEM,
  'appsecFindings.showLogs': NONE,
  'appsecFindings.checkConnection': NONE,
  'appsecFindings.cancelTreeLoad': argumentList(text('cancelTreeLoad takes the slot whose load to stop (text).')),
  'appsecFindings.retryTreeLoad': argumentList(
    schema((value) => (isRetryTarget(value) ? valid(value) : invalid('retryTreeLoad takes { view: "projects", slot? } or { view: "policies", policyId? }.'))),
  ),
  'appsecFindings.fetchScannedCommit': argumentList(optional(SCANNED_COMMIT)),
  'appsecFindings.triage': argumentList(TRIAGE_INPUT),
  'appsecFindings.ignore': ITEM_AND_SELECTION,
  'appsecFindings.markReviewing': ITEM_AND_SELECTION,
  'appsecFindings.markFixing': ITEM_AND_SELECTION,
  'appsecFindings.reopen': ITEM_AND_SELECTION,
  'appsecFindings.addNote': ITEM_AND_SELECTION,
  'appsecFindings.createTicket': argumentList(TICKET_REQUEST_ARGUMENT, SELECTED),
  'appsecFindings.linkTicket': argumentList(
    ITEM,
    SELECTED,
    optional(
      refine(text("url must be the ticket's link (text)."), (url) =>
        isHttpUrl(url.trim()) ? undefined : "url must be the ticket's link, starting with https:// (or http://).",
      ),
    ),
  ),
  'appsecFindings.unlinkTicket': ITEM_AND_SELECTION,
  'appsecFindings.showDetails': ONE_ITEM,
  'appsecFindings.fixApplied': ONE_ITEM,
  'appsecFindings.whereUsed': argumentList(WHERE_USED_ARGUMENT),
  'appsecFindings.filterDependencies': argumentList(unlessSelection(DEPENDENCY_FILTER)),
  'appsecFindings.editTags': argumentList(ITEM, unlessSelection(TAG_CHANGES)),
  'appsecFindings.setPrimaryBranch': argumentList(
    ITEM,
    unlessSelection(
      refine(text('The branch must be a branch name (text), or "default".'), (branch) =>
        branch.trim() === '' || /\s/.test(branch.trim()) ? 'The branch must be a branch name without spaces, or "default".' : undefined,
      ),
    ),
  ),
  'appsecFindings.setManagedScans': argumentList(ITEM, unlessSelection(MANAGED_SCANS_CHANGE)),
  'appsecFindings.setRuleMode': argumentList(RULE_MODE_ARGUMENT),
  'appsecFindings.setRuleModeMonitor': ONE_ITEM,
  'appsecFindings.setRuleModeComment': ONE_ITEM,
  'appsecFindings.setRuleModeBlock': ONE_ITEM,
  'appsecFindings.setRuleModeDisabled': ONE_ITEM,
  'appsecFindings.unlinkTicketEverywhere': argumentList(TICKET_ID_ARGUMENT),
  // A menu passes the clicked finding and the selection; automation `{ findingId, issueType }`.
  'appsecFindings.showTrace': argumentList(
    findingTargetArgument(
      'appsecFindings.showTrace',
      kindsWhere((kind) => kind.traced),
    ),
    SELECTED,
  ),
  'appsecFindings.requestAutofix': argumentList(
    findingTargetArgument(
      'appsecFindings.requestAutofix',
      kindsWhere((kind) => kind.fixPullRequests),
    ),
    SELECTED,
  ),
  'appsecFindings.fixWithAgent': argumentList(findingTargetArgument('appsecFindings.fixWithAgent', ISSUE_TYPES), SELECTED),
  'appsecFindings.agentServer': NONE,
  'appsecFindings.connectAgent': CONNECT_AGENT_ARGUMENT,
  'appsecFindings.openFindingLink': argumentList(optional(text("appsecFindings.openFindingLink takes a finding's platform link (text)."))),
};
