/**
 * What one lint rule says of a source file with some lines added: how the lint tests prove that a
 * rule refuses a deliberate violation and passes the files as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { ROOT } from './package-text';

/** The messages of `rule` for `relativePath` with `extra` added before (imports) or after its text. */
export async function lintMessages(rule: string, relativePath: string, extra: string, where: 'before' | 'after'): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const filePath = join(ROOT, relativePath);
  const text = readFileSync(filePath, 'utf8');
  const [result] = await eslint.lintText(where === 'before' ? `${extra}\n${text}\n` : `${text}\n${extra}\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}
