// Nothing the user reads is left in English by accident: in the files whose words go through
// `t()` (docs/l10n-glossary.md, "Runtime words: the rule"), a user-facing string literal fails
// this test. The rule, kept simple enough to read as a regular expression:
// - a message (`showInformationMessage`, `showWarningMessage`, `showErrorMessage`) whose first
//   argument is a string literal;
// - a `label`, `description`, `detail`, `tooltip`, `title`, `text`, `message`, `placeholder`,
//   `placeHolder` or `prompt` (a tree item's, a quick pick item's, a message node's, an input's)
//   set to a string literal that holds a word (a letter outside `$(codicon)` and `${…}`);
// - an error the user is shown whose message is a string literal: `new PlatformError(reason, '…')`,
//   `new TriageInputError('…')`, `refuse('…')` (say it with `said(…)`, which keeps the English
//   for the log and the agent);
// - in the webview's HTML, a text node or a `title`/`aria-label`/`alt`/`placeholder` attribute
//   holding a word.
// A value from `t(…)`, from a function that returns one, or from the platform passes. Logs,
// command ids, setting keys and the agent's text are not in these files, or not in these shapes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/package-text';

/** The files whose words are converted: a folder takes every .ts file under it. */
export const CHECKED = [
  'src/views',
  'src/status-bar.ts',
  'src/diagnostics/diagnostic-message.ts',
  'src/webviews',
  'src/core/services/story-words.ts',
  'src/core/workspace/trace-places.ts',
  'src/diagnostics/trace-related.ts',
  'src/commands',
  'src/host',
  'src/inventory',
  'src/editor',
  'src/core/api',
  'src/core/net',
  'src/core/services/project-tags.ts',
  'src/core/services/project-changes.ts',
  'src/core/services/triage-service.ts',
  'src/core/model/errors.ts',
  'src/core/model/autofix-outcome.ts',
  'src/core/services/rule-modes.ts',
  'src/core/services/kind-gaps.ts',
  'src/core/workspace/dependency-facts.ts',
];

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .flatMap((name) => files(`${path}/${name}`))
    .filter((f) => f.endsWith('.ts'));
}

/** Comments blanked (lengths and lines kept), so an example in a comment is never a finding. */
function code(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, (m, head: string) => head + ' '.repeat(m.length - head.length));
}

/**
 * The string literal at `src[i]` (quotes or a template): where it ends and its own text, each
 * `${…}` part (read through, nested literals too) replaced by a space. Undefined when none starts there.
 */
export function readLiteral(src: string, i: number): { end: number; own: string } | undefined {
  const quote = src[i];
  if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
  let own = '';
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') {
      own += src.slice(j, j + 2);
      j += 2;
    } else if (c === quote) {
      return { end: j + 1, own };
    } else if (quote === '`' && c === '$' && src[j + 1] === '{') {
      let depth = 1;
      j += 2;
      while (j < src.length && depth > 0) {
        const inner = readLiteral(src, j);
        if (inner) {
          j = inner.end;
          continue;
        }
        if (src[j] === '{') depth++;
        else if (src[j] === '}') depth--;
        j++;
      }
      own += ' ';
    } else {
      own += c;
      j++;
    }
  }
  return undefined;
}

/** Whether a literal's own text (not its `${…}` parts, not `$(codicon)`s) holds a word. */
export function holdsWord(own: string): boolean {
  return /\p{L}{2,}/u.test(own.replace(/\$\([\w~-]+\)/g, ''));
}

const MESSAGE_CALL = /show(?:Information|Warning|Error)Message\(\s*/g;
const NAMES = 'label|description|detail|tooltip|title|text|message|placeholder|placeHolder|prompt';
/** `{ label: … }` in an object, or `item.label = …`. */
const TEXT_PROPERTY = new RegExp(String.raw`(?:\b(?:${NAMES})\s*:|\.(?:${NAMES})\s*=(?![=>]))\s*`, 'g');
const HTML_TAG = /\bhtml(?=`)/g;
const ERROR_MESSAGE = /(?:\bnew PlatformError\(\s*'\w+',|\bnew Triage\w*Error\(|\brefuse\()\s*/g;

/** The user-facing literals of one file's source: `line: text`. */
export function literalsOf(source: string, webview = false): string[] {
  const text = code(source);
  const found: string[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  for (const pattern of [MESSAGE_CALL, TEXT_PROPERTY, ERROR_MESSAGE]) {
    for (const m of text.matchAll(pattern)) {
      const at = (m.index ?? 0) + m[0].length;
      const literal = readLiteral(text, at);
      // `'unavailable' in gap` is a test, not a text.
      if (!literal || /^\s*in\b/.test(text.slice(literal.end))) continue;
      if (holdsWord(literal.own)) found.push(`${lineOf(m.index ?? 0)}: ${text.slice(m.index, literal.end).split('\n')[0]}`);
    }
  }
  if (webview) {
    for (const m of text.matchAll(HTML_TAG)) {
      // The template's own markup: its `${…}` parts are values (escaped, or `t(…)`).
      const markup = readLiteral(text, (m.index ?? 0) + 4)?.own ?? '';
      for (const node of markup.matchAll(/>([^<>]*)</g)) if (holdsWord(node[1])) found.push(`${lineOf(m.index ?? 0)}: text "${node[1].trim()}"`);
      for (const attr of markup.matchAll(/\b(?:title|aria-label|alt|placeholder)="([^"]*)"/g))
        if (holdsWord(attr[1])) found.push(`${lineOf(m.index ?? 0)}: ${attr[0]}`);
    }
  }
  return found;
}

void describe('the user-facing literals of the converted files go through t()', () => {
  void test('the rule finds what it should, and passes what it should', () => {
    assert.deepEqual(literalsOf("void vscode.window.showErrorMessage('Refresh failed', 'Retry');").length, 1);
    assert.deepEqual(literalsOf("void vscode.window.showWarningMessage(t('Refresh failed'));"), []);
    assert.equal(literalsOf("item.tooltip = 'Open the finding';").length, 1);
    assert.equal(literalsOf('return { label: `$(check) Apply`, description: summary };').length, 1);
    assert.deepEqual(literalsOf("return { label: `$(check) ${t('Apply')}`, description: `${a} · ${b}` };"), []);
    assert.deepEqual(literalsOf("const x = { label: group.label, text: t('No findings'), title: '' };"), []);
    assert.deepEqual(literalsOf("// tooltip: 'not code'"), []);
    assert.equal(literalsOf('html`<span class="badge">malicious package</span>`', true).length, 1);
    assert.equal(literalsOf('html`<nav aria-label="Actions">${x}</nav>`', true).length, 1);
    assert.deepEqual(literalsOf('html`<span class="badge">${t(\'malicious package\')}</span>`', true), []);
    assert.equal(literalsOf("throw new PlatformError('badRequest', `The base URL ${raw} is not valid.`);").length, 1);
    assert.equal(literalsOf("throw new TriageInputError('Give a state or a note.');").length, 1);
    assert.equal(literalsOf("refuse('Give at least one tag.');").length, 1);
    assert.deepEqual(literalsOf("throw new PlatformError('badRequest', said('The base URL {0} is not valid.', raw));"), []);
  });

  void test('no converted file shows a user-facing literal', () => {
    const offenders = CHECKED.flatMap(files).flatMap((file) =>
      literalsOf(readFileSync(join(ROOT, file), 'utf8'), file.startsWith('src/webviews/')).map((hit) => `  ${file}:${hit}`),
    );
    assert.equal(
      offenders.length,
      0,
      `user-facing literals not passed through t() (docs/l10n-glossary.md, "Runtime words: the rule"):\n${offenders.join('\n')}`,
    );
  });
});
