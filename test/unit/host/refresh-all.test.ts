// "Refresh everything" and "forget everything", in the order the views need them.
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
  /** What Problems could not show fresh. */
  readonly gaps?: readonly KindGap[];
}

function recording(signedIn: boolean, situation: Situation = {}): { deps: RefreshAllDeps; calls: string[] } {
  const calls: string[] = [];
  const note = (name: string) => (...args: unknown[]): void => void calls.push(args.length > 0 ? `${name}(${JSON.stringify(args[0])})` : name);
  const deps: RefreshAllDeps = {
    session: { state: signedIn ? ({ kind: 'signedIn' } as RefreshAllDeps['session']['state']) : { kind: 'signedOut' } },
    findings: { expire: note('findings.expire'), clear: note('findings.clear') },
    projects: {
      state: situation.known ? { kind: 'loaded', projects: [] } : { kind: 'idle' },
      // The list answers on a later turn, so what starts before it is seen to start first.
      load: (o) => (note('projects.load')(o), new Promise((resolve, reject) => setTimeout(() => (situation.listFails ? reject(new Error('list failed')) : resolve([])), 5))),
      clear: note('projects.clear'),
    },
    policies: { clear: note('policies.clear'), expire: note('policies.expire') },
    repos: {
      repos: () => (situation.known ? [{ projectName: 'acme/web' } as ReturnType<RefreshAllDeps['repos']['repos']>[number]] : []),
      recompute: () => (note('repos.recompute')(), situation.rematch === true),
    },
    diagnostics: {
      refresh: (force) => (note('diagnostics.refresh')(force), new Promise((resolve) => setTimeout(() => (calls.push('diagnostics shown'), resolve(situation.gaps ?? [])), 10))),
      clear: note('diagnostics.clear'),
    },
    trees: { projects: { refresh: note('tree.projects') }, policies: { refresh: note('tree.policies') } },
    places: { forgetScans: note('places.forgetScans'), drift: { invalidate: note('drift.invalidate') } },
    onKindsFailed: (gaps) => void calls.push(`told of ${gaps.map((g) => g.kind).join(',')}`),
  };
  return { deps, calls };
}

void describe('refreshAllActions', () => {
  void it('a forced refresh expires findings and scans, maps drift again, reloads projects, re-matches folders, redraws, then waits for Problems', async () => {
    const { deps, calls } = recording(true);
    await refreshAllActions(deps).refreshAll(true);
    assert.deepEqual(calls, ['findings.expire', 'policies.expire', 'places.forgetScans', 'drift.invalidate', 'projects.load({"force":true})', 'repos.recompute', 'tree.projects', 'tree.policies', 'diagnostics.refresh(true)', 'diagnostics shown']);
  });

  void it('folders already matched load their findings beside the project list, and the refresh waits for them', async () => {
    const { deps, calls } = recording(true, { known: true });
    await refreshAllActions(deps).refreshAll(true);
    assert.deepEqual(calls, ['findings.expire', 'policies.expire', 'places.forgetScans', 'drift.invalidate', 'diagnostics.refresh(true)', 'projects.load({"force":true})', 'repos.recompute', 'tree.projects', 'tree.policies', 'diagnostics shown']);
  });

  void it('when the new project list matches the folders differently, Problems is drawn again from the new match', async () => {
    const { deps, calls } = recording(true, { known: true, rematch: true });
    await refreshAllActions(deps).refreshAll(false);
    assert.deepEqual(calls.filter((c) => c.startsWith('diagnostics')), ['diagnostics.refresh(false)', 'diagnostics.refresh(false)', 'diagnostics shown', 'diagnostics shown']);
    assert.equal(calls.at(-1), 'diagnostics shown', 'the refresh resolves only after the second drawing');
  });

  void it('a failed project list fails the refresh even though the findings beside it loaded', async () => {
    const { deps, calls } = recording(true, { known: true, listFails: true });
    await assert.rejects(refreshAllActions(deps).refreshAll(true), /list failed/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(calls.includes('diagnostics shown'), 'the findings that loaded are still shown');
  });

  void it('a kind that failed is told once, after Problems shows the others; a kind the deployment lacks is not', async () => {
    const failed = { kind: 'sca', failedBecause: new Error('503') } as const;
    const lacking = { kind: 'secrets', unavailable: { status: 404, detail: 'not found' } } as const;
    const { deps, calls } = recording(true, { gaps: [lacking, failed] });
    await refreshAllActions(deps).refreshAll(true);
    assert.deepEqual(calls.slice(-2), ['diagnostics shown', 'told of secrets,sca']);
    const quiet = recording(true, { gaps: [lacking] });
    await refreshAllActions(quiet.deps).refreshAll(true);
    assert.equal(quiet.calls.some((c) => c.startsWith('told')), false, 'a missing product is a state, not a failure');
  });

  void it('signed out, a refresh clears everything instead of asking the platform', async () => {
    const { deps, calls } = recording(false);
    await refreshAllActions(deps).refreshAll(false);
    assert.deepEqual(calls, ['findings.clear', 'projects.clear', 'policies.clear', 'diagnostics.clear', 'tree.projects', 'tree.policies']);
  });
});
