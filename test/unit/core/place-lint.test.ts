// What a place shows is decided in one place (src/core/services/place.ts): the lint refuses a
// reader that builds its own ref or query, so a new reader cannot drift from Problems and the tree.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lintMessages } from '../helpers/lint-text';

const RULE = '@typescript-eslint/no-restricted-imports';
const refusedIn = (relativePath: string, extra: string): Promise<string[]> => lintMessages(RULE, relativePath, extra, 'before');

void describe('the one decider of a place (lint)', () => {
  test('a reader that imports the ref or query builders fails the lint, naming the place', async () => {
    const own = [
      "import { shownQuery as _q, shownRef as _r } from '../core/services/shown-queries';",
      "import { refToShow as _t } from '../core/model/refs';",
    ].join('\n');
    const messages = await refusedIn('src/commands/sarif-commands.ts', own);
    assert.equal(messages.length, 3, messages.join('\n'));
    assert.ok(messages.every((m) => /src\/core\/services\/place\.ts/.test(m)));
  });

  test('the place itself may, and the readers as they are pass', async () => {
    assert.deepEqual(await refusedIn('src/core/services/place.ts', ''), []);
    for (const reader of ['src/commands/sarif-commands.ts', 'src/agent/findings-tools.ts', 'src/core/services/workspace-view.ts'])
      assert.deepEqual(await refusedIn(reader, ''), [], reader);
  });
});
