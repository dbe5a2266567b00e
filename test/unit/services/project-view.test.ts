// What an issue-type node of the Projects tree asks the store: its query, the filters decided in
// the editor, the primary branch it is compared with, and whether a branch was never scanned.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Project } from '../../../src/core/model/types';
import { EMPTY_SELECTION, type FilterSelection } from '../../../src/core/services/filters';
import type { SlotState } from '../../../src/core/services/slot-bindings';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { placeSlotOf, ProjectView } from '../../../src/core/services/project-view';
import type { ProjectsTreeDeps } from '../../../src/views/projects-tree-deps';
import type { IssueTypeNode } from '../../../src/views/tree-nodes';
import { sastFinding } from './finding-fixtures';

const project: Project = { id: 1, name: 'acme/api', tags: [], primaryBranch: 'main' };

function node(ref: string | undefined, issueType: IssueTypeNode['issueType'] = 'sast'): IssueTypeNode {
  const parent = { kind: 'project', id: 'p', deploymentSlug: 'acme', project, inWorkspace: true, ref } as const;
  return { kind: 'issueType', id: `p/${issueType}`, parent, issueType, slot: `tree:acme/api:${issueType}` };
}

function setup(options: { signedIn?: boolean; selection?: FilterSelection; novelty?: boolean } = {}) {
  const states = new Map<string, SlotState>();
  const loads: { slot: string; query: FindingsQuery }[] = [];
  const ensured: string[] = [];
  let compared: string | undefined;
  const deps = {
    session: { deployment: options.signedIn === false ? undefined : { id: '9', slug: 'acme', name: 'Acme' }, state: { kind: 'signedIn' } },
    selection: () => options.selection ?? EMPTY_SELECTION,
    findings: {
      state: (slot: string): SlotState => states.get(slot) ?? { kind: 'idle' },
      load: (slot: string, query: FindingsQuery) => {
        loads.push({ slot, query });
        return Promise.resolve();
      },
    },
    novelty: options.novelty === false ? undefined : {
      version: 3,
      isNew: (finding: Finding) => finding.id === 1,
      comparedWith: () => compared,
      ensure: (_slug: string, name: string) => {
        ensured.push(name);
        compared = 'main';
        return Promise.resolve();
      },
    },
  } as unknown as ProjectsTreeDeps;
  return { queries: new ProjectView(deps), states, loads, ensured };
}

void describe('ProjectView', () => {
  void test('the query: the project, its branch and the filters the platform applies; none signed out', () => {
    const { queries } = setup({ selection: { ...EMPTY_SELECTION, status: 'open', severities: ['high'] } });
    assert.deepEqual(queries.query(node('feature')), {
      deploymentSlug: 'acme', issueType: 'sast', filters: { repos: ['acme/api'], ref: 'feature', dedup: true, status: 'open', severities: ['high'] },
    });
    assert.equal(setup({ signedIn: false }).queries.query(node('main')), undefined);
  });

  void test('the filters decided in the editor, keyed by what they depend on; none when nothing is filtered here', () => {
    assert.equal(setup().queries.localFilter(), undefined);
    const filter = setup({ selection: { ...EMPTY_SELECTION, paths: ['src/a.py'] } }).queries.localFilter();
    assert.ok(filter);
    assert.equal(filter.key, JSON.stringify([['src/a.py'], false, '', 3]));
    assert.equal(filter.keep(sastFinding({ file: 'src/a.py' })), true);
    assert.equal(filter.keep(sastFinding({ file: 'src/b.py' })), false);
    const onlyNew = setup({ selection: { ...EMPTY_SELECTION, newOnBranch: true } }).queries.localFilter();
    assert.equal(onlyNew?.keep(sastFinding({ id: 1 })), true);
    assert.equal(onlyNew?.keep(sastFinding({ id: 2 })), false);
  });

  void test('another branch is compared with the primary one, whose findings are asked for once', () => {
    const { queries, ensured } = setup();
    assert.equal(queries.compareWithPrimary(node('main')), undefined, 'the primary branch itself');
    assert.equal(queries.compareWithPrimary(node('feature')), 'main');
    assert.equal(queries.compareWithPrimary(node('feature')), 'main');
    assert.deepEqual(ensured, ['acme/api']);
    assert.equal(setup({ novelty: false }).queries.compareWithPrimary(node('feature')), undefined);
  });

  void test('never scanned: asked once through its own slot, "checking" meanwhile, said only when that branch has no finding at all', () => {
    const { queries, states, loads } = setup();
    assert.deepEqual(queries.scanOf(node('main')), { checking: false }, 'the primary branch');
    assert.deepEqual(queries.scanOf(node('feature')), { checking: true }, 'not answered yet: not clean either');
    assert.equal(loads.length, 1);
    const probe = loads[0];
    assert.equal(probe?.slot, 'tree:acme/api:sast:scanned');
    assert.deepEqual(probe?.query, { deploymentSlug: 'acme', issueType: 'sast', filters: { repos: ['acme/api'], ref: 'feature', dedup: true } });
    states.set('tree:acme/api:sast:scanned', { kind: 'loading' });
    assert.deepEqual(queries.scanOf(node('feature')), { checking: true });
    assert.equal(loads.length, 1, 'not asked twice while on its way');
    states.set('tree:acme/api:sast:scanned', { kind: 'loaded', result: { query: probe.query, findings: [], fetchedAt: 0 } } as unknown as SlotState);
    assert.deepEqual(queries.scanOf(node('feature')), { unscanned: { projectName: 'acme/api', primary: 'main' }, checking: false });
    states.set('tree:acme/api:sast:scanned', { kind: 'loaded', result: { query: probe.query, findings: [sastFinding()], fetchedAt: 0 } } as unknown as SlotState);
    assert.deepEqual(queries.scanOf(node('feature')), { checking: false }, 'the branch has findings: scanned');
    assert.equal(loads.length, 1, 'answered from the store afterwards');
    states.set('tree:acme/api:sast:scanned', { kind: 'failed', error: new Error('503') });
    assert.deepEqual(queries.scanOf(node('feature')), { checking: false }, 'a failed question proves nothing, and is not asked on every redraw');
    assert.equal(loads.length, 1);
  });

  void test('secrets on a branch never scanned say so too: they ask whether it has code findings (no secrets is the usual case)', () => {
    const { queries, states, loads } = setup();
    assert.deepEqual(queries.scanOf(node('feature', 'secrets')), { checking: true });
    assert.equal(loads[0]?.slot, 'tree:acme/api:secrets:scanned');
    assert.equal(loads[0]?.query.issueType, 'sast');
    states.set('tree:acme/api:secrets:scanned', { kind: 'loaded', result: { query: loads[0]?.query, findings: [], fetchedAt: 0 } } as unknown as SlotState);
    assert.equal(queries.scanOf(node('feature', 'secrets')).unscanned?.primary, 'main');
  });

  void test('a probe\'s slot belongs to its node', () => {
    assert.equal(placeSlotOf('tree:acme/api:sast:scanned'), 'tree:acme/api:sast');
    assert.equal(placeSlotOf('tree:acme/api:sca'), 'tree:acme/api:sca');
  });
});
