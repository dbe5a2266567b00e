// "Show Findings of Branch…" offers the branches the user has, each once, by name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { refChoices } from '../../../src/core/workspace/ref-choices';

void describe('refChoices', () => {
  test('shown, primary, default, local, then loaded refs; each branch once by its short name, with what it is', () => {
    const choices = refChoices({
      primary: 'main',
      defaultBranch: 'develop',
      current: 'main',
      local: ['feature/login', 'main'],
      loaded: ['refs/heads/develop', 'refs/pull/12/merge', undefined, 'hotfix'],
    });
    assert.deepEqual(
      choices.map((c) => [c.label, c.description]),
      [
        ['main', 'shown now · primary branch · local branch'],
        ['develop', 'default branch · has findings'],
        ['feature/login', 'local branch'],
        ['refs/pull/12/merge', 'pull request'],
        ['hotfix', 'has findings'],
      ],
    );
    assert.ok(choices.every((c) => c.ref === c.label));
  });

  test("with the platform's scanned branches: each marked scanned or not, the scanned ones offered too", () => {
    const choices = refChoices({
      primary: 'main',
      current: 'feature/x',
      local: ['feature/x', 'wip'],
      loaded: ['refs/pull/3/merge', 'hotfix'],
      scanned: ['main', 'feature/x', 'release/1'],
    });
    assert.deepEqual(
      choices.map((c) => [c.label, c.description]),
      [
        ['feature/x', 'shown now · local branch · scanned'],
        ['main', 'primary branch · scanned'],
        ['wip', 'local branch · no recent scan'],
        ['release/1', 'scanned'],
        ['refs/pull/3/merge', 'pull request'],
        ['hotfix', 'has findings'],
      ],
    );
  });

  test('nothing known: nothing offered but free text (added by the command)', () => {
    assert.deepEqual(refChoices({ local: [], loaded: [] }), []);
  });
});
