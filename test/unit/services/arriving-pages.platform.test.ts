// A start with nothing to show (no disk cache): Problems draws a first load's pages as they come,
// not after the last one, over the real store, client and a slow local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { RefScans } from '../../../src/core/services/ref-scans';
import { BranchBaselines } from '../../../src/core/services/branch-baselines';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import { WorkspaceView, type WorkspaceSnapshot } from '../../../src/core/services/workspace-view';
import type { FolderRef } from '../../../src/core/services/folder-view';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

interface Folder extends FolderRef {
  readonly key: string;
}

void describe("a first load's pages, drawn as they come", () => {
  let h: Harness;
  let data: PlatformData;
  // The clients' agent notes each request's path as the client sends it, so what was asked by
  // when never depends on when a request reaches the platform.
  const agent = new Agent();
  const sent: string[] = [];
  const dispatch = agent.dispatch.bind(agent);
  agent.dispatch = (options, handler) => {
    sent.push(String(options.path));
    return dispatch(options, handler);
  };
  before(async () => {
    // One project whose code findings take many pages of 100: more than the 4 a first load asks at once.
    data = generateDeployment({ projects: 1, sastPerProject: 1200, scaPerProject: 10, refsPerProject: 1 });
    h = await startHarness({ data });
  });
  after(async () => {
    await h.close();
    await agent.close();
  });

  /** The pages of the code findings list the client asked for since `mark` (an index into `sent`). */
  const codePagesAsked = (mark: number): number[] =>
    sent
      .slice(mark)
      .filter((path) => path.includes('/findings?') && path.includes('issue_type=sast&'))
      .map((path) => Number(new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('page')));

  /** `recorded`: the clients send through the agent that notes their requests. */
  const setUp = (recorded = false) => {
    const store = new FindingsStore(() => h.client(undefined, recorded ? { dispatcher: agent } : {}), {
      pageSize: 100,
      deploymentId: () => String(data.deployment.id),
    });
    const name = data.projects[0]?.name ?? '';
    const project = (n: string) =>
      (n === name ? { id: data.projects[0]?.id, name, primaryBranch: 'main', defaultBranch: 'main', tags: [] } : undefined) as unknown as ReturnType<
        ConstructorParameters<typeof WorkspaceView<Folder>>[0]['project']
      >;
    const folders: Folder[] = [{ key: 'file:///w', projectName: name, branch: 'main' }];
    const view = new WorkspaceView<Folder>({
      store,
      baselines: new BranchBaselines({ store, project }),
      scans: new RefScans(store),
      folders: () => folders,
      keyOf: (f) => f.key,
      deploymentSlug: () => 'acme',
      project,
      selection: () => EMPTY_SELECTION,
      mayShow: () => true,
    });
    // Each drawing notes the code findings pages asked for by then: when it came, in the order
    // of events, which no machine's speed changes.
    const mark = sent.length;
    const seen: { cause: WorkspaceSnapshot['cause']; count: number; code: number; pagesAsked: number[] }[] = [];
    view.onDidChange((s) => {
      const findings = s.folders.flatMap((f) => f.findings);
      seen.push({ cause: s.cause, count: findings.length, code: findings.filter((f) => f.issueType === 'sast').length, pagesAsked: codePagesAsked(mark) });
    });
    return { view, seen, mark };
  };

  void test("with nothing held, the first pages are shown a round trip in, long before the last page; the refresh's drawing then replaces them", async () => {
    h.server.setLatency(150);
    try {
      const { view, seen, mark } = setUp(true);
      await view.refresh();
      const last = seen.at(-1);
      assert.equal(last?.cause, 'refresh');
      const total = last?.count ?? 0;
      const codeOnMain = data.sast.filter((f) => f.ref === 'main' || f.ref === 'refs/heads/main').length;
      assert.ok(total >= 400, `the list is long enough to take several waves (${total} findings, ${codeOnMain} code findings on main)`);
      const arriving = seen.filter((s) => s.cause === 'arriving');
      assert.ok(arriving.length > 0, `pages are shown as they come: ${JSON.stringify(seen)}`);
      const first = arriving[0];
      assert.ok(first && first.count > 0 && first.count < total, `the first drawing holds the first pages only (${first?.count} of ${total})`);
      // The code findings are the list of many pages: the first drawing of some of them holds
      // their first pages only, and comes before their last page is even asked for. A later wave
      // is asked only once the wave before it has come back, so that is at least a round trip
      // before the last page, counted in the order of events rather than in milliseconds.
      const codeTotal = last?.code ?? 0;
      const firstCode = arriving.find((s) => s.code > 0);
      assert.ok(
        firstCode && firstCode.code < codeTotal,
        `the first drawing of code findings holds their first pages only (${firstCode?.code} of ${codeTotal})`,
      );
      const lastPage = Math.max(...codePagesAsked(mark));
      assert.ok(
        !firstCode.pagesAsked.includes(lastPage),
        `it comes before the last page is asked for (pages ${firstCode.pagesAsked.join(', ')} asked by then; the last is ${lastPage})`,
      );
      assert.ok(
        arriving.every((s) => s.count <= total),
        'a drawing of arrived pages never shows more than the answer',
      );
    } finally {
      h.server.setLatency(0);
    }
  });

  void test('a refresh of what is already shown draws no arriving pages: the answer shown stays until the new one is whole', async () => {
    const { view, seen } = setUp();
    await view.refresh();
    const mark = seen.length;
    await view.refresh(true);
    assert.deepEqual(
      seen.slice(mark).map((s) => s.cause),
      ['refresh'],
    );
  });

  void test('a refresh that asks for a dozen pages at once writes no "possible memory leak" warning to the host\'s log', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    h.server.setLatency(50);
    try {
      const { view } = setUp();
      await view.refresh();
      // The second read knows the list's length and asks for all of its 12 pages in one wave.
      h.server.roundTrips.mark();
      await view.refresh(true);
      assert.ok(h.server.roundTrips.report().requests >= 11, `the pages went at once (${h.server.roundTrips.report().requests} requests)`);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.filter((w) => w.includes('MaxListeners')),
        [],
      );
    } finally {
      h.server.setLatency(0);
      process.off('warning', onWarning);
    }
  });
});
