// The tree's dependency filter: which packages a lockfile shows, how the filter is named when it
// hides everything, and its state (one shape for "nothing filtered", one event per change).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dependency } from '../../../src/core/model/dependency';
import { DependencyFilterState, describeFilter, passes, type DependencyViewFilter } from '../../../src/core/services/dependency-view-filter';

function dependency(more: Partial<Dependency> = {}): Dependency {
  return { repositoryId: '1', ecosystem: 'npm', name: 'lodash', version: '4.17.20', transitivity: 'direct', licenses: ['MIT'], ...more };
}

void describe('passes', () => {
  void test('no filter: every dependency, vulnerable or not; empty lists filter nothing', () => {
    const odd = dependency({ ecosystem: 'opam', transitivity: 'unknown', licenses: [] });
    for (const filter of [{}, { ecosystems: [], transitivity: [], licenses: [], vulnerableOnly: false }] satisfies DependencyViewFilter[]) {
      assert.ok(passes(filter, dependency(), false));
      assert.ok(passes(filter, odd, false));
      assert.ok(passes(filter, odd, true));
    }
  });

  void test('vulnerable only: those with open findings', () => {
    assert.ok(passes({ vulnerableOnly: true }, dependency(), true));
    assert.ok(!passes({ vulnerableOnly: true }, dependency(), false));
  });

  void test('ecosystems: any of those chosen', () => {
    const filter = { ecosystems: ['npm', 'pypi'] };
    assert.ok(passes(filter, dependency({ ecosystem: 'npm' }), false));
    assert.ok(passes(filter, dependency({ ecosystem: 'pypi' }), false));
    assert.ok(!passes(filter, dependency({ ecosystem: 'cargo' }), true));
  });

  void test('transitivity: a dependency of unknown transitivity is neither direct nor transitive', () => {
    assert.ok(passes({ transitivity: ['direct'] }, dependency({ transitivity: 'direct' }), false));
    assert.ok(!passes({ transitivity: ['direct'] }, dependency({ transitivity: 'transitive' }), false));
    assert.ok(passes({ transitivity: ['transitive'] }, dependency({ transitivity: 'transitive' }), false));
    assert.ok(!passes({ transitivity: ['direct', 'transitive'] }, dependency({ transitivity: 'unknown' }), false));
  });

  void test("licenses: any of the dependency's licenses among those chosen; none known never matches", () => {
    const filter = { licenses: ['MIT', 'ISC'] };
    assert.ok(passes(filter, dependency({ licenses: ['Apache-2.0', 'MIT'] }), false));
    assert.ok(passes(filter, dependency({ licenses: ['ISC'] }), false));
    assert.ok(!passes(filter, dependency({ licenses: ['GPL-3.0'] }), false));
    assert.ok(!passes(filter, dependency({ licenses: [] }), false));
  });

  void test('facets combine: every one chosen must hold', () => {
    const filter: DependencyViewFilter = { ecosystems: ['npm'], transitivity: ['direct'], vulnerableOnly: true, licenses: ['MIT'] };
    assert.ok(passes(filter, dependency(), true));
    assert.ok(!passes(filter, dependency(), false), 'not vulnerable');
    assert.ok(!passes(filter, dependency({ ecosystem: 'pypi' }), true), 'another ecosystem');
    assert.ok(!passes(filter, dependency({ transitivity: 'transitive' }), true), 'transitive');
    assert.ok(!passes(filter, dependency({ licenses: ['BSD-3-Clause'] }), true), 'another license');
  });
});

void describe('describeFilter', () => {
  void test('ecosystems, transitivity, vulnerable, licenses, in that order', () => {
    assert.equal(
      describeFilter({ licenses: ['MIT', 'ISC'], vulnerableOnly: true, transitivity: ['direct'], ecosystems: ['npm', 'pypi'] }),
      'npm · pypi · direct · vulnerable · MIT · ISC',
    );
    assert.equal(describeFilter({ vulnerableOnly: true }), 'vulnerable');
    assert.equal(describeFilter({ transitivity: ['transitive'] }), 'transitive');
  });

  void test('nothing filtered: undefined', () => {
    assert.equal(describeFilter({}), undefined);
    assert.equal(describeFilter({ ecosystems: [], transitivity: [], vulnerableOnly: false, licenses: [] }), undefined);
  });
});

void describe('DependencyFilterState', () => {
  void test('starts with nothing filtered', () => {
    const state = new DependencyFilterState();
    assert.deepEqual(state.value, {});
    assert.equal(describeFilter(state.value), undefined);
    state.dispose();
  });

  void test('set keeps what filters, drops empty parts, and fires once with the new value', () => {
    const state = new DependencyFilterState();
    const heard: DependencyViewFilter[] = [];
    state.onDidChange((f) => heard.push(f));
    state.set({ ecosystems: ['npm'], transitivity: [], vulnerableOnly: false, licenses: ['MIT'] });
    assert.deepEqual(state.value, { ecosystems: ['npm'], licenses: ['MIT'] });
    assert.deepEqual(heard, [{ ecosystems: ['npm'], licenses: ['MIT'] }]);

    state.set({ ecosystems: [], transitivity: [], vulnerableOnly: false, licenses: [] });
    assert.deepEqual(Object.keys(state.value), [], 'cleared has the one shape of "nothing filtered"');
    assert.equal(heard.length, 2);
    assert.deepEqual(heard[1], {});

    state.set({ transitivity: ['direct', 'transitive'], vulnerableOnly: true });
    assert.deepEqual(state.value, { transitivity: ['direct', 'transitive'], vulnerableOnly: true });
    assert.equal(heard.length, 3);
    assert.equal(heard[2], state.value);
    state.dispose();
  });

  void test('after dispose, nobody is told', () => {
    const state = new DependencyFilterState();
    let told = 0;
    state.onDidChange(() => told++);
    state.dispose();
    state.set({ vulnerableOnly: true });
    assert.equal(told, 0);
    assert.deepEqual(state.value, { vulnerableOnly: true });
  });
});
