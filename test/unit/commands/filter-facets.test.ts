// The Filter Findings picker's steps: the facets with what each keeps, a facet's values worded
// for a reader, and a draft that changes one facet at a time without losing the others.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_SELECTION, parseSelection } from '../../../src/core/services/filters';
import { facetItems, takesOneValue, valueItems, withFacet } from '../../../src/commands/filter-facets';

const draft = parseSelection({ ...EMPTY_SELECTION, status: 'open', severities: ['critical', 'high'], paths: ['src/app'], rules: ['python.eval'] });

void describe("the filter picker's steps", () => {
  void test('the first step lists each facet once, with what it keeps, instead of every value of every facet', () => {
    const facets = facetItems(draft, ['sast', 'sca', 'secrets', 'ai']);
    assert.ok(facets.length < 20, `one row per facet (${facets.length})`);
    assert.deepEqual(
      facets.find((f) => f.key === 'status'),
      { key: 'status', label: 'Status', description: 'open', detail: 'Every kind of finding' },
    );
    assert.equal(facets.find((f) => f.key === 'severities')?.description, 'critical, high');
    assert.equal(facets.find((f) => f.key === 'exposures')?.description, 'any');
    assert.equal(facets.find((f) => f.key === 'exposures')?.detail, 'Supply chain findings only');
    // "open" is a status and a fix pull request's state: the two rows are told apart by name.
    assert.equal(new Set(facets.map((f) => f.label)).size, facets.length);
  });

  void test('a deployment without supply chain is offered no supply-chain facet', () => {
    const keys = facetItems(EMPTY_SELECTION, ['sast', 'secrets']).map((f) => f.key);
    assert.ok(!keys.includes('exposures') && !keys.includes('isMalicious'));
    assert.ok(keys.includes('validationStates'));
  });

  void test('values read as words, never true or false; a one-value facet offers Any, picked when nothing is kept', () => {
    const malicious = valueItems('isMalicious', EMPTY_SELECTION);
    assert.deepEqual(
      malicious.map((v) => v.label),
      ['Any', 'malicious packages only', 'without malicious packages'],
    );
    assert.equal(malicious[0]?.picked, true);
    assert.ok(takesOneValue('status') && !takesOneValue('severities'));
    const status = valueItems('status', draft);
    assert.deepEqual(
      status.filter((v) => v.picked).map((v) => v.value),
      ['open'],
    );
    assert.ok(status.some((v) => v.label === 'provisionally ignored'));
    assert.deepEqual(
      valueItems('severities', draft)
        .filter((v) => v.picked)
        .map((v) => v.value),
      ['critical', 'high'],
    );
  });

  void test('changing one facet keeps the others, the file and rule filters included; Any or nothing ticked clears it', () => {
    const wider = withFacet(draft, 'severities', ['critical']);
    assert.deepEqual(wider.severities, ['critical']);
    assert.equal(wider.status, 'open');
    assert.deepEqual(wider.paths, ['src/app']);
    assert.deepEqual(wider.rules, ['python.eval']);
    assert.equal(withFacet(draft, 'status', [undefined]).status, undefined);
    assert.deepEqual(withFacet(draft, 'severities', []).severities, []);
    assert.equal(withFacet(draft, 'isMalicious', ['false']).isMalicious, false);
    assert.equal(withFacet(draft, 'status', ['fixed', 'open']), draft, 'two values of a one-value facet leave the draft as it was');
  });
});
