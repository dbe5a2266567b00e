// The platform's words in a notification, a progress message or the status bar: every word is
// still read, and no link or icon of the platform's making can form, wherever a language puts
// them in our sentence.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inertIcons, inertLinks } from '../../../src/core/model/untrusted-text';

/** A markdown link as a notification draws one: a bracketed label, then at once its target in parentheses. */
const LINK = /\[[^\]]*\]\(\s*<?(?:https?:|command:|file:|vscode:|[a-z][\w+.-]*:)/i;

const HOSTILE = [
  '[Open details](command:workbench.action.quit)',
  '[read this](file:///etc/passwd)',
  '[x](https://evil.example "title")',
  'Refused: [Open details](command:appsecFindings.signOut?%5B%22a%22%5D) now',
  '[nested [brackets]](command:x)',
  '[](command:empty-label)',
  '[a]\n(command:across-a-line)',
  '[bidi \u202e)x:dnammoc(\u202c](command:y)',
  `${'['.repeat(2000)}](command:z)`,
];

void describe('inertLinks', () => {
  test('no link forms in hostile text, and every word stays', () => {
    for (const text of HOSTILE) {
      const inert = inertLinks(text);
      assert.doesNotMatch(inert, LINK, text.slice(0, 60));
      for (const word of text.match(/[A-Za-z]{3,}/g) ?? []) assert.ok(inert.includes(word), `"${word}" is still read in ${inert.slice(0, 80)}`);
    }
    assert.equal(inertLinks('[Open details](command:x)'), 'Open details (command:x)');
  });

  test("whatever order a language puts our words and the platform's in, the whole sentence is inert", () => {
    // The platform's words split so that our sentence would complete a link between them.
    const templates = ['{0} Response: "{1}"', '„{1}“ — {0}', '{1}{0}', '[{0}]({1})', '{0}]({1}'];
    const parts = ['[Open', '](command:appsecFindings.signOut)', 'command:x', '[a'];
    for (const template of templates) {
      for (const first of parts) {
        for (const second of parts) {
          const sentence = template.replace('{0}', first).replace('{1}', second);
          assert.doesNotMatch(inertLinks(sentence), LINK, sentence);
        }
      }
    }
  });

  test('our own words are left as they are', () => {
    for (const text of [
      "AppSec: the rule stays in Block mode. The token's role does not allow changing the mode of a.b (403).",
      'AppSec: 2 new findings (1 blocks pull requests) [beta]',
      'f(x) = [1, 2]',
    ]) {
      assert.equal(inertLinks(text), text);
    }
    assert.equal(inertLinks('AppSec: no link here.'), 'AppSec: no link here.');
  });

  test('a megabyte of brackets is made inert', () => {
    const huge = '[]('.repeat(350_000);
    const inert = inertLinks(huge);
    assert.doesNotMatch(inert.slice(0, 10_000), LINK);
    assert.ok(inert.length >= huge.length);
  });
});

void describe('inertIcons', () => {
  test("an icon of the platform's making is drawn as its text; an escaped one stays escaped once", () => {
    assert.equal(inertIcons('$(check) main'), '\\$(check) main');
    assert.equal(inertIcons('feature/$(warning)'), 'feature/\\$(warning)');
    assert.equal(inertIcons('\\$(check)'), '\\$(check)');
    assert.equal(inertIcons('plain $ (money)'), 'plain $ (money)');
  });
});
