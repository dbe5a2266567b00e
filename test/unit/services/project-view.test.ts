// What an issue-type node of the Projects tree asks the store: its place's query, the filters
// decided in the editor, the primary branch it is compared with, and whether a branch was never
// scanned.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Project } from '../../../src/core/model/types';
import { EMPTY_SELECTION, type FilterSelection } from '../../../src/core/services/filters';
import type { SlotState } from '../../../src/core/services/slot-bindings';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { ProjectView } from '../../../src/core/services/project-view';
import type { RefScan, RefScanNow } from '../../../src/core/services/ref-scans';
import type { ProjectsTreeDeps } from '../../../src/views/projects-tree-deps';
import type { IssueTypeNode } from '../../../src/views/tree-nodes';
import { sastFinding } from './finding-fixtures';

const project: Project = { id: 1, name: 'acme/api', tags: [], primaryBranch: 'main' };

function node(ref: string | undefined, issueType: IssueTypeNode['issueType'] = 'sast'): IssueTypeNode {
  const parent = { kind: 'project', id: 'p', deploymentSlug: 'acme', project, inWorkspace: true, ref } as const;
  return { kind: 'issueType', id: `p/${issueType}`, parent, issueType, slot: `tree:acme/api:${issueType}` };
}

function setup(options: { signedIn?: boolean; selection?: FilterSelection; baselines?: boolean; scan?: RefScanNow; known?: RefScan } = {}) {
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
      known: (): RefScan | undefined => options.known,
    },
    baselines:
      options.baselines === false
        ? undefined
        : {
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
      deploymentSlug: 'acme',
      issueType: 'sast',
      filters: { repos: ['acme/api'], ref: 'feature', dedup: true, status: 'open', severities: ['high'] },
    });
    assert.equal(setup({ signedIn: false }).queries.query(node('main')), undefined);
  });

  void test('the filters decided in the editor, keyed by what they depend on; none when nothing is filtered here', () => {
    assert.equal(setup().queries.place(node('feature'))?.keep, undefined);
    const filter = setup({ selection: { ...EMPTY_SELECTION, paths: ['src/a.py'] } }).queries.place(node('feature'))?.keep;
    assert.ok(filter);
    assert.equal(filter.key, JSON.stringify([['src/a.py'], false, '', '', 3]));
    assert.equal(filter.keep(sastFinding({ file: 'src/a.py' })), true);
    assert.equal(filter.keep(sastFinding({ file: 'src/b.py' })), false);
    const { queries } = setup({ selection: { ...EMPTY_SELECTION, newOnBranch: true } });
    const before = queries.place(node('feature'));
    assert.equal(before?.keep?.keep(sastFinding({ id: 1 })), false, 'not compared yet: nothing is claimed new');
    assert.ok(before && queries.compareWithPrimary(before));
    const onlyNew = queries.place(node('feature'))?.keep;
    assert.notEqual(onlyNew?.key, before.keep?.key, 'the comparison is part of what the filter depends on');
    assert.equal(onlyNew?.keep(sastFinding({ id: 1 })), true);
    assert.equal(onlyNew?.keep(sastFinding({ id: 2 })), false);
    assert.equal(queries.place(node('main'))?.keep?.keep(sastFinding({ id: 1 })), false, 'nothing is new on the primary branch itself');
  });

  void test('another branch is compared with the primary one, whose findings are asked for once', () => {
    const { queries, ensured } = setup();
    const at = (ref: string) => queries.place(node(ref)) ?? assert.fail('signed in');
    assert.equal(queries.compareWithPrimary(at('main')), undefined, 'the primary branch itself');
    assert.equal(queries.compareWithPrimary(at('feature')), 'main');
    assert.equal(queries.compareWithPrimary(at('feature')), 'main');
    assert.deepEqual(ensured, ['acme/api']);
    assert.equal(at('feature').comparedWith, 'main', "once the primary branch's findings are loaded");
    const without = setup({ baselines: false }).queries;
    assert.equal(without.compareWithPrimary(without.place(node('feature')) ?? assert.fail('signed in')), undefined);
  });

  void test('never scanned: the one rule is asked only for a branch other than the primary one, and its answer told as the node needs it', () => {
    const { queries, asked } = setup();
    const main = queries.place(node('main'), 'now');
    assert.equal(main?.scan, undefined, 'the primary branch');
    assert.equal(ProjectView.unscannedOf(main), undefined);
    assert.deepEqual(asked, [], 'the primary branch is never asked about');
    assert.equal(queries.place(node('feature'), 'now')?.scan, 'checking', 'not answered yet: not clean either');
    assert.deepEqual(asked, ['acme/api@feature']);
    const unscanned = setup({ scan: 'unscanned' }).queries.place(node('feature', 'secrets'), 'now');
    assert.equal(unscanned?.fallback, 'main');
    assert.deepEqual(ProjectView.unscannedOf(unscanned), { projectName: 'acme/api', primary: 'main' });
    assert.equal(setup({ scan: 'scanned' }).queries.place(node('feature'), 'now')?.fallback, undefined);
    const failed = setup({ scan: 'unknown' }).queries.place(node('feature'), 'now');
    assert.equal(failed?.fallback, undefined, 'a question that failed proves nothing');
    assert.equal(ProjectView.unscannedOf(failed), undefined);
  });

  void test('a place read for its query or a label asks nothing: what the held answers say', () => {
    const { queries, asked } = setup({ known: 'unscanned' });
    const read = queries.place(node('feature'));
    assert.deepEqual(asked, []);
    assert.equal(read?.scan, 'unscanned');
    assert.equal(read?.fallback, 'main');
    assert.equal(setup().queries.place(node('feature'))?.scan, 'unknown', 'nothing held: not known, and not asked');
  });
});
