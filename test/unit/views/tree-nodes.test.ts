// Node ids (stable, unique, safe with slashes) and paging. What commands read of a node is
// tested with the commands' reader (command-item.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeIds, pageLabel, pageRanges, uniqueBy } from '../../../src/views/tree-nodes';
import { treeSlot } from '../../../src/core/services/slot-ids';

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
    assert.deepEqual(pageRanges(1234), [
      { start: 0, end: 500 },
      { start: 500, end: 1000 },
      { start: 1000, end: 1234 },
    ]);
    assert.deepEqual(pageRanges(500), [{ start: 0, end: 500 }]);
    assert.deepEqual(pageRanges(0), []);
  });

  void test('labels count from one, inclusive, with an en dash', () => {
    assert.equal(pageLabel('Findings', 0, 500), 'Findings 1–500');
    assert.equal(pageLabel('Findings', 500, 1000), 'Findings 501–1000');
  });

  void test('uniqueBy keeps the first of each key, in order', () => {
    assert.deepEqual(
      uniqueBy([1, 2, 1, 3, 2], (n) => n),
      [1, 2, 3],
    );
  });
});
