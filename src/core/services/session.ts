/**
 * Who we are signed in as: the token (held by the host's secret store, never here beyond a
 * call), and the deployment it reaches. Sign-in checks a candidate token against
 * `GET /api/v1/deployments` before anything is stored, so a typo never replaces a working token.
 *
 * A token belongs to the origin it was given for (`https://semgrep.dev`): the base URL setting
 * can be changed by Settings Sync, a shared dotfiles repository or another extension, none of
 * which can read the secret store, so a changed origin finds no token until the user signs in
 * there, and the other origin's token stays for when the setting points back.
 */
import { Emitter, type Disposable } from '../events';
import type { Deployment } from '../model/types';
import type { PlatformApi, PlatformApiFactory } from './platform-api';

/** The host's secret storage, reduced to the one secret this extension keeps per origin. */
export interface TokenStore {
  /** The token given for `origin` (`https://host[:port]`), if any. */
  get(origin: string): Promise<string | undefined>;
  store(origin: string, token: string): Promise<void>;
  delete(origin: string): Promise<void>;
  /** Fires when another window (or this one) changed a token. */
  onDidChange(listener: () => void): Disposable;
}

/** Settings that override what the token tells. Empty strings mean "not set". */
export interface DeploymentOverrides {
  readonly deploymentId: string;
  readonly deploymentSlug: string;
}

/** Where the resolved deployment (not secret) is remembered, so a restart needs no network. */
export interface DeploymentMemory {
  get(): Deployment | undefined;
  set(deployment: Deployment | undefined): Promise<void>;
}

export type SessionState =
  { readonly kind: 'signedOut' } | { readonly kind: 'noDeployment'; readonly message: string } | { readonly kind: 'signedIn'; readonly deployment: Deployment };

export class SessionError extends Error {
  constructor(
    message: string,
    readonly code: 'invalidToken' | 'noDeployment' | 'ambiguousDeployment',
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

/** Tokens are opaque, but whitespace, quotes or a `Bearer ` prefix pasted along are user slips. */
export function normaliseToken(raw: string): string {
  const token = raw
    .trim()
    .replace(/^bearer\s+/i, '')
    .replace(/^["']|["']$/g, '')
    .trim();
  if (token.length === 0) throw new SessionError("The token is empty. Paste the API token from the platform's Settings → Tokens.", 'invalidToken');
  if (/\s/.test(token)) throw new SessionError('The token contains spaces or line breaks. Paste only the token itself.', 'invalidToken');
  if (token.length < 8 || token.length > 4096) throw new SessionError('That does not look like an API token (wrong length).', 'invalidToken');
  return token;
}

/** Picks the deployment from the list the token reaches, honouring the settings' overrides. */
export function chooseDeployment(reachable: readonly Deployment[], overrides: DeploymentOverrides): Deployment {
  const { deploymentId, deploymentSlug } = overrides;
  if (deploymentId || deploymentSlug) {
    const match = reachable.find((d) => (!deploymentId || d.id === deploymentId) && (!deploymentSlug || d.slug === deploymentSlug));
    if (match) return match;
    // The token may be scoped so that the list is empty; trust complete overrides as given.
    if (deploymentId && deploymentSlug) return { id: deploymentId, slug: deploymentSlug, name: deploymentSlug };
    throw new SessionError(
      `The token does not reach the deployment set in settings (${deploymentId || deploymentSlug}). Check appsecFindings.deploymentId and appsecFindings.deploymentSlug.`,
      'noDeployment',
    );
  }
  const [first, second] = reachable;
  if (!first) throw new SessionError('The token reaches no deployment. Create a token in the platform with Web API access.', 'noDeployment');
  if (second) {
    throw new SessionError(
      `The token reaches ${reachable.length} deployments (${reachable.map((d) => d.slug).join(', ')}). Choose one with appsecFindings.deploymentSlug.`,
      'ambiguousDeployment',
    );
  }
  return first;
}

/** The origin, or undefined where the base URL is unusable (so no origin's token is in use). */
function usableOrigin(origin: () => string): string | undefined {
  try {
    return origin();
  } catch {
    return undefined;
  }
}

/** A PlatformApi whose every call fails with `error`. */
export function rejectingApi(error: unknown): PlatformApi {
  const failure = error instanceof Error ? error : new Error(String(error));
  const reject = <T>(): Promise<T> => Promise.reject(failure);
  const fail = <T>(): AsyncIterable<T> => ({ [Symbol.asyncIterator]: () => ({ next: reject }) });
  return {
    listDeployments: reject,
    listPolicies: reject,
    listProjects: reject,
    getProject: reject,
    addProjectTags: reject,
    createSbomExport: reject,
    getSbomExportStatus: reject,
    latestScan: reject,
    policyRules: fail,
    findings: fail,
    secrets: fail,
    triage: reject,
    createTickets: reject,
    linkTicket: reject,
    unlinkTicket: reject,
    findingDetail: reject,
    download: reject,
    dependencyRepositories: fail,
    lockfiles: fail,
    dependencies: fail,
    removeProjectTags: reject,
    setPrimaryBranch: reject,
    setManagedScans: reject,
    setRuleMode: reject,
    scannedBranches: reject,
    unlinkTicketEverywhere: reject,
    findingStory: reject,
    requestAutofix: reject,
  };
}

export class Session implements Disposable {
  private current: SessionState = { kind: 'signedOut' };
  private readonly changed = new Emitter<SessionState>();
  readonly onDidChange = this.changed.event;
  private client: PlatformApi | undefined;

  /**
   * @param origin the origin of the base URL in use, read when a client is built and at each
   *   sign-in, restore and sign-out; throws the reason when the base URL is unusable.
   */
  constructor(
    private readonly tokens: TokenStore,
    private readonly apiFactory: PlatformApiFactory,
    private readonly overrides: () => DeploymentOverrides,
    private readonly memory: DeploymentMemory,
    private readonly origin: () => string,
  ) {}

  /**
   * The client for the stored token, built on first use (never at activation). An unusable base
   * URL does not throw here: every call rejects with the reason, so callers handle it like any
   * other failed request (with "Open Setting") instead of crashing outside their promise chain.
   * The client asks for the token of the origin it was built for, whatever the setting says by
   * the time a request goes out.
   */
  get api(): PlatformApi {
    if (!this.client) {
      try {
        const origin = this.origin();
        this.client = this.apiFactory(() => this.tokens.get(origin));
      } catch (error) {
        return rejectingApi(error);
      }
    }
    return this.client;
  }

  /** The origin whose token the session uses now (the base URL's), or undefined when the base URL is unusable. */
  get tokenOrigin(): string | undefined {
    return usableOrigin(this.origin);
  }

  /** The token of the origin in use, for a caller that makes its own requests there (Check Connection). */
  async token(): Promise<string | undefined> {
    return this.tokens.get(this.origin());
  }

  /** Drops the client so the next call builds one from the current connection settings. */
  resetApi(): void {
    this.client = undefined;
  }

  get state(): SessionState {
    return this.current;
  }

  get deployment(): Deployment | undefined {
    return this.current.kind === 'signedIn' ? this.current.deployment : undefined;
  }

  /** Checks `rawToken`, then stores it. Nothing is stored when the check fails. */
  async signIn(rawToken: string, signal?: AbortSignal): Promise<Deployment> {
    const token = normaliseToken(rawToken);
    const origin = this.origin();
    const candidate = this.apiFactory(() => Promise.resolve(token));
    const deployment = chooseDeployment(await candidate.listDeployments({ signal }), this.overrides());
    await this.tokens.store(origin, token);
    await this.memory.set(deployment);
    this.set({ kind: 'signedIn', deployment });
    return deployment;
  }

  /**
   * Restores the session from a stored token (at start, or when another window changed it).
   * Uses the remembered deployment or complete overrides without any network; otherwise asks
   * the deployment list.
   */
  async restore(signal?: AbortSignal): Promise<SessionState> {
    const token = await this.tokens.get(this.origin());
    if (!token) {
      this.set({ kind: 'signedOut' });
      return this.current;
    }
    const overrides = this.overrides();
    try {
      const remembered = this.memory.get();
      const fitsOverrides =
        remembered &&
        (!overrides.deploymentId || remembered.id === overrides.deploymentId) &&
        (!overrides.deploymentSlug || remembered.slug === overrides.deploymentSlug);
      const deployment = fitsOverrides
        ? remembered
        : overrides.deploymentId && overrides.deploymentSlug
          ? { id: overrides.deploymentId, slug: overrides.deploymentSlug, name: overrides.deploymentSlug }
          : chooseDeployment(await this.api.listDeployments({ signal }), overrides);
      await this.memory.set(deployment);
      this.set({ kind: 'signedIn', deployment });
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      this.set({ kind: 'noDeployment', message: error.message });
    }
    return this.current;
  }

  /** Deletes the token of the origin in use; other origins' tokens stay. */
  async signOut(): Promise<void> {
    const origin = this.tokenOrigin;
    if (origin !== undefined) await this.tokens.delete(origin);
    await this.memory.set(undefined);
    this.set({ kind: 'signedOut' });
  }

  private set(state: SessionState): void {
    this.current = state;
    this.changed.fire(state);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
