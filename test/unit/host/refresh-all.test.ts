// "Refresh everything" and "forget everything": what the user sees after each, not the order of
// internal calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refreshAllActions, type RefreshAllDeps } from '../../../src/host/refresh-all';
import type { KindGap } from '../../../src/core/services/kind-gaps';

interface Situation {
  /** The project list was loaded before (and folders matched from it). */
  readonly known?: boolean;
  /** The reloaded list matches the folders differently. */
  readonly rematch?: boolean;
  /** The project list fails to load. */
  readonly listFails?: boolean;
  /** What the view could not show fresh. */
  readonly gaps?: readonly KindGap[];
}

/** A world with a view that takes 10 ms per refresh and coalesces as the real one does. */
function world(signedIn: boolean, situation: Situation = {}) {
  const seen = { refreshes: 0, drawn: 0, expired: false, cleared: [] as string[], listAnswered: false, loadStartedBeforeList: false, told: [] as string[] };
  let running: Promise<readonly KindGap[]> | undefined;
  const view = {
    refresh: (): Promise<readonly KindGap[]> => {
      seen.refreshes++;
      if (!seen.listAnswered) seen.loadStartedBeforeList = true;
      const previous = running ?? Promise.resolve([]);
      const run = previous.then(() => new Promise<readonly KindGap[]>((resolve) => setTimeout(() => {
        seen.drawn++;
        resolve(situation.gaps ?? []);
      }, 10)));
      running = run;
      void run.then(() => { if (running === run) running = undefined; });
      return run;
    },
    settled: (): Promise<readonly KindGap[]> => running ?? Promise.resolve(situation.gaps ?? []),
    clear: () => void seen.cleared.push('view'),
  };
  let reposChanged: () => void = () => undefined;
  const deps: RefreshAllDeps = {
    session: { state: signedIn ? ({ kind: 'signedIn' } as RefreshAllDeps['session']['state']) : { kind: 'signedOut' } },
    findings: { expire: () => void (seen.expired = true), clear: () => void seen.cleared.push('findings') },
    projects: {
      state: situation.known ? { kind: 'loaded', projects: [] } : { kind: 'idle' },
      load: () => new Promise((resolve, reject) => setTimeout(() => {
        seen.listAnswered = true;
        if (situation.listFails) reject(new Error('list failed'));
        else resolve([]);
      }, 5)),
      clear: () => void seen.cleared.push('projects'),
    },
    policies: { clear: () => void seen.cleared.push('policies'), expire: () => undefined },
    repos: {
      repos: () => (situation.known ? [{ projectName: 'acme/web' } as ReturnType<RefreshAllDeps['repos']['repos']>[number]] : []),
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
  return { actions, seen };
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

  void it('a new match is a cause of its own: one more refresh, and the refresh resolves after it is drawn', async () => {
    const { actions, seen } = world(true, { known: true, rematch: true });
    await actions.refreshAll(false);
    assert.equal(seen.refreshes, 2, 'the early load and the new match, no third');
    assert.equal(seen.drawn, 2, 'both drawn before it resolves');
  });

  void it('a failed project list fails the refresh, and the findings beside it still show', async () => {
    const { actions, seen } = world(true, { known: true, listFails: true });
    await assert.rejects(actions.refreshAll(true), /list failed/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(seen.drawn, 1, 'the findings that loaded are still drawn');
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
});
