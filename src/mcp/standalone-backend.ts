/**
 * Standalone mode: no window is open on the repository, and `SEMGREP_APP_TOKEN` (with
 * `SEMGREP_APP_URL`, the variables the Semgrep CLI reads) is in the server's environment. The
 * server then answers for the repository in its working directory itself: the project from its
 * git remote, the branch checked out, findings placed in today's code through git, with the same
 * handlers the window uses over the core's client and services. Every failure to start (no git
 * repository, a refused token, no project, an unreachable platform) is a tool error naming it.
 */
import { PlatformClient } from '../core/api/client';
import { dependenciesHandler } from '../core/agent/dependencies-handler';
import { findingHandler, triageHandler } from '../core/agent/finding-handlers';
import { findingsHandler, type AgentHandlerDeps } from '../core/agent/findings-handler';
import { TOOLS_VERSION } from '../core/agent/tool-definitions';
import { refused, type ToolAnswer } from '../core/agent/tool-answer';
import type { ToolName } from '../core/agent/tool-names';
import { quotedError } from '../core/agent/agent-text';
import { errorMessage } from '../core/model/errors';
import { platformFindingUrl } from '../core/model/links';
import type { Finding } from '../core/model/types';
import { BranchBaselines } from '../core/services/branch-baselines';
import { DependenciesService } from '../core/services/dependencies-service';
import { FindingDetails } from '../core/services/finding-details';
import { FindingStories } from '../core/services/finding-stories';
import { FindingsStore } from '../core/services/findings-store';
import { ProjectsService } from '../core/services/projects-service';
import { RefScans } from '../core/services/ref-scans';
import { TriageService } from '../core/services/triage-service';
import { matchProject } from '../core/workspace/remote-matching';
import { branchName } from '../core/model/refs';
import type { AgentBackend } from './agent-server';
import { git, GitPlaces } from './git-places';

export const DEFAULT_PLATFORM = 'https://semgrep.dev';

type Handlers = Record<ToolName, (input: unknown, signal: AbortSignal) => Promise<ToolAnswer>>;

/** Answers for the repository by itself; `warm` starts reading before the first call. */
export interface StandaloneBackend extends AgentBackend {
  /**
   * Reads the deployment, the project and the branch's findings now, in the background, so the
   * agent's first call finds them read: agents start their servers when a session opens, well
   * before they call a tool. Asked only when no window answers for the repository.
   */
  warm(): void;
}

/** How long the warming read may take before it is given up (a call then reads for itself). */
const WARM_TIMEOUT_MS = 120_000;

/** The backend when the environment has a token; undefined when it has none. */
export function standaloneBackend(options: { cwd: string; env: NodeJS.ProcessEnv }): StandaloneBackend | undefined {
  const token = options.env.SEMGREP_APP_TOKEN;
  if (!token) return undefined;
  let started: Promise<Handlers | ToolAnswer> | undefined;
  const ready = async (): Promise<Handlers | ToolAnswer> => {
    const handlers = await (started ??= start(options.cwd, options.env.SEMGREP_APP_URL || DEFAULT_PLATFORM, token));
    // A start that failed is tried again at the next call (the user may fix it meanwhile).
    if ('text' in handlers) started = undefined;
    return handlers;
  };
  return {
    async call(tool, input, signal) {
      const handlers = await ready();
      return 'text' in handlers ? handlers : handlers[tool](input, signal);
    },
    warm() {
      void ready().then((handlers) => ('text' in handlers ? undefined : handlers.findings({}, AbortSignal.timeout(WARM_TIMEOUT_MS))));
    },
  };
}

async function start(cwd: string, baseUrl: string, token: string): Promise<Handlers | ToolAnswer> {
  let root: string;
  let remotes: string[];
  let branch: string | undefined;
  try {
    root = await git(cwd, 'rev-parse', '--show-toplevel');
    remotes = await Promise.all(
      (await git(root, 'remote'))
        .split('\n')
        .filter(Boolean)
        .map((name) => git(root, 'remote', 'get-url', name)),
    );
    // A repository with no commit yet has no branch to name; a detached HEAD neither.
    const head = await git(root, 'rev-parse', '--abbrev-ref', 'HEAD').catch(() => 'HEAD');
    branch = head === 'HEAD' ? undefined : head;
  } catch {
    return refused(
      `${JSON.stringify(cwd)} is not in a git repository: standalone mode finds the project from the repository's remote. Start the server in the repository, or open it in VS Code.`,
    );
  }
  const api = new PlatformClient({ baseUrl, extensionVersion: TOOLS_VERSION, getToken: () => Promise.resolve(token) });
  let deployment: { id: string; slug: string } | undefined;
  try {
    deployment = (await api.listDeployments())[0];
  } catch (error) {
    return refused(
      `The platform at ${baseUrl} did not accept SEMGREP_APP_TOKEN or could not be reached; the error, as data: ${quotedError(errorMessage(error))}`,
    );
  }
  if (!deployment) return refused(`The token reaches no deployment of the platform at ${baseUrl}.`);
  const { id, slug } = deployment;
  const projects = new ProjectsService(
    () => api,
    () => slug,
  );
  let names: string[];
  try {
    names = (await projects.load()).map((p) => p.name);
  } catch (error) {
    return refused(`The platform's projects could not be read; the error, as data: ${quotedError(errorMessage(error))}`);
  }
  const projectName = matchProject(remotes, names);
  if (!projectName)
    return refused(
      `No project of the platform matches this repository's remote (${remotes.map((r) => JSON.stringify(r)).join(', ') || 'it has none'}): scan it with Semgrep first, or name the project with the project field.`,
    );
  const commits = scannedCommits(api, id, projects, projectName);
  const places = new GitPlaces(root, (finding) => commits.known(finding));
  // The branch shown (checked out, else the primary one) is asked at once, beside the findings rather than after them.
  const shownBranch = branch ?? projects.find(projectName)?.primaryBranch;
  if (shownBranch) void commits.ask(projectName, shownBranch);
  const deps = platformHandlerDeps(api, deployment, baseUrl, projects, {
    folders: () => [{ root, projectName, ...(branch ? { branch } : {}) }],
    place: (finding) => places.place(finding),
    trace: (finding, steps) => places.trace(finding, steps),
    prepare: async (findings, steps) => {
      await commits.settle(findings);
      await places.prepare(findings, steps && findings[0] ? places.tracePaths(findings[0], steps) : []);
    },
  });
  return {
    findings: findingsHandler(deps),
    finding: findingHandler(deps),
    triage: triageHandler(deps),
    dependencies: dependenciesHandler({
      dependencies: new DependenciesService(
        () => api,
        () => id,
      ),
      signedIn: () => true,
      errorMessage,
    }),
  };
}

/** Where the workspace is and how its findings are placed in today's code: what the services do not know. */
export type AgentWorkspace = Pick<AgentHandlerDeps, 'folders' | 'place' | 'trace' | 'prepare'>;

/** The agent handlers' deps over the core's client and services for one deployment, as standalone mode answers with them. */
export function platformHandlerDeps(
  api: PlatformClient,
  deployment: { readonly id: string; readonly slug: string },
  baseUrl: string,
  projects: ProjectsService,
  workspace: AgentWorkspace,
): AgentHandlerDeps {
  const { id, slug } = deployment;
  const store = new FindingsStore(() => api, { deploymentId: () => id });
  return {
    ...workspace,
    deploymentSlug: () => slug,
    project: (name) => projects.find(name),
    store,
    scans: new RefScans(store, (deploymentSlug, name, signal) => {
      const project = projects.find(name);
      return deploymentSlug === slug && project ? api.scannedBranches(id, project.id, { signal }) : Promise.resolve(undefined);
    }),
    novelty: new BranchBaselines({ store, project: (name) => projects.find(name) }),
    details: new FindingDetails(
      () => api,
      () => slug,
    ),
    stories: new FindingStories(
      () => api,
      () => id,
    ),
    triage: new TriageService({ api: () => api, store, deploymentSlug: () => slug, deploymentId: () => id }),
    findingUrl: (finding) => platformFindingUrl(baseUrl, slug, finding),
    errorMessage,
  };
}

/**
 * The latest scan's commit of each project and branch, asked of the platform once: `known` is what
 * git placing reads (undefined until settled), `settle` asks for the findings' refs not known yet.
 */
function scannedCommits(api: PlatformClient, deploymentId: string, projects: ProjectsService, projectName: string) {
  const asked = new Map<string, Promise<string | undefined>>();
  const settled = new Map<string, string | undefined>();
  const keyOf = (name: string, ref: string): string => `${name}|${branchName(ref)}`;
  const ask = (name: string, ref: string): Promise<string | undefined> => {
    const key = keyOf(name, ref);
    let commit = asked.get(key);
    if (!commit) {
      const project = projects.find(name);
      commit = project
        ? api.latestScan(deploymentId, project.id, branchName(ref)).then(
            (scan) => scan?.commit,
            () => undefined,
          )
        : Promise.resolve(undefined);
      asked.set(key, commit);
    }
    return commit;
  };
  const nameOf = (finding: Finding): string => finding.repositoryName ?? projectName;
  return {
    ask,
    known: (finding: Finding): string | undefined => settled.get(keyOf(nameOf(finding), finding.ref ?? '')),
    settle: async (findings: readonly Finding[]): Promise<void> => {
      const wanted = new Map<string, Finding>();
      for (const f of findings) if (f.ref && !settled.has(keyOf(nameOf(f), f.ref))) wanted.set(keyOf(nameOf(f), f.ref), f);
      await Promise.all([...wanted].map(async ([key, f]) => settled.set(key, await ask(nameOf(f), f.ref!))));
    },
  };
}
