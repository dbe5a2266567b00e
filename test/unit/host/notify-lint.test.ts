// Notifications and progress render links: the lint refuses a raw call anywhere but the door
// (src/host/notify.ts), so a new message cannot show the platform's words unmade.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lintMessages } from '../helpers/lint-text';

const RULE = 'no-restricted-syntax';
const restrictedIn = (relativePath: string, extra: string): Promise<string[]> => lintMessages(RULE, relativePath, extra, 'after');

void describe('the one door for messages (lint)', () => {
  test('a raw show*Message, withProgress or showInputBox outside the door fails the lint', async () => {
    const raw = [
      "void vscode.window.showErrorMessage('x');",
      "void vscode.window.showWarningMessage('x');",
      "void vscode.window.showInformationMessage('x');",
      'void vscode.window.withProgress({ location: vscode.ProgressLocation.Window }, () => Promise.resolve());',
      'const say = vscode.window.showInformationMessage; void say;',
      "void vscode.window.showInputBox({ prompt: 'x' });",
    ].join('\n');
    const messages = await restrictedIn('src/commands/session-commands.ts', raw);
    assert.equal(messages.length, 6, messages.join('\n'));
    assert.match(messages[0] ?? '', /src\/host\/notify\.ts/);
  });

  test('the door itself may call them, and the files as they are pass', async () => {
    assert.deepEqual(await restrictedIn('src/host/notify.ts', ''), []);
    assert.deepEqual(await restrictedIn('src/commands/session-commands.ts', ''), []);
  });
});
