// What the pickers and messages of a project's settings say: the typed tags' row, the message
// after an edit of tags, the primary-branch picker's rows and a change of managed scans.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Project } from '../../../src/core/model/types';
import { branchRows, managedScansChange, managedScansText, primaryName, tagEditText, typedRow } from '../../../src/host/project-settings-text';

const project = (extra: Partial<Project> = {}): Project => ({ id: 1, name: 'acme/web', tags: ['legacy', 'pci'], defaultBranch: 'main', ...extra });

void describe('typedRow', () => {
  void test('nothing typed: how to add tags, with none to add', () => {
    assert.deepEqual(typedRow('', []), { label: '$(add) New tags', description: 'type them, comma-separated', tags: [] });
    assert.deepEqual(typedRow(' , ', ['a'])?.tags, []);
  });

  void test('the new tags, starting with the text typed (the picker keeps it first); those already there are said', () => {
    assert.deepEqual(typedRow(' team-a, pci ', ['pci']), {
      label: '$(add) team-a, pci',
      description: 'Add: team-a (pci is there already)',
      tags: ['team-a', 'pci'],
    });
    assert.deepEqual(typedRow('team-a,team-b', []), { label: '$(add) team-a,team-b', description: 'Add: team-a, team-b', tags: ['team-a', 'team-b'] });
    assert.equal(typedRow('a, b', ['a', 'b'])?.description, 'Add: nothing new (a and b are there already)');
  });

  void test('text that cannot be added says why, with no tags', () => {
    const row = typedRow('team a', []);
    assert.equal(row?.label, '$(error) team a');
    assert.equal(row?.tags, undefined);
    assert.match(row?.detail ?? '', /^"team a" has characters a tag cannot have/);
  });
});

void describe('tagEditText', () => {
  void test('what was added and removed', () => {
    assert.equal(tagEditText('acme/web', { added: ['a', 'b'], removed: ['c'], had: [], lacked: [] }), 'acme/web: added a, b; removed c.');
    assert.equal(tagEditText('acme/web', { added: [], removed: ['c'], had: ['x'], lacked: [] }), 'acme/web: removed c.');
  });

  void test('nothing to change says why, and that nothing was sent', () => {
    assert.equal(
      tagEditText('acme/web', { added: [], removed: [], had: ['pci'], lacked: ['x', 'y', 'z'] }),
      'Nothing to change: acme/web already has pci and it does not have x, y and z. Nothing was sent.',
    );
    assert.equal(tagEditText('acme/web', { added: [], removed: [], had: [], lacked: ['x'] }), 'Nothing to change: acme/web does not have x. Nothing was sent.');
    assert.equal(tagEditText('acme/web', { added: [], removed: [], had: [], lacked: [] }), 'Nothing to change. Nothing was sent.');
  });
});

void describe('branchRows', () => {
  const labels = (rows: ReturnType<typeof branchRows>): string[] =>
    rows.map((r) => `${r.label}${r.description ? ` — ${r.description}` : ''}${r.current ? ' (active)' : ''}`);

  void test('the default branch first, then the scanned branches most recent first, the primary one marked', () => {
    assert.deepEqual(labels(branchRows(project({ primaryBranch: 'develop' }), ['feature/x', 'develop', 'main'])), [
      '$(home) The default branch — main',
      'Branches with scans, most recent first',
      '$(git-branch) feature/x',
      '$(git-branch) develop — primary now (active)',
      '$(git-branch) main — default branch',
    ]);
  });

  void test("a primary or default branch spelled in full is the same row as the scans' short name, marked once", () => {
    assert.deepEqual(labels(branchRows(project({ primaryBranch: 'refs/heads/develop', defaultBranch: 'refs/heads/main' }), ['develop', 'main'])), [
      '$(home) The default branch — refs/heads/main',
      'Branches with scans, most recent first',
      '$(git-branch) develop — primary now (active)',
      '$(git-branch) main — default branch',
    ]);
  });

  void test('a branch name from the platform is drawn as its text, never as an icon of its making', () => {
    const rows = branchRows(project(), ['$(check) verified', 'main']);
    assert.equal(rows.find((r) => r.choice?.branch === '$(check) verified')?.label, '$(git-branch) \\$(check) verified');
  });

  void test('the default branch primary: it is marked; while loading, only it', () => {
    assert.deepEqual(labels(branchRows(project(), undefined)), ['$(home) The default branch — main · primary now (active)']);
    assert.deepEqual(branchRows(project(), undefined)[0]?.choice, { branch: undefined });
  });

  void test('a primary branch without a recent scan is still listed; while loading, under "Branches"', () => {
    assert.deepEqual(labels(branchRows(project({ primaryBranch: 'old' }), ['main'])).slice(2), [
      '$(git-branch) old — primary now · no recent scan (active)',
      '$(git-branch) main — default branch',
    ]);
    assert.deepEqual(labels(branchRows(project({ primaryBranch: 'old' }), undefined)).slice(1), ['Branches', '$(git-branch) old — primary now (active)']);
  });

  void test('a branch typed that the list lacks can be chosen first; one that is no branch says why', () => {
    const rows = branchRows(project(), ['main'], 'release/2');
    assert.deepEqual([rows[0]?.label, rows[0]?.choice], ['$(edit) release/2', { branch: 'release/2' }]);
    assert.equal(branchRows(project(), ['main'], 'main')[0]?.label, '$(home) The default branch', 'a listed branch is not repeated');
    const bad = branchRows(project(), ['main'], 'a b')[0];
    assert.equal(bad?.choice, undefined);
    assert.match(bad?.description ?? '', /is not a branch name/);
  });

  void test('a project without a default branch named', () => {
    assert.equal(branchRows(project({ defaultBranch: undefined }), [])[0]?.description, 'as the platform names it · primary now');
    assert.equal(primaryName(project({ defaultBranch: undefined })), 'the default branch');
    assert.equal(primaryName(project()), 'the default branch (main)');
    assert.equal(primaryName(project({ primaryBranch: 'develop' })), 'develop');
  });
});

void describe('managedScansChange', () => {
  void test('says what changes and what stays, and that it is for everyone', () => {
    const change = managedScansChange('acme/web', { diffScanEnabled: true, fullScanEnabled: false }, { diffScanEnabled: false, fullScanEnabled: false });
    assert.equal(change.message, 'Change 1 managed scan setting of acme/web?');
    assert.equal(
      change.detail,
      'Diff-aware scans of pull requests will be turned off.\nFull scans of the repository stay off.\nThis changes the project for everyone in the organization.',
    );
    assert.equal(
      managedScansChange('p', { diffScanEnabled: false, fullScanEnabled: false }, { diffScanEnabled: true, fullScanEnabled: true }).message,
      'Change 2 managed scan settings of p?',
    );
    assert.equal(managedScansText({ diffScanEnabled: true, fullScanEnabled: false }), 'diff-aware scans on, full scans off');
  });
});
