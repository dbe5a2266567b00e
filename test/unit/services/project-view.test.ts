// What an issue-type node of the Projects tree asks the store: its query, the filters decided in
// the editor, the primary branch it is compared with, and whether a branch was never scanned.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Project } from '../../../src/core/model/types';
import { EMPTY_SELECTION, type FilterSelection } from '../../../src/core/services/filters';
import type { SlotState } from '../../../src/core/services/slot-bindings';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { ProjectView } from '../../../src/core/services/project-view';
import type { RefScanNow } from '../../../src/core/services/ref-scans';
import type { ProjectsTreeDeps } from '../../../src/views/projects-tree-deps';
import type { IssueTypeNode } from '../../../src/views/tree-nodes';
import { sastFinding } from './finding-fixtures';

const project: Project = { id: 1, name: 'acme/api', tags: [], primaryBranch: 'main' };

function node(ref: string | undefined, issueType: IssueTypeNode['issueType'] = 'sast'): IssueTypeNode {
  const parent = { kind: 'project', id: 'p', deploymentSlug: 'acme', project, inWorkspace: true, ref } as const;
  return { kind: 'issueType', id: `p/${issueType}`, parent, issueType, slot: `tree:acme/api:${issueType}` };
}

function setup(options: { signedIn?: boolean; selection?: FilterSelection; baselines?: boolean; scan?: RefScanNow } = {}) {
  const states = new Map<string, SlotState>();
  const asked: string[] = [];
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
    scans: {
      now: (_slug: string, projectName: string, ref: string): RefScanNow => {
        asked.push(`${projectName}@${ref}`);
        return options.scan ?? 'checking';
      },
    },
    baselines: options.baselines === false ? undefined : {
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
  return { queries: new ProjectView(deps), states, loads, ensured, asked };
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
    assert.equal(setup({ baselines: false }).queries.compareWithPrimary(node('feature')), undefined);
  });

  void test('never scanned: the one rule is asked only for a branch other than the primary one, and its answer told as the node needs it', () => {
    const { queries, asked } = setup();
    assert.deepEqual(queries.scanOf(node('main')), { checking: false }, 'the primary branch');
    assert.deepEqual(asked, [], 'the primary branch is never asked about');
    assert.deepEqual(queries.scanOf(node('feature')), { checking: true }, 'not answered yet: not clean either');
    assert.deepEqual(asked, ['acme/api@feature']);
    assert.deepEqual(setup({ scan: 'unscanned' }).queries.scanOf(node('feature', 'secrets')), { unscanned: { projectName: 'acme/api', primary: 'main' }, checking: false });
    assert.deepEqual(setup({ scan: 'scanned' }).queries.scanOf(node('feature')), { checking: false });
    assert.deepEqual(setup({ scan: 'unknown' }).queries.scanOf(node('feature')), { checking: false }, 'a question that failed proves nothing');
  });
});
