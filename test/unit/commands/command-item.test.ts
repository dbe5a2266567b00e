// What a command reads of what it was run on: tree nodes of both views, diagnostics, a quick
// fix's `{ finding }`, a hover's `{ findingRef }`, a Finding, a Project, text. One reader for
// every command; anything it does not recognise is simply absent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findingsOf, groupKey, itemOf, itemsOf } from '../../../src/commands/command-item';
import type { Project } from '../../../src/core/model/types';
import { scaFinding, sastFinding } from '../services/finding-fixtures';

const project: Project = { id: 7, name: 'acme/api', tags: [], url: 'https://github.com/acme/api' };
const finding = sastFinding({ ruleName: 'a.b.c' });
const projectNode = { kind: 'project', id: 'project/acme/acme%2Fapi', project, inWorkspace: true };
const findingNode = { kind: 'finding', id: 'f', finding };
const groupNode = { kind: 'group', id: 'g', groupBy: 'rule', group: { key: 'a.b.c', label: 'a.b.c', findings: [finding, { not: 'a finding' }] } };
const ruleNode = { kind: 'rule', id: 'r', policy: { id: 'p', name: 'P' }, rule: { path: 'p.q', url: 'https://semgrep.dev/r/p.q' } };

void describe('itemOf', () => {
  void test('a finding from a finding node, a diagnostic or { finding }, or a Finding itself', () => {
    assert.equal(itemOf(findingNode).finding, finding);
    assert.equal(itemOf({ finding }).finding, finding);
    assert.equal(itemOf(finding).finding, finding);
    // A diagnostic drawn from the cache before its finding was read: no finding.
    assert.equal(itemOf({ message: 'x', finding: undefined }).finding, undefined);
    assert.equal(itemOf(projectNode).finding, undefined);
  });

  void test('a project from a project node or a Project; node ids are text, so a node is no project', () => {
    assert.equal(itemOf(projectNode).project, project);
    assert.equal(itemOf(project).project, project);
    assert.equal(itemOf(findingNode).project, undefined);
    assert.equal(itemOf({ id: 'x', name: 'n' }).project, undefined);
  });

  void test('text is kept as text (a project name, severity, rule or path)', () => {
    assert.deepEqual(itemOf('acme/api'), { text: 'acme/api' });
    assert.deepEqual(itemOf(undefined), {});
    assert.deepEqual(itemOf(42), {});
  });

  void test("a hover's reference names the kind and id, nothing else", () => {
    assert.deepEqual(itemOf({ findingRef: { issueType: 'sca', id: 3 } }).findingRef, { issueType: 'sca', id: 3 });
    assert.equal(itemOf({ findingRef: { issueType: 'dast', id: 3 } }).findingRef, undefined);
    assert.equal(itemOf({ findingRef: { issueType: 'sast', id: '3' } }).findingRef, undefined);
  });

  void test('a group node: its grouping, key and findings (only real findings)', () => {
    const item = itemOf(groupNode);
    assert.deepEqual(item.group, { by: 'rule', key: 'a.b.c', findings: [finding] });
    assert.equal(groupKey(item, 'rule'), 'a.b.c');
    assert.equal(groupKey(item, 'file'), undefined);
    assert.equal(groupKey(itemOf(findingNode), 'rule'), undefined);
    assert.equal(groupKey(undefined, 'rule'), undefined);
  });

  void test('a rule node: its id and page; links from the project, the rule, the policy or the item', () => {
    assert.deepEqual(itemOf(ruleNode).rule, { path: 'p.q', url: 'https://semgrep.dev/r/p.q', policyId: 'p' });
    assert.equal(itemOf(ruleNode).url, 'https://semgrep.dev/r/p.q');
    assert.equal(itemOf(projectNode).url, 'https://github.com/acme/api');
    assert.equal(itemOf({ policy: { url: 'https://semgrep.dev/p' } }).url, 'https://semgrep.dev/p');
    assert.equal(itemOf({ url: 'https://x.example' }).url, 'https://x.example');
    assert.equal(itemOf(findingNode).url, undefined);
  });

  void test('a rule node names the policy it is shown under (Set Mode changes the rule there); a rule alone names none', () => {
    assert.equal(itemOf(ruleNode).rule?.policyId, 'p');
    assert.deepEqual(itemOf({ rule: { path: 'p.q' } }).rule, { path: 'p.q', url: undefined });
    assert.equal(itemOf({ rule: { path: 'p.q' }, policy: { id: 7 } }).rule?.policyId, undefined, 'a policy id is text, as the platform sends it');
    assert.equal(itemOf(findingNode).rule, undefined, "a finding's sourcing policy is not a rule's");
  });
});

void describe('selections', () => {
  void test('the selection passed after the clicked node, and the findings it stands for', () => {
    const other = scaFinding({ package: 'lodash' });
    const items = itemsOf([findingNode, { finding: other }, groupNode, projectNode]);
    assert.equal(items?.length, 4);
    assert.deepEqual(findingsOf(items ?? []), [finding, other, finding]);
    assert.equal(itemsOf(findingNode), undefined, 'no list: no selection');
    assert.deepEqual(findingsOf([]), []);
  });
});
