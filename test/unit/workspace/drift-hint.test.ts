// Never claim precision we do not have: the hover says when the code may have moved since the scan.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { driftHint, scannedCommitOf } from '../../../src/core/workspace/drift-hint';

const SHA = '0f4c1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b';

void describe('drift hint', () => {
  test('reads the scanned commit from GitHub and GitLab links', () => {
    assert.equal(scannedCommitOf(`https://github.com/acme/api/blob/${SHA}/src/a.py#L3`), SHA);
    assert.equal(scannedCommitOf(`https://gitlab.com/g/r/-/blob/${SHA.toUpperCase()}/a.go#L1`), SHA);
    assert.equal(scannedCommitOf(`https://bitbucket.org/ws/r/src/${SHA}/a.go#lines-4`), SHA);
    assert.equal(scannedCommitOf(`https://dev.azure.com/o/p/_git/r?path=/a.cs&version=GC${SHA}&line=4`), SHA);
    assert.deepEqual([scannedCommitOf('https://github.com/acme/api/blob/main/a.py#L1'), scannedCommitOf(undefined)], [undefined, undefined]);
  });

  test('the commit found last, checked in place first, never changes the answer', () => {
    // The rule as documented, read from scratch for every link.
    const byRule = (url: string): string | undefined =>
      (/\/(?:blob|src)\/([0-9a-f]{7,40})\//i.exec(url) ?? /[?&]version=GC([0-9a-f]{7,40})(?:&|#|$)/i.exec(url))?.[1]?.toLowerCase();
    const shas = [SHA, SHA.slice(0, 7), SHA.slice(0, 12), SHA.toUpperCase(), `${SHA}0`, 'main', 'b1ab1ab'];
    const piece = fc.constantFrom('/blob/', '/src/', '/-/blob/', '/', 'x', '?version=GC', '&', '#L3', '/a.py');
    const link = fc
      .tuple(fc.constantFrom('https://h/r', ''), fc.array(fc.oneof(piece, fc.constantFrom(...shas)), { maxLength: 8 }))
      .map(([start, rest]) => start + rest.join(''));
    // The cases that look like the last commit but are not it, after it was found.
    for (const url of [
      `https://h/r/src/b1ab1ab/blob/${SHA}/a.py`,
      `https://h/r/blob/${SHA}0/a.py`,
      `https://h/r/blob/${SHA.slice(0, 7)}/a.py`,
      `https://h/r/blob/${SHA}`,
    ]) {
      assert.equal(scannedCommitOf(`https://h/r/blob/${SHA}/a.py`), SHA);
      assert.equal(scannedCommitOf(url), byRule(url), url);
    }
    fc.assert(
      fc.property(fc.array(link, { minLength: 1, maxLength: 6 }), (links) => {
        for (const url of links) assert.equal(scannedCommitOf(url), byRule(url), url);
      }),
      { numRuns: 1500 },
    );
  });

  test('silent when the copy is the scanned commit and saved; says why otherwise', () => {
    assert.equal(driftHint({ scanned: SHA, head: SHA, dirty: false }), undefined);
    assert.equal(driftHint({ scanned: SHA, head: SHA.slice(0, 7), dirty: false }), undefined, 'an abbreviated SHA is the same commit');
    assert.equal(
      driftHint({ scanned: SHA, head: 'abcdef1234', dirty: false }),
      'Placed at its line in the scan of commit 0f4c1a2; this copy is at commit abcdef1, so the code it points at may have moved.',
    );
    assert.equal(
      driftHint({ scanned: SHA, head: SHA, dirty: true }),
      'Placed at its line in the scan of commit 0f4c1a2; this file has unsaved edits, so the code it points at may have moved.',
    );
    assert.match(driftHint({ dirty: true }) ?? '', /^Placed at its line in the last scan; this file has unsaved edits/);
    assert.equal(driftHint({ dirty: false }), undefined, 'nothing known: nothing claimed');
  });
});
