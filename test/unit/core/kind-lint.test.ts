// What a kind of finding can do is asked of its descriptor (src/core/model/finding-kinds.ts): the
// lint refuses a comparison of an issue type with a name, so the next kind cannot be missed in one
// file while the others learn it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lintMessages } from '../helpers/lint-text';

const RULE = 'no-restricted-syntax';
const refusedIn = (relativePath: string, extra: string): Promise<string[]> => lintMessages(RULE, relativePath, extra, 'after');

void describe('kinds of finding asked, not named (lint)', () => {
  test('comparing or switching on an issue type by name fails the lint, naming the descriptor', async () => {
    const named = [
      "export const traced = (f: { issueType: string }): boolean => f.issueType === 'sast';",
      "export const fixable = (f: { issueType: string }): boolean => 'secrets' !== f.issueType;",
      "export const word = (f: { issueType: string }): string => { switch (f.issueType) { case 'sca': return 'x'; default: return 'y'; } };",
    ].join('\n');
    for (const file of ['src/editor/hover-text.ts', 'src/host/notify.ts', 'src/core/services/findings-fetcher.ts']) {
      const messages = await refusedIn(file, named);
      assert.equal(messages.length, 3, `${file}: ${messages.join('\n')}`);
      assert.ok(
        messages.every((m) => /src\/core\/model\/finding-kinds\.ts/.test(m)),
        file,
      );
    }
  });

  test("comparing two findings' kinds is fine, and the files as they are pass", async () => {
    const same = 'export const same = (a: { issueType: string }, b: { issueType: string }): boolean => a.issueType === b.issueType;';
    assert.deepEqual(await refusedIn('src/editor/hover-text.ts', same), []);
    for (const file of ['src/core/services/findings-fetcher.ts', 'src/editor/finding-actions.ts', 'src/core/export/sarif.ts', 'src/host/notify.ts'])
      assert.deepEqual(await refusedIn(file, ''), [], file);
  });
});
