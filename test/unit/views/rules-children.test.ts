// The levels of the Policy Rules view: policies (with a warning when the list endpoint failed),
// rules grouped by mode with counts, long lists paged, duplicates dropped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyRule } from '../../../src/core/model/policy';
import type { PolicyEntry } from '../../../src/core/services/policies-service';
import { policiesRoot, policyChildren, policyLoadFailed, ruleModeChildren, rulePageChildren } from '../../../src/views/rules-children';
import type { Node, PolicyNode } from '../../../src/views/tree-nodes';

const entry = (id: string, origin: PolicyEntry['origin'] = 'platform'): PolicyEntry => ({
  policy: { id, name: `Policy ${id}`, slug: `p${id}`, isDefault: false },
  origin,
});
const rule = (path: string, mode: string, id = path): PolicyRule => ({ id, path, mode, languages: [], cweCategories: [], owaspCategories: [] });
const texts = (nodes: Node[]): string[] =>
  nodes.map((n) =>
    n.kind === 'message' ? `message: ${n.text}` : n.kind === 'policy' ? n.entry.policy.name : n.kind === 'ruleMode' ? `${n.mode} (${n.rules.length})` : n.kind,
  );

const policyNode = (): PolicyNode => {
  const [node] = policiesRoot('99', [entry('7')], undefined);
  if (node?.kind !== 'policy') throw new Error('expected a policy node');
  return node;
};

void describe('policiesRoot', () => {
  void test('policies from every source, in the order given', () => {
    assert.deepEqual(texts(policiesRoot('99', [entry('7'), entry('8', 'findings'), entry('9', 'settings')], undefined)), ['Policy 7', 'Policy 8', 'Policy 9']);
  });

  void test('a failed list endpoint: a warning, and the policies known from elsewhere still shown', () => {
    const nodes = policiesRoot('99', [entry('8', 'findings')], 'HTTP 404');
    assert.deepEqual(texts(nodes), ["message: Could not list the deployment's policies: HTTP 404", 'Policy 8']);
  });

  void test('nothing at all: says where policies come from', () => {
    assert.deepEqual(texts(policiesRoot('99', [], undefined)), ['message: No policies to show']);
  });

  void test('policy ids include the deployment and policy', () => {
    assert.equal(policyNode().id, 'policy/99/7');
  });
});

void describe('policyChildren', () => {
  void test('rules grouped by mode with counts, unknown modes kept', () => {
    const node = policyNode();
    const nodes = policyChildren(node, {
      policy: node.entry.policy,
      skipped: 0,
      rules: [rule('a', 'MODE_MONITOR'), rule('b', 'MODE_BLOCK'), rule('c', 'MODE_MONITOR'), rule('d', 'MODE_SHADOW')],
    });
    assert.deepEqual(texts(nodes), ['MODE_BLOCK (1)', 'MODE_MONITOR (2)', 'MODE_SHADOW (1)']);
  });

  void test('skipped rules are announced; no rules says so', () => {
    const node = policyNode();
    assert.deepEqual(texts(policyChildren(node, { policy: node.entry.policy, skipped: 2, rules: [] })), [
      'message: 2 rules could not be read and are not shown',
      'message: This policy has no rules',
    ]);
  });

  void test('a failure offers Retry for this policy', () => {
    const [message] = policyLoadFailed(policyNode(), 'HTTP 500');
    assert.ok(message?.kind === 'message');
    assert.equal(message.text, 'Could not load the rules: HTTP 500');
    assert.deepEqual(message.action?.args, [{ view: 'policies', policyId: '7' }]);
  });

  void test('a rule listed twice is shown once', () => {
    const node = policyNode();
    const [mode] = policyChildren(node, { policy: node.entry.policy, skipped: 0, rules: [rule('a', 'MODE_BLOCK', '1'), rule('a', 'MODE_BLOCK', '1')] });
    assert.ok(mode?.kind === 'ruleMode' && mode.rules.length === 1);
  });
});

void describe('ruleModeChildren', () => {
  void test('more than 500 rules are paged; rule ids do not depend on the page', () => {
    const node = policyNode();
    const rules = Array.from({ length: 1100 }, (_, i) => rule(`r.${String(i).padStart(4, '0')}`, 'MODE_MONITOR'));
    const [mode] = policyChildren(node, { policy: node.entry.policy, skipped: 0, rules });
    if (mode?.kind !== 'ruleMode') return assert.fail('expected a mode node');
    const pages = ruleModeChildren(mode);
    assert.deepEqual(
      pages.map((p) => (p.kind === 'page' ? [p.start, p.end] : [])),
      [
        [0, 500],
        [500, 1000],
        [1000, 1100],
      ],
    );
    const last = pages[2];
    if (last?.kind !== 'page') return assert.fail('expected a page');
    const ruleNodes = rulePageChildren(last);
    assert.equal(ruleNodes.length, 100);
    assert.ok(ruleNodes.every((r) => r.kind === 'rule' && r.id.startsWith(`${mode.id}/rule/`) && r.policy.id === '7'));
  });

  void test('500 or fewer: the rules directly', () => {
    const node = policyNode();
    const [mode] = policyChildren(node, { policy: node.entry.policy, skipped: 0, rules: [rule('x.y', 'MODE_BLOCK')] });
    if (mode?.kind !== 'ruleMode') return assert.fail('expected a mode node');
    assert.deepEqual(
      ruleModeChildren(mode).map((r) => r.kind),
      ['rule'],
    );
  });
});
