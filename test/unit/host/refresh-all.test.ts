// "Refresh everything" and "forget everything": what the user sees after each, not the order of
// internal calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refreshAllActions, type RefreshAllDeps } from '../../../src/host/refresh-all';
import type { KindGap } from '../../../src/core/services/kind-gaps';

interface Situation {
  /** The project list was loaded before (and folders matched from it). */
  readonly known?: boolean;
  /** A folder is matched by its remote alone: its project is not known before the list. */
  readonly byRemote?: boolean;
  /** The reloaded list matches the folders differently. */
  readonly rematch?: boolean;
  /** The project list fails to load. */
  readonly listFails?: boolean;
  /** What the view could not show fresh. */
  readonly gaps?: readonly KindGap[];
}

type SessionState = RefreshAllDeps['session']['state'];
const signedInTo = (id: string): SessionState => ({ kind: 'signedIn', deployment: { id, slug: `org-${id}`, name: `Org ${id}` } });

/** A world with a view that takes 10 ms per refresh and coalesces as the real one does. */
function world(signedIn: boolean, situation: Situation = {}) {
  const seen = {
    refreshes: 0,
    drawn: 0,
    expired: false,
    cleared: [] as string[],
    listAnswered: false,
    loadStartedBeforeList: false,
    told: [] as string[],
    readKnown: [] as string[],
  };
  // Those waiting for the view to have been drawn so many times.
  const waiting: { count: number; resolve: () => void }[] = [];
  const drawn = (): void => {
    seen.drawn++;
    for (const w of waiting.filter((x) => x.count <= seen.drawn)) w.resolve();
  };
  /** Resolves once the view was drawn `count` times, and every refresh queued by then has run. */
  const untilDrawn = async (count: number): Promise<void> => {
    if (seen.drawn < count) await new Promise<void>((resolve) => waiting.push({ count, resolve }));
    await view.settled();
  };
  const matched = situation.known === true || situation.byRemote === true;
  let running: Promise<readonly KindGap[]> | undefined;
  const view = {
    refresh: (): Promise<readonly KindGap[]> => {
      seen.refreshes++;
      if (!seen.listAnswered) seen.loadStartedBeforeList = true;
      const previous = running ?? Promise.resolve([]);
      const run = previous.then(
        () =>
          new Promise<readonly KindGap[]>((resolve) =>
            setTimeout(() => {
              drawn();
              resolve(situation.gaps ?? []);
            }, 10),
          ),
      );
      running = run;
      void run.then(() => {
        if (running === run) running = undefined;
      });
      return run;
    },
    settled: (): Promise<readonly KindGap[]> => running ?? Promise.resolve(situation.gaps ?? []),
    clear: () => void seen.cleared.push('view'),
  };
  let reposChanged: () => void = () => undefined;
  // What the settings name: the base URL, and the deployment the next restore finds there.
  const settings = { baseUrl: 'https://one.example', restoresTo: signedInTo('1'), restoreFails: undefined as Error | undefined, unread: [] as string[] };
  let state: SessionState = signedIn ? signedInTo('1') : { kind: 'signedOut' };
  const deps: RefreshAllDeps = {
    session: {
      get state() {
        return state;
      },
      restore: () => (settings.restoreFails ? Promise.reject(settings.restoreFails) : Promise.resolve((state = settings.restoresTo))),
    },
    baseUrl: () => settings.baseUrl,
    onDeploymentUnread: (e) => void settings.unread.push(e instanceof Error ? e.message : String(e)),
    findings: { expire: () => void (seen.expired = true), clear: () => void seen.cleared.push('findings') },
    projects: {
      state: situation.known ? { kind: 'loaded', projects: [] } : { kind: 'idle' },
      load: () =>
        new Promise((resolve, reject) =>
          setTimeout(() => {
            seen.listAnswered = true;
            if (situation.listFails) reject(new Error('list failed'));
            else resolve([]);
          }, 5),
        ),
      clear: () => void seen.cleared.push('projects'),
      find: (name) => (situation.known || seen.listAnswered ? { id: 1, name, tags: [] } : undefined),
      readKnown: (names) => Promise.resolve(void seen.readKnown.push(...names)),
    },
    policies: { clear: () => void seen.cleared.push('policies'), expire: () => undefined },
    repos: {
      repos: () => (matched ? [{ projectName: 'acme/web' } as ReturnType<RefreshAllDeps['repos']['repos']>[number]] : []),
      // A new match fires the repositories' change event, as GitWorkspaceRepos does.
      recompute: () => (situation.rematch ? (reposChanged(), true) : false),
    },
    view,
    trees: { projects: { refresh: () => undefined }, policies: { refresh: () => undefined } },
    places: { forgetScans: () => undefined, drift: { invalidate: () => undefined } },
    onKindsFailed: (gaps) => void seen.told.push(gaps.map((g) => g.kind).join(',')),
  };
  const actions = refreshAllActions(deps);
  reposChanged = () => void actions.reposChanged();
  return { actions, seen, settings, untilDrawn };
}

void describe('refreshAllActions', () => {
  void it('a forced refresh loads the findings again and resolves only once they are drawn', async () => {
    const { actions, seen } = world(true);
    await actions.refreshAll(true);
    assert.equal(seen.expired, true, 'every answer is fetched again');
    assert.equal(seen.refreshes, 1, 'one refresh of the view');
    assert.equal(seen.drawn, 1, 'drawn before the refresh resolves');
  });

  void it('folders already matched start loading before the project list answers', async () => {
    const { actions, seen } = world(true, { known: true });
    await actions.refreshAll(true);
    assert.equal(seen.loadStartedBeforeList, true);
    assert.equal(seen.refreshes, 1);
    assert.equal(seen.drawn, 1);
  });

  void it('a folder matched by its remote shows its findings before the list answers, and its project is read beside the list', async () => {
    const { actions, seen, untilDrawn } = world(true, { byRemote: true });
    await actions.refreshAll(true);
    assert.equal(seen.loadStartedBeforeList, true);
    assert.deepEqual(seen.readKnown, ['acme/web']);
    // Once the list says which branch the project shows, the view is drawn once more from what it holds.
    await untilDrawn(2);
    assert.equal(seen.refreshes, 2);
    assert.equal(seen.drawn, 2);
  });

  void it('a new match is a cause of its own: one more refresh once the list has answered, drawn after the first', async () => {
    const { actions, seen, untilDrawn } = world(true, { known: true, rematch: true });
    await actions.refreshAll(false);
    assert.ok(seen.drawn >= 1, 'the refresh resolves once the early load is drawn');
    await untilDrawn(2);
    assert.equal(seen.refreshes, 2, 'the early load and the new match, no third');
    assert.equal(seen.drawn, 2);
  });

  void it('a failed project list neither holds up nor fails the findings of matched folders', async () => {
    const { actions, seen } = world(true, { known: true, listFails: true });
    await actions.refreshAll(true);
    assert.equal(seen.drawn, 1, 'the findings are drawn');
  });

  void it('with no folder matched, a failed project list fails the refresh', async () => {
    const { actions } = world(true, { listFails: true });
    await assert.rejects(actions.refreshAll(true), /list failed/);
  });

  void it('a kind that failed is told once, after it is drawn; a kind the deployment lacks is not', async () => {
    const failed = { kind: 'sca', failedBecause: new Error('503') } as const;
    const lacking = { kind: 'secrets', unavailable: { status: 404, detail: 'not found' } } as const;
    const { actions, seen } = world(true, { gaps: [lacking, failed] });
    await actions.refreshAll(true);
    assert.deepEqual(seen.told, ['secrets,sca']);
    assert.equal(seen.drawn, 1);
    const quiet = world(true, { gaps: [lacking] });
    await quiet.actions.refreshAll(true);
    assert.deepEqual(quiet.seen.told, [], 'a missing product is a state, not a failure');
  });

  void it('signed out, a refresh forgets everything instead of asking the platform', async () => {
    const { actions, seen } = world(false);
    await actions.refreshAll(false);
    assert.equal(seen.refreshes, 0);
    assert.deepEqual(new Set(seen.cleared), new Set(['findings', 'projects', 'policies', 'view']));
  });

  void it('another base URL: what was shown is forgotten and the deployment there is loaded, with no refresh asked for', async () => {
    const { actions, seen, settings } = world(true, { known: true });
    await actions.refreshAll(false);
    const refreshes = seen.refreshes;
    settings.baseUrl = 'https://two.example';
    await actions.deploymentSettingsChanged();
    assert.ok(seen.cleared.includes('findings') && seen.cleared.includes('view'), "the first platform's findings are gone");
    assert.equal(seen.refreshes, refreshes + 1, 'the new platform is loaded');
  });

  void it('another deployment at the same base URL is loaded; a setting that still names the shown one reloads nothing', async () => {
    const { actions, seen, settings } = world(true, { known: true });
    await actions.refreshAll(false);
    await actions.deploymentSettingsChanged();
    assert.equal(seen.cleared.length, 0, 'the same deployment at the same address: nothing forgotten');
    settings.restoresTo = signedInTo('2');
    await actions.deploymentSettingsChanged();
    assert.ok(seen.cleared.includes('findings'), 'deployment 2 replaces deployment 1');
  });

  void it('settings whose deployment cannot be read keep what is shown, and say why', async () => {
    const { actions, seen, settings } = world(true, { known: true });
    await actions.refreshAll(false);
    settings.baseUrl = 'http://plain.example';
    settings.restoreFails = new Error('The base URL must start with https://');
    await actions.deploymentSettingsChanged();
    assert.equal(seen.cleared.length, 0, 'nothing forgotten');
    assert.deepEqual(settings.unread, ['The base URL must start with https://']);
    // Back to the address the views were loaded from: nothing to do.
    settings.baseUrl = 'https://one.example';
    settings.restoreFails = undefined;
    await actions.deploymentSettingsChanged();
    assert.equal(seen.cleared.length, 0);
  });
});
