// What the views say of a kind the deployment does not have, or one whose load failed: the
// issue-type node's children, description and tooltip, the refresh's one notice, and the filters
// the picker offers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { EMPTY_SELECTION, FILTER_DEFINITIONS, offeredDefinitions } from '../../../src/core/services/filters';
import type { FindingsResult } from '../../../src/core/services/findings-query';
import { failureNotice, gapsOfResult, gapsOfSlot } from '../../../src/core/services/kind-gaps';
import { FindingGroupsCache, issueTypeChildren, issueTypeDescription, issueTypeTooltip, type PlaceShown } from '../../../src/views/findings-children';
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
const node = (issueType: IssueTypeNode['issueType']): IssueTypeNode => ({
  kind: 'issueType',
  id: nodeIds.issueType(project.id, issueType),
  parent: project,
  issueType,
  slot: `tree:acme/api:${issueType}`,
});
const result = (
  issueType: IssueTypeNode['issueType'],
  extra: Partial<FindingsResult> = {},
  findings = [sastFinding({ severity: 'high' })],
): FindingsResult => ({
  query: { deploymentSlug: 'acme', issueType, filters: {} },
  findings,
  skipped: 0,
  loadedAt: new Date(2024, 0, 1, 14, 2),
  ...extra,
});
const cache = new FindingGroupsCache();
const context = {
  groupBy: 'severity' as const,
  selection: EMPTY_SELECTION,
  groupsOf: (r: FindingsResult) => cache.get(r, 'severity'),
  errorMessage: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  now: new Date(2024, 0, 1, 15, 0),
};
const view = (extra: Partial<PlaceShown>): PlaceShown => ({ loading: false, cancelled: false, ...extra });
const texts = (nodes: Node[]): string[] =>
  nodes.map((n) => (n.kind === 'message' ? n.text : n.kind === 'group' ? `${n.group.label} (${n.group.findings.length})` : n.kind));
const missing404 = { status: 404, detail: 'The platform answered 404 for the secrets findings.' };

void describe('a kind the deployment does not have', () => {
  test('its node says so with the status, calmly, with what to check, and offers no Retry', () => {
    const shown = view({ result: result('secrets', { unavailable: missing404 }, []) });
    const children = issueTypeChildren(node('secrets'), shown, context);
    // The node itself says "not available"; its child says what to check, not the same again.
    assert.deepEqual(texts(children), ["What to check: whether the organization licenses Secrets, and the token's role. The next refresh asks again."]);
    const message = children[0];
    assert.ok(message?.kind === 'message');
    assert.equal(message.tone, 'info', 'not an error');
    assert.ok(message.actions.every((a) => a.title !== 'Retry'));
    assert.match(message.tooltip ?? '', /licen[cs]e/);
    assert.match(message.tooltip ?? '', /role/);
    assert.ok(!(message.tooltip ?? '').includes(missing404.detail), "the platform's raw answer is for the log, not the tooltip");
    assert.equal(
      issueTypeDescription(shown, () => 0),
      'not available for this deployment (404)',
    );
    assert.match(issueTypeTooltip(node('secrets'), shown) ?? '', /^Secrets — not available for this deployment \(404\)\. The platform answered 404/);
  });

  test('the AI analysis missing is said above the code findings, which are shown', () => {
    const shown = view({ result: result('sast', { ai: { unavailable: { status: 400, detail: 'unknown issue type' } } }) });
    assert.deepEqual(texts(issueTypeChildren(node('sast'), shown, context)), ['AI analysis — not available for this deployment (400)', 'high (1)']);
    assert.equal(
      issueTypeDescription(shown, () => 1),
      '1',
    );
  });

  test('a failed AI list keeps the AI findings from before, said with their time and a Retry', () => {
    const shown = view({ result: result('sast', { ai: { failedBecause: new Error('503'), since: new Date(2024, 0, 1, 14, 2) } }) });
    const children = issueTypeChildren(node('sast'), shown, context);
    assert.deepEqual(texts(children), ["Showing AI findings from 14:02 — the AI analysis's list failed: 503", 'high (1)']);
    assert.ok(children[0]?.kind === 'message' && children[0].actions.some((a) => a.title === 'Retry'));
  });

  test('a failed kind keeps its findings, marked stale "as of" their time', () => {
    const shown = view({ result: result('sca', { staleBecause: new Error('The platform failed to answer (503).') }) });
    assert.deepEqual(texts(issueTypeChildren(node('sca'), shown, context)), [
      'Showing findings from 14:02 — the last refresh failed: The platform failed to answer (503).',
      'high (1)',
    ]);
    assert.equal(
      issueTypeDescription(shown, () => 1),
      '1 · stale',
    );
  });
});

void describe("gaps and the refresh's one notice", () => {
  test('gaps of a result and of a failed slot', () => {
    assert.deepEqual(gapsOfResult(result('secrets', { unavailable: missing404 }, [])), [{ kind: 'secrets', unavailable: missing404 }]);
    const error = new PlatformError('server', 'The platform failed to answer (503).');
    assert.deepEqual(gapsOfSlot('sca', { kind: 'failed', error }), [{ kind: 'sca', failedBecause: error }]);
    assert.deepEqual(gapsOfSlot('sast', { kind: 'idle' }), []);
  });

  test('names every kind that failed once, says what stays; a missing product alone is no notice', () => {
    const error = new PlatformError('server', 'The platform failed to answer (503).');
    const notice = failureNotice([
      { kind: 'secrets', unavailable: missing404 },
      { kind: 'sca', failedBecause: error, since: new Date() },
      { kind: 'ai', failedBecause: error },
      { kind: 'sca', failedBecause: error, since: new Date() },
    ]);
    assert.equal(
      notice,
      'Could not refresh the Supply Chain and AI analysis findings. The platform failed to answer (503). The findings shown before stay, marked stale. The other kinds are up to date.',
    );
    assert.equal(failureNotice([{ kind: 'secrets', unavailable: missing404 }]), undefined);
  });
});

void describe('the filters offered', () => {
  test('a deployment without Secrets and the AI analysis is not offered their filters', () => {
    const keys = offeredDefinitions(['sast', 'sca'], EMPTY_SELECTION).map((d) => d.key);
    assert.ok(!keys.includes('validationStates'));
    assert.ok(!keys.includes('aiFindings'));
    assert.ok(keys.includes('exposures') && keys.includes('status'));
    assert.equal(offeredDefinitions(['sast', 'ai', 'sca', 'secrets'], EMPTY_SELECTION).length, FILTER_DEFINITIONS.length);
  });

  test('a filter chosen before stays offered, so it can be unpicked', () => {
    const keys = offeredDefinitions(['sast'], { ...EMPTY_SELECTION, validationStates: ['confirmed_valid'] }).map((d) => d.key);
    assert.ok(keys.includes('validationStates'));
    assert.ok(!keys.includes('exposures'));
  });
});
