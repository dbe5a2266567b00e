// Node ids (stable, unique, safe with slashes), paging, and the accessors command handlers use
// to read the node they were invoked on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findingOf, nodeIds, pageLabel, pageRanges, projectOf, ruleIdOf, treeSlot, uniqueBy, urlOf,
  type FindingNode, type ProjectNode, type RuleNode,
} from '../../../src/views/tree-nodes';
import { sastFinding } from '../services/finding-fixtures';

const projectNode = (name: string, url?: string): ProjectNode => ({
  kind: 'project', id: nodeIds.project('acme', name), deploymentSlug: 'acme', project: { id: 1, name, tags: [], url }, inWorkspace: false,
});

void describe('node ids', () => {
  void test('built from what a node stands for, so they are the same on every refresh', () => {
    const issueType = nodeIds.issueType(nodeIds.project('acme', 'group/sub/repo'), 'sast');
    assert.equal(issueType, 'project/acme/group%2Fsub%2Frepo/sast');
    const group = nodeIds.group(issueType, 'file', 'src/a.py');
    assert.equal(group, 'project/acme/group%2Fsub%2Frepo/sast/by-file/src%2Fa.py');
    assert.equal(nodeIds.finding(group, 42), `${group}/finding/42`);
  });

  void test('slashes in names cannot make two different nodes share an id', () => {
    assert.notEqual(nodeIds.project('acme', 'a/b'), nodeIds.issueType(nodeIds.project('acme', 'a'), 'b' as 'sast'));
    assert.notEqual(nodeIds.group('x', 'rule', 'a/finding/1'), nodeIds.finding(nodeIds.group('x', 'rule', 'a'), 1));
  });

  void test('a grouping change gives new group ids, so stale expansion state is not reused', () => {
    assert.notEqual(nodeIds.group('t', 'rule', 'k'), nodeIds.group('t', 'file', 'k'));
  });

  void test('the findings slot names project and issue type', () => {
    assert.equal(treeSlot('group/sub/repo', 'sca'), 'tree:group/sub/repo:sca');
  });
});

void describe('paging', () => {
  void test('chunks of 500, the last one short', () => {
    assert.deepEqual(pageRanges(1234), [{ start: 0, end: 500 }, { start: 500, end: 1000 }, { start: 1000, end: 1234 }]);
    assert.deepEqual(pageRanges(500), [{ start: 0, end: 500 }]);
    assert.deepEqual(pageRanges(0), []);
  });

  void test('labels count from one, inclusive, with an en dash', () => {
    assert.equal(pageLabel('Findings', 0, 500), 'Findings 1–500');
    assert.equal(pageLabel('Findings', 500, 1000), 'Findings 501–1000');
  });

  void test('uniqueBy keeps the first of each key, in order', () => {
    assert.deepEqual(uniqueBy([1, 2, 1, 3, 2], (n) => n), [1, 2, 3]);
  });
});

void describe('accessors for command handlers', () => {
  const finding = sastFinding({ ruleName: 'a.b.c', lineOfCodeUrl: 'https://x.example/a#L1' });
  const group = { kind: 'group', id: 'g' } as unknown as FindingNode['parent'];
  const findingNode: FindingNode = { kind: 'finding', id: 'f', parent: group, finding };

  void test('findingOf takes a finding node or a Finding, nothing else', () => {
    assert.equal(findingOf(findingNode), finding);
    assert.equal(findingOf(finding), finding);
    assert.equal(findingOf(projectNode('a')), undefined);
    assert.equal(findingOf('x'), undefined);
    assert.equal(findingOf(undefined), undefined);
  });

  void test('projectOf, ruleIdOf', () => {
    assert.equal(projectOf(projectNode('acme/api'))?.name, 'acme/api');
    assert.equal(projectOf(findingNode), undefined);
    assert.equal(ruleIdOf(findingNode), 'a.b.c');
    const ruleNode = { kind: 'rule', id: 'r', rule: { path: 'p.q' } } as unknown as RuleNode;
    assert.equal(ruleIdOf(ruleNode), 'p.q');
  });

  void test('urlOf gives only http(s) URLs', () => {
    assert.equal(urlOf(findingNode), 'https://x.example/a#L1');
    assert.equal(urlOf(projectNode('a', 'https://github.com/a')), 'https://github.com/a');
    assert.equal(urlOf(projectNode('a', 'command:evil')), undefined);
    assert.equal(urlOf({}), undefined);
  });
});
