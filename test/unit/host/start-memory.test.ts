// What a start knows before any answer: the workspace's projects and how the deployment answers,
// kept per deployment, taken at sign-in when the list is not read yet, written after a refresh
// and after a list is read (only when it changed), and forgotten at sign-out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events';
import { AnswerShapes } from '../../../src/core/services/answer-shapes';
import type { Project } from '../../../src/core/model/types';
import { StartMemory, type StartMemoryFollows } from '../../../src/host/start-memory';

/** VS Code's Memento, in memory, counting writes. */
class MemoryMemento {
  readonly values = new Map<string, unknown>();
  writes = 0;
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
}

const api: Project = {
  id: 1,
  name: 'acme/api',
  tags: ['pci'],
  primaryBranch: 'main',
  createdAt: new Date('2024-05-01T12:00:00Z'),
  latestScanAt: new Date('2026-11-20T08:00:00Z'),
};
const web: Project = { id: 2, name: 'acme/web', tags: [] };

function memory() {
  const workspaceState = new MemoryMemento();
  const globalState = new MemoryMemento();
  const shapes = new AnswerShapes();
  const start = new StartMemory({ workspaceState: workspaceState, globalState: globalState, shapes });
  return { workspaceState, globalState, shapes, start };
}

void describe('StartMemory', () => {
  test("keeps the workspace's projects for their deployment and gives them back, dates as dates", async () => {
    const { start } = memory();
    await start.keep('acme', [api, web]);
    const back = start.restore('acme');
    assert.deepEqual(back, [api, web]);
    assert.ok(back[0]?.createdAt instanceof Date, 'a date, not its text');
    assert.deepEqual(start.restore('other'), [], 'another deployment gets nothing');
  });

  test('writes only when the projects changed', async () => {
    const { start, workspaceState } = memory();
    await start.keep('acme', [api]);
    await start.keep('acme', [api]);
    assert.equal(workspaceState.writes, 1);
    await start.keep('acme', [{ ...api, tags: ['pci', 'team-a'] }]);
    assert.equal(workspaceState.writes, 2);
  });

  test('what was learnt of the answers is kept for every window of the deployment and taken back', async () => {
    const first = memory();
    first.shapes.learnSpelling('full');
    await first.start.keep('acme', [api]);
    const second = memory();
    for (const [key, value] of first.globalState.values) second.globalState.values.set(key, value);
    second.start.restore('acme');
    assert.equal(second.shapes.spelling, 'full');
    const third = memory();
    for (const [key, value] of first.globalState.values) third.globalState.values.set(key, value);
    third.start.restore('other');
    assert.equal(third.shapes.spelling, undefined, "not another deployment's");
  });

  test('kept data that is not a project list reads as nothing', () => {
    const { start, workspaceState } = memory();
    workspaceState.values.set('appsecFindings.workspaceProjects', { deployment: 'acme', value: 'broken' });
    assert.deepEqual(start.restore('acme'), []);
    workspaceState.values.set('appsecFindings.workspaceProjects', { deployment: 'acme', value: [{ name: 3 }, null, web] });
    assert.deepEqual(start.restore('acme'), [web]);
  });

  test("follows the session: a sign-in adopts what was kept, a refresh keeps the workspace's projects, a sign-out forgets", async () => {
    const { start, workspaceState, globalState } = memory();
    await start.keep('acme', [api]);
    const session = new Emitter<{ kind: string; deployment?: { slug: string } }>();
    const drawn = new Emitter<{ cause: string }>();
    const projectsChanged = new Emitter<void>();
    let adopted: readonly Project[] | undefined;
    let listed = false;
    const found = new Map<string, Project>([
      [api.name, api],
      [web.name, web],
    ]);
    const follows = {
      session: { onDidChange: session.event },
      projects: {
        get listed() {
          return listed;
        },
        known: [] as readonly Project[],
        adoptKnown: (projects: readonly Project[]) => {
          adopted = projects;
        },
        find: (name: string) => found.get(name),
        onDidChange: projectsChanged.event,
        state: { kind: 'loaded' },
      },
      repos: { projectNames: () => new Set([api.name, web.name]) },
      drawn: drawn.event,
      log: { warn: () => undefined },
    } as unknown as StartMemoryFollows;
    const subscriptions = start.follow(follows);
    session.fire({ kind: 'signedIn', deployment: { slug: 'acme' } });
    assert.deepEqual(adopted, [api], 'the kept projects are adopted before the list');
    listed = true;
    drawn.fire({ cause: 'refresh' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      start.restore('acme').map((p) => p.name),
      [api.name, web.name],
      'a refresh keeps every workspace project found',
    );
    session.fire({ kind: 'signedOut' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(workspaceState.values.size, 0, 'signed out: no projects kept');
    assert.equal(globalState.values.size, 0, 'and nothing of the answers');
    for (const s of subscriptions) s.dispose();
  });
});
