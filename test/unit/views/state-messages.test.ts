// The message nodes that say why a view shows no data, and what to do about it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import {
  actionChildren,
  cancelledFindings,
  clockTime,
  loadFailed,
  loadingFindings,
  message,
  noDeployment,
  noFindings,
  nothingNew,
  oneLine,
  staleFindings,
} from '../../../src/views/state-messages';
import { isRetryTarget, TREE_COMMANDS } from '../../../src/views/tree-commands';

const commandsOf = (spec: { action?: { command: string }; actions?: readonly { command: string }[] }): string[] => (spec.actions ?? []).map((a) => a.command);

void describe('findings states', () => {
  void test('loading names the issue type and can be cancelled', () => {
    const spec = loadingFindings('sast', 'tree:a:sast');
    assert.equal(spec.text, 'Loading code findings…');
    assert.equal(spec.tone, 'loading');
    assert.deepEqual(spec.action, { title: 'Cancel', command: TREE_COMMANDS.cancelLoad, args: ['tree:a:sast'], icon: 'close' });
    assert.equal(loadingFindings('sca', 's').text, 'Loading supply-chain findings…');
  });

  void test('an error says what failed, and offers Retry and Show Logs', () => {
    const spec = loadFailed('code findings', 'HTTP 502\nBad gateway', { view: 'projects', slot: 's' });
    assert.equal(spec.text, 'Could not load code findings: HTTP 502 Bad gateway');
    assert.equal(spec.tone, 'error');
    assert.deepEqual(commandsOf(spec), [TREE_COMMANDS.retryLoad, 'appsecFindings.showLogs']);
    assert.deepEqual(spec.action?.args, [{ view: 'projects', slot: 's' }]);
  });

  void test('stale: when the shown findings are from, and why the refresh failed', () => {
    const loadedAt = new Date(2024, 4, 1, 9, 5);
    const spec = staleFindings(loadedAt, 'timeout', { view: 'projects', slot: 's' }, new Date(2024, 4, 1, 17, 0));
    assert.equal(spec.text, 'Showing findings from 09:05 — the last refresh failed: timeout');
    assert.equal(spec.tone, 'warning');
  });

  void test('empty with filters that apply: offer to clear them', () => {
    const spec = noFindings('sast', { ...EMPTY_SELECTION, status: 'open', severities: ['critical'] }, 'main');
    assert.equal(spec.text, 'No open findings match the filters');
    assert.equal(spec.action?.command, 'appsecFindings.clearFilters');
  });

  void test('empty with only the default filters on: the ref has none of what they keep, and there is nothing to clear', () => {
    const defaults = { ...EMPTY_SELECTION, status: 'open' as const };
    const spec = noFindings('sast', defaults, 'main', undefined, defaults);
    assert.equal(spec.text, 'No open findings on main');
    assert.ok(
      !(spec.actions ?? []).some((a) => a.command === 'appsecFindings.clearFilters') && spec.action?.command !== 'appsecFindings.clearFilters',
      'no Clear Filters',
    );
    const narrowed = noFindings('sast', { ...defaults, severities: ['critical'] }, 'main', undefined, defaults);
    assert.equal(narrowed.action?.command, 'appsecFindings.clearFilters', 'a filter the user added is offered to clear');
  });

  void test('empty without filters (or only filters of the other issue type): name the ref', () => {
    assert.equal(noFindings('sast', EMPTY_SELECTION, 'main').text, 'No findings on main');
    assert.equal(noFindings('sast', { ...EMPTY_SELECTION, exposures: ['reachable'] }, 'develop').text, 'No findings on develop');
    assert.equal(noFindings('sca', EMPTY_SELECTION, undefined).text, 'No findings');
  });

  void test('an unscanned branch is not called clean: it says so, whatever the filters, and offers the primary branch', () => {
    const spec = noFindings('sast', { ...EMPTY_SELECTION, status: 'open' }, 'feature/x', { projectName: 'acme/api', primary: 'main' });
    assert.equal(spec.text, 'feature/x has no scan: the platform knows no finding of it');
    assert.equal(spec.tone, 'warning');
    assert.deepEqual([spec.action?.title, spec.action?.command, spec.action?.args], ['Show main', 'appsecFindings.chooseRef', ['acme/api', 'main']]);
    assert.doesNotMatch(spec.text, /match the filters/);
  });

  void test('loading says how many findings have arrived once pages come in, and offers to stop', () => {
    assert.equal(loadingFindings('sast', 'tree:a:sast').text, 'Loading code findings…');
    assert.equal(loadingFindings('sca', 'tree:a:sca', 3000).text, 'Loading supply-chain findings… 3,000 so far');
    assert.equal(loadingFindings('sca', 'tree:a:sca', 3000).action?.command, 'appsecFindings.cancelTreeLoad');
  });

  void test('cancelled offers to load again', () => {
    const spec = cancelledFindings('sca', 's');
    assert.equal(spec.text, 'Loading supply-chain findings was cancelled');
    assert.deepEqual(spec.action?.args, [{ view: 'projects', slot: 's' }]);
  });

  void test('no deployment shows the reason and offers settings and another sign-in', () => {
    const spec = noDeployment('The token reaches 2 deployments (a, b). Choose one with appsecFindings.deploymentSlug.');
    assert.match(spec.text, /^The token reaches 2 deployments/);
    assert.deepEqual(commandsOf(spec), ['workbench.action.openSettings', 'appsecFindings.signIn']);
  });
});

void describe('message nodes', () => {
  void test('ids hang off the parent (or the view root) and the state', () => {
    const node = message(undefined, 'root/projects', loadFailed('projects', 'x', { view: 'projects' }));
    assert.equal(node.id, 'root/projects/message/error');
    const children = actionChildren(node);
    assert.deepEqual(
      children.map((c) => c.action.title),
      ['Retry', 'Show Logs'],
    );
    assert.equal(new Set(children.map((c) => c.id)).size, 2);
    assert.ok(children.every((c) => c.parent === node && c.id.startsWith(`${node.id}/action/`)));
  });
});

void describe('text helpers', () => {
  void test('clockTime: time today, date and time another day', () => {
    const now = new Date(2024, 4, 1, 18, 0);
    assert.equal(clockTime(new Date(2024, 4, 1, 7, 3), now), '07:03');
    assert.equal(clockTime(new Date(2024, 3, 30, 23, 59), now), '2024-04-30 23:59');
  });

  void test('oneLine flattens whitespace and shortens long text', () => {
    assert.equal(oneLine(' a\n\tb  c '), 'a b c');
    assert.equal(oneLine('x'.repeat(400), 10), `${'x'.repeat(9)}…`);
  });

  void test('retry targets are checked before use', () => {
    assert.equal(isRetryTarget({ view: 'projects' }), true);
    assert.equal(isRetryTarget({ view: 'projects', slot: 'tree:a:sast' }), true);
    assert.equal(isRetryTarget({ view: 'policies', policyId: '7' }), true);
    for (const bad of [undefined, 'projects', { view: 'other' }, { view: 'projects', slot: 3 }, { view: 'policies', policyId: 7 }]) {
      assert.equal(isRetryTarget(bad), false, JSON.stringify(bad));
    }
  });
});

void describe('"only new on this branch" left nothing', () => {
  const only = { ...EMPTY_SELECTION, status: 'open', newOnBranch: true };
  void test('compared: nothing new, and the way back turns only that filter off', () => {
    const spec = nothingNew('sast', only, 'feature/x', 'main', 'main');
    assert.equal(spec.text, 'No code findings new on feature/x');
    assert.match(spec.tooltip ?? '', /also on main/);
    assert.deepEqual(spec.action?.args, [{ ...only, newOnBranch: false }], 'the other filters stay');
    assert.equal(spec.action?.command, 'appsecFindings.filterFindings');
  });

  void test('the primary branch itself: nothing can be new on it', () => {
    assert.equal(nothingNew('sca', only, 'main', undefined, undefined).text, 'Nothing is new on main: it is the primary branch');
  });

  void test('not compared yet: says what it waits for, not "nothing new"', () => {
    const spec = nothingNew('sast', only, 'feature/x', undefined, 'main');
    assert.equal(spec.text, 'Comparing feature/x with main…');
    assert.equal(spec.tone, 'loading');
  });
});
