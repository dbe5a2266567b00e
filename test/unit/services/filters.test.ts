// The findings filters a user picks: how a stored selection is read back, how picks become a
// selection, which filters reach the query of each issue type, and how the choice reads in a view.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EMPTY_SELECTION,
  FILTER_DEFINITIONS,
  describeSelection,
  isEmptySelection,
  localFilterOf,
  parseSelection,
  selectedValues,
  selectionFromPicks,
  toQueryFilters,
  valueLabel,
  type FilterSelection,
} from '../../../src/core/services/filters';
import { sastFinding, scaFinding } from './finding-fixtures';

const selection = (overrides: Partial<FilterSelection>): FilterSelection => ({ ...EMPTY_SELECTION, ...overrides });

/** A selection with one value in every filter, so each can be seen applied or left out. */
const everything = selection({
  status: 'open',
  severities: ['critical', 'high'],
  triageReasons: ['false_positive'],
  policies: ['rule-board-block'],
  confidence: 'high',
  autotriageVerdict: 'true_positive',
  exposures: ['reachable'],
  transitivities: ['direct'],
  isMalicious: true,
  clickToFixPrState: ['merged'],
});

void describe('parseSelection', () => {
  void test('anything that is not an object reads as no filters', () => {
    for (const stored of [undefined, null, 'open', 42, true]) {
      assert.deepEqual(parseSelection(stored), EMPTY_SELECTION, String(stored));
    }
  });

  void test('a stored selection comes back as it was saved', () => {
    const saved = JSON.parse(JSON.stringify(everything)) as unknown;
    const parsed = parseSelection(saved);
    assert.equal(parsed.status, 'open');
    assert.deepEqual(parsed.severities, ['critical', 'high']);
    assert.deepEqual(parsed.triageReasons, ['false_positive']);
    assert.deepEqual(parsed.policies, ['rule-board-block']);
    assert.equal(parsed.confidence, 'high');
    assert.equal(parsed.autotriageVerdict, 'true_positive');
    assert.deepEqual(parsed.exposures, ['reachable']);
    assert.deepEqual(parsed.transitivities, ['direct']);
    assert.equal(parsed.isMalicious, true);
    assert.deepEqual(parsed.clickToFixPrState, ['merged']);
  });

  void test('unknown keys are dropped and values of the wrong type are ignored', () => {
    const parsed = parseSelection({
      status: 42,
      severities: 'high',
      confidence: ['high'],
      isMalicious: 'true',
      exposures: { a: 1 },
      colour: 'red',
    });
    assert.deepEqual(parsed, EMPTY_SELECTION);
    assert.equal('colour' in parsed, false);
  });

  void test('values a filter does not offer are dropped, the others kept', () => {
    const parsed = parseSelection({ status: 'closed', severities: ['high', 'urgent', 3, null, 'low'], transitivities: ['indirect'] });
    assert.equal(parsed.status, undefined);
    assert.deepEqual(parsed.severities, ['high', 'low']);
    assert.deepEqual(parsed.transitivities, []);
  });

  void test("the service's newer values are offered and kept: provisionally ignored findings, duplicate as a triage reason", () => {
    const status = FILTER_DEFINITIONS.find((d) => d.key === 'status');
    const reasons = FILTER_DEFINITIONS.find((d) => d.key === 'triageReasons');
    assert.ok(status?.values.includes('provisionally_ignored'));
    assert.ok(reasons?.values.includes('duplicate'));
    const parsed = parseSelection({ status: 'provisionally_ignored', triageReasons: ['duplicate', 'no_time'] });
    assert.equal(parsed.status, 'provisionally_ignored');
    assert.deepEqual(parsed.triageReasons, ['duplicate', 'no_time']);
    assert.equal(describeSelection(parsed), 'provisionally ignored · duplicate, no time');
    const query = toQueryFilters(parsed, 'sast', { repo: 'acme/api' });
    assert.equal(query.status, 'provisionally_ignored');
    assert.deepEqual(query.triageReasons, ['duplicate', 'no_time']);
  });

  void test('duplicates in a stored list are read once', () => {
    assert.deepEqual(parseSelection({ severities: ['high', 'high', 'low', 'high'] }).severities, ['high', 'low']);
  });

  void test('isMalicious false is kept (it is a filter, not "no filter")', () => {
    assert.equal(parseSelection({ isMalicious: false }).isMalicious, false);
    assert.equal(isEmptySelection(parseSelection({ isMalicious: false })), false);
  });
});

void describe('selectionFromPicks', () => {
  void test('picks of several filters build one selection', () => {
    const result = selectionFromPicks([
      { key: 'severities', value: 'critical' },
      { key: 'status', value: 'open' },
      { key: 'severities', value: 'high' },
      { key: 'isMalicious', value: 'false' },
    ]);
    assert.equal(typeof result, 'object');
    const s = result as FilterSelection;
    assert.equal(s.status, 'open');
    assert.deepEqual(s.severities, ['critical', 'high']);
    assert.equal(s.isMalicious, false);
  });

  void test('"true" picked for the malicious filter becomes true', () => {
    assert.equal((selectionFromPicks([{ key: 'isMalicious', value: 'true' }]) as FilterSelection).isMalicious, true);
  });

  void test('no picks is no filters', () => {
    const result = selectionFromPicks([]);
    assert.deepEqual(result, EMPTY_SELECTION);
  });

  void test('two values for a single-valued filter are refused with a message naming the filter', () => {
    const result = selectionFromPicks([
      { key: 'status', value: 'open' },
      { key: 'status', value: 'fixed' },
    ]);
    assert.equal(result, 'Choose at most one value for "Status": the platform filters by one.');
    const confidence = selectionFromPicks([
      { key: 'confidence', value: 'high' },
      { key: 'confidence', value: 'low' },
    ]);
    assert.equal(confidence, 'Choose at most one value for "Confidence (code)": the platform filters by one.');
    const malicious = selectionFromPicks([
      { key: 'isMalicious', value: 'true' },
      { key: 'isMalicious', value: 'false' },
    ]);
    assert.equal(typeof malicious, 'string');
    assert.match(malicious as string, /Malicious dependency/);
  });

  void test('many values of a multi-valued filter are fine', () => {
    const result = selectionFromPicks(['critical', 'high', 'medium', 'low'].map((value) => ({ key: 'severities' as const, value })));
    assert.deepEqual((result as FilterSelection).severities, ['critical', 'high', 'medium', 'low']);
  });

  void test('a value the filter does not offer is dropped', () => {
    const result = selectionFromPicks([{ key: 'status', value: 'closed' }]) as FilterSelection;
    assert.equal(result.status, undefined);
  });
});

void describe('toQueryFilters', () => {
  void test('the scope is always in the query: the repository, and ref/dedup when given', () => {
    assert.deepEqual(toQueryFilters(EMPTY_SELECTION, 'sast', { repo: 'acme/api' }), { repos: ['acme/api'] });
    assert.deepEqual(toQueryFilters(EMPTY_SELECTION, 'sca', { repo: 'acme/api', ref: 'main', dedup: true }), { repos: ['acme/api'], ref: 'main', dedup: true });
    const noDedup = toQueryFilters(EMPTY_SELECTION, 'sast', { repo: 'acme/api', ref: '', dedup: false });
    assert.equal('ref' in noDedup, false);
    assert.equal('dedup' in noDedup, false);
  });

  void test('code findings get the code-only filters and none of the supply-chain ones', () => {
    const q = toQueryFilters(everything, 'sast', { repo: 'acme/api' });
    assert.deepEqual(q, {
      repos: ['acme/api'],
      status: 'open',
      severities: ['critical', 'high'],
      triageReasons: ['false_positive'],
      policies: ['rule-board-block'],
      confidence: 'high',
      autotriageVerdict: 'true_positive',
      clickToFixPrState: ['merged'],
    });
  });

  void test('supply-chain findings get the supply-chain-only filters and none of the code ones', () => {
    const q = toQueryFilters(everything, 'sca', { repo: 'acme/api' });
    assert.deepEqual(q, {
      repos: ['acme/api'],
      status: 'open',
      severities: ['critical', 'high'],
      triageReasons: ['false_positive'],
      exposures: ['reachable'],
      transitivities: ['direct'],
      isMalicious: true,
      clickToFixPrState: ['merged'],
    });
  });

  void test('isMalicious false still reaches a supply-chain query', () => {
    assert.equal(toQueryFilters(selection({ isMalicious: false }), 'sca', { repo: 'r/r' }).isMalicious, false);
  });

  void test('empty lists are not sent', () => {
    const q = toQueryFilters(selection({ severities: [], exposures: [] }), 'sca', { repo: 'r/r' });
    assert.deepEqual(q, { repos: ['r/r'] });
  });

  void test('every definition applies to at least one issue type, and both types agree on the shared ones', () => {
    const sast = toQueryFilters(everything, 'sast', { repo: 'r/r' });
    const sca = toQueryFilters(everything, 'sca', { repo: 'r/r' });
    for (const def of FILTER_DEFINITIONS) assert.ok(def.appliesTo.length > 0, def.key);
    assert.deepEqual(sast.severities, sca.severities);
    assert.equal(sast.status, sca.status);
  });
});

void describe('describeSelection', () => {
  void test('no filters reads as nothing', () => {
    assert.equal(describeSelection(EMPTY_SELECTION), '');
    assert.equal(isEmptySelection(EMPTY_SELECTION), true);
  });

  void test('reads in the order of the filter picker, values joined, filters separated by a dot', () => {
    const s = selection({ exposures: ['reachable'], severities: ['critical', 'high'], status: 'open' });
    assert.equal(describeSelection(s), 'open · critical, high · reachable');
  });

  void test('API identifiers read as words', () => {
    const s = selection({
      policies: ['rule-board-audit', 'rule-board-pr-comments', 'rule-board-block'],
      autotriageVerdict: 'false_positive',
      exposures: ['always_reachable', 'conditionally_reachable'],
      triageReasons: ['acceptable_risk', 'no_time', 'no_triage_reason'],
    });
    assert.equal(
      describeSelection(s),
      'acceptable risk, no time, no reason · monitor, comment, block · false positive · always reachable, conditionally reachable',
    );
  });

  void test('the malicious filter reads as its value', () => {
    assert.equal(describeSelection(selection({ isMalicious: false })), 'false');
  });

  void test('selectedValues lists only the filters that have values', () => {
    const pairs = selectedValues(selection({ status: 'fixed', transitivities: ['transitive'] }));
    assert.deepEqual(
      pairs.map(([def, values]) => [def.key, values]),
      [
        ['status', ['fixed']],
        ['transitivities', ['transitive']],
      ],
    );
  });

  void test('valueLabel keeps unknown values as they came', () => {
    assert.equal(valueLabel('some_new_value'), 'some_new_value');
    assert.equal(valueLabel('rule-board-block'), 'block');
  });
});

void describe('only new on this branch (a filter the extension applies)', () => {
  void test('kept when on, read as absent when off or not a boolean; picked as "true"', () => {
    assert.equal(parseSelection({ newOnBranch: true }).newOnBranch, true);
    for (const value of [false, 'true', 1, null]) assert.equal(parseSelection({ newOnBranch: value }).newOnBranch, undefined, String(value));
    const picked = selectionFromPicks([
      { key: 'newOnBranch', value: 'true' },
      { key: 'status', value: 'open' },
    ]);
    assert.deepEqual(picked, selection({ status: 'open', newOnBranch: true }));
  });

  void test('it is never sent to the platform, which has no such filter', () => {
    const filters = toQueryFilters(selection({ status: 'open', newOnBranch: true }), 'sast', { repo: 'acme/api', ref: 'feature/x' });
    assert.deepEqual(filters, { repos: ['acme/api'], ref: 'feature/x', status: 'open' });
  });

  void test('it reads as words in the view description, and counts as a filter', () => {
    assert.equal(describeSelection(selection({ status: 'open', newOnBranch: true })), 'open · new on this branch');
    assert.equal(isEmptySelection(selection({ newOnBranch: true })), false);
  });
});

void describe('rules and files', () => {
  void test('a rule filter reaches code queries only; a file filter reaches none (the extension applies it)', () => {
    const chosen = selection({ rules: ['python.lang.eval'], paths: ['src/app'] });
    assert.deepEqual(toQueryFilters(chosen, 'sast', { repo: 'r' }), { repos: ['r'], rules: ['python.lang.eval'] });
    assert.deepEqual(toQueryFilters(chosen, 'sca', { repo: 'r' }), { repos: ['r'] });
    assert.equal(describeSelection(chosen), 'python.lang.eval · src/app');
    assert.deepEqual(parseSelection({ rules: [' a ', 'a', 3], paths: ['src/x.py', ''] }), selection({ rules: ['a'], paths: ['src/x.py'] }));
  });

  void test('the file filter keeps a file, or everything under a folder, by location or a supply-chain usage', () => {
    const keep = localFilterOf(selection({ paths: ['src/app/'] }));
    assert.ok(keep);
    assert.equal(keep(sastFinding({ file: 'src/app/views.py' })), true, 'under the folder');
    assert.equal(keep(sastFinding({ file: 'src/application.py' })), false, 'a name that only starts the same is not under it');
    assert.equal(keep(sastFinding({ file: 'src/app' })), true, 'the path itself');
    assert.equal(
      keep(scaFinding({ usage: { filePath: 'src/app/net.py', line: 3 } }, { location: { filePath: 'poetry.lock', line: 1 } })),
      true,
      'a supply-chain finding used there',
    );
    assert.equal(keep(scaFinding({}, { location: { filePath: 'poetry.lock', line: 1 } })), false);
  });

  void test('"only new" keeps what the baselines call new, and nothing without them; no local filter, no pass', () => {
    const fresh = sastFinding({ id: 1 });
    const old = sastFinding({ id: 2 });
    const keep = localFilterOf(selection({ newOnBranch: true }), (f) => f.id === 1);
    assert.deepEqual([fresh, old].filter(keep!), [fresh]);
    assert.deepEqual([fresh, old].filter(localFilterOf(selection({ newOnBranch: true }))!), []);
    assert.equal(localFilterOf(selection({ status: 'open', rules: ['x'] })), undefined);
  });
});
