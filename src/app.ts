/**
 * The pieces of the running extension, as the feature registrations (extension.ts) build them
 * once: what the commands use (`CommandDeps`) plus what the start and the in-host tests use. The
 * composition root checks that what the registrations returned is all of it.
 */
import type { WorkspaceView } from './core/services/workspace-view';
import type { CommandDeps } from './commands/command-deps';
import type { Event } from './core/events';
import type { KeptOnDisk } from './diagnostics/cache-keeping';
import type { CachedStart } from './diagnostics/cached-start';
import type { ProblemsRenderer } from './diagnostics/problems-renderer';
import type { WorkspaceRepo } from './host/workspace-repos';
import type { UriHandler } from 'vscode';
import type { AgentRegistration } from './agent/register-agent';

export interface App extends CommandDeps {
  /** What the workspace shows: the one place that decides it. */
  readonly view: WorkspaceView<WorkspaceRepo>;
  /** Problems, drawn from the view's snapshots. */
  readonly diagnostics: ProblemsRenderer;
  /** What a start draws before the platform answers, and what the cache keeps of Problems. */
  readonly cachedStart: CachedStart;
  /** The workspace's repositories changed: what they show is loaded again. */
  reposChanged(): Promise<unknown>;
  /** The base URL or the deployment settings changed: the views follow the deployment they name. */
  deploymentSettingsChanged(): Promise<void>;
  /** Shows the findings kept on disk from the last session (start-up); false when there are none. */
  startFromCache(): Promise<boolean>;
  /** Fires once per refresh Problems drew, when its answers are on disk or found the same as written. */
  readonly onDidKeepFindings: Event<KeptOnDisk>;
  /** Cancels the tree's loads in progress. */
  cancelLoads(): void;
  /** What `vscode://…/finding?url=` links are handed to (the in-host tests call it as VS Code does). */
  readonly findingLinks: UriHandler;
  /** The MCP server provider VS Code's own agent asks; undefined where this VS Code has none. */
  readonly mcpServerInVsCode: AgentRegistration['mcpServerInVsCode'];
}
