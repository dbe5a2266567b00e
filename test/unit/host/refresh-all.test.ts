// "Refresh everything" and "forget everything", in the order the views need them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refreshAllActions, type RefreshAllDeps } from '../../../src/host/refresh-all';

function recording(signedIn: boolean): { deps: RefreshAllDeps; calls: string[] } {
  const calls: string[] = [];
  const note = (name: string) => (...args: unknown[]): void => void calls.push(args.length > 0 ? `${name}(${JSON.stringify(args[0])})` : name);
  const deps: RefreshAllDeps = {
    session: { state: signedIn ? ({ kind: 'signedIn' } as RefreshAllDeps['session']['state']) : { kind: 'signedOut' } },
    findings: { expire: note('findings.expire'), clear: note('findings.clear') },
    projects: { load: (o) => (note('projects.load')(o), Promise.resolve([])), clear: note('projects.clear') },
    policies: { clear: note('policies.clear'), expire: note('policies.expire') },
    repos: { recompute: note('repos.recompute') },
    diagnostics: { refresh: (force) => (note('diagnostics.refresh')(force), Promise.resolve()), clear: note('diagnostics.clear') },
    trees: { projects: { refresh: note('tree.projects') }, policies: { refresh: note('tree.policies') } },
    places: { forgetScans: note('places.forgetScans'), drift: { invalidate: note('drift.invalidate') } },
  };
  return { deps, calls };
}

void describe('refreshAllActions', () => {
  void it('a forced refresh expires findings and scans, maps drift again, reloads projects, re-matches folders, redraws, then waits for Problems', async () => {
    const { deps, calls } = recording(true);
    await refreshAllActions(deps).refreshAll(true);
    assert.deepEqual(calls, ['findings.expire', 'policies.expire', 'places.forgetScans', 'drift.invalidate', 'projects.load({"force":true})', 'repos.recompute', 'tree.projects', 'tree.policies', 'diagnostics.refresh(true)']);
  });

  void it('signed out, a refresh clears everything instead of asking the platform', async () => {
    const { deps, calls } = recording(false);
    await refreshAllActions(deps).refreshAll(false);
    assert.deepEqual(calls, ['findings.clear', 'projects.clear', 'policies.clear', 'diagnostics.clear', 'tree.projects', 'tree.policies']);
  });
});
