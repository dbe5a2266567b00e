// What an issue-type node ("Code findings") shows for each state of its slot, and the levels
// below it: groups with counts, pages of at most 500, findings with stable ids.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../../src/core/model/types';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import type { FindingsResult } from '../../../src/core/services/findings-query';
import type { GroupBy } from '../../../src/core/services/grouping';
import {
  FindingGroupsCache,
  findingPageChildren,
  groupChildren,
  issueTypeChildren,
  issueTypeDescription,
  onePerPolicy,
  type FindingsChildrenContext,
  type PlaceShown,
} from '../../../src/views/findings-children';
import { nodeIds, type IssueTypeNode, type Node, type ProjectNode } from '../../../src/views/tree-nodes';
import { sastFinding } from '../services/finding-fixtures';

const project: ProjectNode = {
  kind: 'project',
  id: nodeIds.project('acme', 'acme/api'),
  deploymentSlug: 'acme',
  project: { id: 1, name: 'acme/api', tags: [] },
  inWorkspace: true,
  ref: 'main',
};
const codeNode: IssueTypeNode = {
  kind: 'issueType',
  id: nodeIds.issueType(project.id, 'sast'),
  parent: project,
  issueType: 'sast',
  slot: 'tree:acme/api:sast',
};

const result = (findings: readonly Finding[], extra: Partial<FindingsResult> = {}): FindingsResult => ({
  query: { deploymentSlug: 'acme', issueType: 'sast', filters: {} },
  findings,
  skipped: 0,
  loadedAt: new Date(2024, 0, 1, 10, 30),
  ...extra,
});

const cache = new FindingGroupsCache();
const context = (groupBy: GroupBy = 'severity', selection = EMPTY_SELECTION): FindingsChildrenContext => ({
  groupBy,
  selection,
  groupsOf: (r) => cache.get(r, groupBy),
  errorMessage: (e) => (e instanceof Error ? e.message : String(e)),
  now: new Date(2024, 0, 1, 12, 0),
});

const view = (extra: Partial<PlaceShown>): PlaceShown => ({ loading: false, cancelled: false, ...extra });
const labels = (nodes: Node[]): string[] =>
  nodes.map((n) =>
    n.kind === 'message'
      ? n.text
      : n.kind === 'group'
        ? `${n.group.label} (${n.group.findings.length})`
        : n.kind === 'page'
          ? `page ${n.start}–${n.end}`
          : n.kind,
  );

void describe('issueTypeChildren: states', () => {
  void test('loading without findings: one loading node', () => {
    assert.deepEqual(labels(issueTypeChildren(codeNode, view({ loading: true }), context())), ['Loading code findings…']);
    // Idle means a load is about to start: same node, never an empty view.
    assert.deepEqual(labels(issueTypeChildren(codeNode, view({}), context())), ['Loading code findings…']);
  });

  void test('failed: the error with the service message', () => {
    const nodes = issueTypeChildren(codeNode, view({ error: new Error('HTTP 503') }), context());
    assert.deepEqual(labels(nodes), ['Could not load code findings: HTTP 503']);
    assert.equal(nodes[0]?.kind === 'message' && nodes[0].actions.length, 2);
  });

  void test('cancelled without findings: offers to load again', () => {
    assert.deepEqual(labels(issueTypeChildren(codeNode, view({ cancelled: true, loading: true }), context())), ['Loading code findings was cancelled']);
  });

  void test('stale: a warning above the findings kept from before', () => {
    const nodes = issueTypeChildren(codeNode, view({ result: result([sastFinding({ severity: 'high' })], { staleBecause: new Error('timeout') }) }), context());
    assert.deepEqual(labels(nodes), ['Showing findings from 10:30 — the last refresh failed: timeout', 'high (1)']);
  });

  void test('refreshing: a loading node above the findings still shown', () => {
    const nodes = issueTypeChildren(codeNode, view({ loading: true, result: result([sastFinding({})]) }), context());
    assert.deepEqual(labels(nodes), ['Loading code findings…', 'high (1)']);
  });

  void test('skipped findings are announced', () => {
    const nodes = issueTypeChildren(codeNode, view({ result: result([sastFinding({})], { skipped: 3 }) }), context());
    assert.deepEqual(labels(nodes), ['3 findings could not be read and are not shown', 'high (1)']);
  });

  void test('empty: why, depending on the filters', () => {
    assert.deepEqual(labels(issueTypeChildren(codeNode, view({ result: result([]) }), context())), ['No findings on main']);
    const filtered = context('severity', { ...EMPTY_SELECTION, status: 'open' });
    assert.deepEqual(labels(issueTypeChildren(codeNode, view({ result: result([]) }), filtered)), ['No open findings match the filters']);
  });
});

void describe('issueTypeChildren: groups and pages', () => {
  void test('grouped by severity, most severe first, with counts', () => {
    const findings = ['low', 'critical', 'low', 'medium'].map((severity) => sastFinding({ severity }));
    assert.deepEqual(labels(issueTypeChildren(codeNode, view({ result: result(findings) }), context())), ['critical (1)', 'medium (1)', 'low (2)']);
  });

  void test('a group of more than 500 findings is paged; finding ids do not depend on the page', () => {
    const findings = Array.from({ length: 1203 }, (_, i) => sastFinding({ file: `f${String(i).padStart(4, '0')}.py` }));
    const [group] = issueTypeChildren(codeNode, view({ result: result(findings) }), context());
    assert.ok(group?.kind === 'group', 'one group');
    const pages = groupChildren(group);
    assert.deepEqual(labels(pages), ['page 0–500', 'page 500–1000', 'page 1000–1203']);
    const last = pages[2];
    assert.ok(last?.kind === 'page', 'the last child is a page');
    const items = findingPageChildren(last);
    assert.equal(items.length, 203);
    const first = items[0];
    assert.ok(first?.kind === 'finding' && first.id === nodeIds.finding(group.id, first.finding.id));
  });

  void test('more than 500 groups are paged too', () => {
    const findings = Array.from({ length: 1001 }, (_, i) => sastFinding({ file: `dir/f${i}.py` }));
    const top = issueTypeChildren(codeNode, view({ result: result(findings) }), context('file'));
    assert.deepEqual(labels(top), ['page 0–500', 'page 500–1000', 'page 1000–1001']);
    const page = top[0];
    if (page?.kind !== 'page') return assert.fail('expected a page');
    const groups = findingPageChildren(page);
    assert.equal(groups.length, 500);
    // A group's id is the same as it would be unpaged.
    assert.ok(groups.every((g) => g.kind === 'group' && g.id === nodeIds.group(codeNode.id, 'file', g.group.key)));
  });

  void test('a finding returned twice by the service is shown once', () => {
    const finding = sastFinding({});
    const nodes = issueTypeChildren(codeNode, view({ result: result([finding, { ...finding }]) }), context());
    assert.deepEqual(labels(nodes), ['high (1)']);
  });

  void test('ids are the same on every call, and unique', () => {
    const r = result(Array.from({ length: 30 }, (_, i) => sastFinding({ ruleName: `r.${i % 4}`, file: `f${i % 3}.py` })));
    const walk = (): string[] =>
      issueTypeChildren(codeNode, view({ result: r }), context('rule')).flatMap((n) => [
        n.id,
        ...(n.kind === 'group' ? groupChildren(n).map((c) => c.id) : []),
      ]);
    const ids = walk();
    assert.deepEqual(walk(), ids);
    assert.equal(new Set(ids).size, ids.length);
  });
});

void describe('FindingGroupsCache', () => {
  void test('groups a result once per grouping; a new result is grouped anew', () => {
    const own = new FindingGroupsCache();
    const r = result([sastFinding({}), sastFinding({ severity: 'low' })]);
    assert.equal(own.get(r, 'severity'), own.get(r, 'severity'));
    assert.notEqual(own.get(r, 'rule'), own.get(r, 'severity'));
    assert.notEqual(own.get({ ...r }, 'severity'), own.get(r, 'severity'));
    assert.equal(own.count(r, 'severity'), 2);
  });
});

void describe('issueTypeDescription', () => {
  const r = result([sastFinding({}), sastFinding({})]);
  const count = (x: FindingsResult): number => x.findings.length;
  void test('the count once loaded, with the state when it is not plain', () => {
    assert.equal(issueTypeDescription(view({ result: r }), count), '2');
    assert.equal(issueTypeDescription(view({ result: r, loading: true }), count), '2 · refreshing…');
    assert.equal(issueTypeDescription(view({ result: { ...r, staleBecause: new Error('x') } }), count), '2 · stale');
    assert.equal(issueTypeDescription(view({ loading: true }), count), 'loading…');
    assert.equal(issueTypeDescription(view({ error: new Error('x') }), count), 'failed');
    assert.equal(issueTypeDescription(view({ cancelled: true }), count), 'cancelled');
    assert.equal(issueTypeDescription(view({}), count), undefined);
  });
});

void describe('onePerPolicy', () => {
  void test('one finding for each policy named, none for findings without one', () => {
    const policy = (id: number): Finding['policy'] => ({ id, name: `P${id}`, slug: `p${id}` });
    const findings = [sastFinding({ policy: policy(1) }), sastFinding({}), sastFinding({ policy: policy(2) }), sastFinding({ policy: policy(1) })];
    assert.deepEqual(
      onePerPolicy(findings).map((f) => f.policy?.id),
      [1, 2],
    );
  });
});

void describe('only new on this branch, in the tree', () => {
  const old = sastFinding({ id: 1, severity: 'high' });
  const fresh = sastFinding({ id: 2, severity: 'high' });
  const featureNode: IssueTypeNode = { ...codeNode, parent: { ...project, ref: 'feature/x' } };
  const onlyNew = { ...EMPTY_SELECTION, newOnBranch: true };
  const local = (version: number, newIds: readonly number[]) => ({ key: `new@${version}`, keep: (f: Finding) => newIds.includes(f.id) });

  void test('the groups hold only new findings; a new comparison (version) is grouped again', () => {
    const groupsCache = new FindingGroupsCache();
    const answer = result([old, fresh]);
    assert.equal(groupsCache.count(answer, 'severity', local(1, [2])), 1);
    assert.equal(groupsCache.count(answer, 'severity', local(2, [1, 2])), 2);
    assert.equal(groupsCache.count(answer, 'severity'), 2, 'without the filter, all');
  });

  void test('an empty answer on a branch whose scan is still being asked about is not shown as clean', () => {
    const ctx: FindingsChildrenContext = { ...context('severity', EMPTY_SELECTION), groupsOf: () => [] };
    assert.deepEqual(labels(issueTypeChildren(featureNode, view({ result: result([]), checkingScan: true }), ctx)), [
      'Checking whether feature/x was scanned…',
    ]);
    const unscanned = view({ result: result([]), unscanned: { projectName: 'acme/api', primary: 'main' } });
    assert.match(labels(issueTypeChildren(featureNode, unscanned, ctx))[0] ?? '', /^feature\/x has no scan/);
  });

  void test('nothing new: the node says so (and does not claim the branch is clean)', () => {
    const groupsCache = new FindingGroupsCache();
    const ctx: FindingsChildrenContext = { ...context('severity', onlyNew), groupsOf: (r) => groupsCache.get(r, 'severity', local(1, [])) };
    const compared = view({ result: result([old]), primary: 'main', comparedWith: 'main' });
    assert.deepEqual(labels(issueTypeChildren(featureNode, compared, ctx)), ['No code findings new on feature/x']);
    const waiting = view({ result: result([old]), primary: 'main' });
    assert.deepEqual(labels(issueTypeChildren(featureNode, waiting, ctx)), ['Comparing feature/x with main…']);
  });
});
