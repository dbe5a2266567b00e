// Notifications and progress render links: the lint refuses a raw call anywhere but the door
// (src/host/notify.ts), so a new message cannot show the platform's words unmade.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { ROOT } from '../helpers/package-text';

const RULE = 'no-restricted-syntax';

async function restrictedIn(relativePath: string, extra: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const filePath = join(ROOT, relativePath);
  const [result] = await eslint.lintText(`${readFileSync(filePath, 'utf8')}\n${extra}\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

void describe('the one door for messages (lint)', () => {
  test('a raw show*Message, withProgress or showInputBox outside the door fails the lint', async () => {
    const raw = [
      "void vscode.window.showErrorMessage('x');",
      "void vscode.window.showWarningMessage('x');",
      "void vscode.window.showInformationMessage('x');",
      "void vscode.window.withProgress({ location: vscode.ProgressLocation.Window }, () => Promise.resolve());",
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
