// "Show Findings of Branch…" offers the branches the user has, each once, by name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { refChoices } from '../../../src/core/workspace/ref-choices';

void describe('refChoices', () => {
  test('shown, primary, default, local, then loaded refs; each branch once by its short name, with what it is', () => {
    const choices = refChoices({
      primary: 'main', defaultBranch: 'develop', current: 'main',
      local: ['feature/login', 'main'], loaded: ['refs/heads/develop', 'refs/pull/12/merge', undefined, 'hotfix'],
    });
    assert.deepEqual(choices.map((c) => [c.label, c.description]), [
      ['main', 'shown now · primary branch · local branch'],
      ['develop', 'default branch · has findings'],
      ['feature/login', 'local branch'],
      ['refs/pull/12/merge', 'pull request'],
      ['hotfix', 'has findings'],
    ]);
    assert.ok(choices.every((c) => c.ref === c.label));
  });

  test('nothing known: nothing offered but free text (added by the command)', () => {
    assert.deepEqual(refChoices({ local: [], loaded: [] }), []);
  });
});
