// Tooltip markdown built from server text: whatever the platform sends (HTML, markdown links,
// `command:` URIs, bare URLs) must render as inert text; only http(s) links we build may be links.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { escapeMarkdown, isHttpUrl, markdownCode, markdownLink, TooltipText } from '../../../src/views/markdown';

type Renderer = { render(source: string): string };
/**
 * A real CommonMark renderer, at its most permissive (raw HTML and autolinks on), to prove the
 * escaping holds where VS Code's own (stricter) renderer is not available. A dev dependency, so
 * the rendering tests always run.
 */
const MarkdownIt = createRequire(__filename)('markdown-it') as new (options: object) => Renderer;
const renderer = new MarkdownIt({ html: true, linkify: true });
const render = (source: string): string => renderer.render(source);

/** Undoes backslash escapes: what a reader sees once the renderer has consumed them. */
const unescape = (escaped: string): string => escaped.replace(/\\([!-/:-@[-`{-~])/g, '$1');

const ATTACK = '[click](command:workbench.action.openSettings) <img src=x onerror=alert(1)>';

void describe('escapeMarkdown', () => {
  void test('the attack text keeps every character, none of them active', () => {
    const escaped = escapeMarkdown(ATTACK);
    assert.equal(unescape(escaped), ATTACK);
    // Every bracket, parenthesis, angle bracket and colon is preceded by a backslash.
    assert.doesNotMatch(escaped, /(^|[^\\])[[\]()<>:]/);
  });

  void test('renders as plain text: no link, no image, no HTML element', () => {
    const html = render(escapeMarkdown(ATTACK));
    assert.doesNotMatch(html, /<a\b|<img\b|href=/i);
    assert.match(html, /\[click\]\(command:workbench\.action\.openSettings\) &lt;img src=x onerror=alert\(1\)&gt;/);
  });

  void test('bare URLs, emphasis, headings, entities and code do not come alive', () => {
    const text = '# title *bold* __under__ `code` https://evil.example www.evil.example &lt; <script>x</script> ![i](http://x/i.png)';
    const html = render(escapeMarkdown(text));
    assert.doesNotMatch(html, /<(a|h1|em|strong|code|script|img)\b/i);
    assert.match(html, /&amp;lt;/, 'an entity in server text is shown as typed, not decoded');
  });

  void test('line breaks become spaces, so server text cannot start a block of its own', () => {
    assert.equal(escapeMarkdown('one\n# two\r\nthree'), 'one \\# two three');
  });

  void test('text without special characters is unchanged', () => {
    assert.equal(escapeMarkdown('Avoid eval on user input'), 'Avoid eval on user input');
  });
});

void describe('markdownLink', () => {
  void test('http and https URLs become links with an escaped label', () => {
    assert.equal(markdownLink('a [b]', 'https://github.com/o/r/blob/abc/x.py#L4'), '[a \\[b\\]](https://github.com/o/r/blob/abc/x.py#L4)');
    assert.equal(markdownLink('x', 'http://localhost:8080/p'), '[x](http://localhost:8080/p)');
  });

  void test('command:, javascript:, file: and relative URLs leave only the escaped label', () => {
    for (const url of ['command:workbench.action.openSettings', 'javascript:alert(1)', 'file:///etc/passwd', '/relative', 'not a url']) {
      assert.equal(markdownLink('open', url), 'open', url);
    }
    assert.equal(markdownLink('a (b)', undefined), 'a \\(b\\)');
  });

  void test('parentheses, spaces and angle brackets cannot end or break the destination', () => {
    const link = markdownLink('x', 'https://h.example/a b(c)<d>"e"');
    assert.equal(link, '[x](https://h.example/a%20b%28c%29%3Cd%3E%22e%22)');
    assert.match(render(link), /<a href="https:\/\/h\.example\/a%20b%28c%29%3Cd%3E%22e%22">x<\/a>/);
  });
});

void describe('markdownCode', () => {
  void test('wraps identifiers in a fence longer than any backtick run inside', () => {
    assert.equal(markdownCode('a.b.c'), '`a.b.c`');
    assert.equal(markdownCode('a`b'), '``a`b``');
    assert.equal(markdownCode('`x`'), '`` `x` ``');
  });

  void test('HTML inside code is shown, not run', () => {
    assert.doesNotMatch(render(markdownCode('<img src=x onerror=alert(1)>')), /<img/);
  });
});

void describe('isHttpUrl', () => {
  void test('only absolute http(s) URLs', () => {
    assert.equal(isHttpUrl('https://semgrep.dev/orgs/x'), true);
    assert.equal(isHttpUrl('HTTP://EXAMPLE.COM'), true);
    for (const url of [undefined, '', 'ftp://x', 'command:x', 'javascript:alert(1)', 'github.com/x', 'data:text/html,x']) {
      assert.equal(isHttpUrl(url), false, String(url));
    }
  });
});

void describe('TooltipText', () => {
  void test('fields are escaped and left out when empty; lines break hard', () => {
    const text = new TooltipText().heading('r.[x]').field('Severity', 'high').field('Empty', '').field('None', undefined).toString();
    assert.equal(text, '**r\\.\\[x\\]**  \nSeverity: high');
  });

  void test('a separator is a rule with blank lines, never a heading underline', () => {
    const html = render(new TooltipText().heading('name').text('message').separator().field('Status', 'open').toString());
    assert.match(html, /<hr>/);
    assert.doesNotMatch(html, /<h\d/);
  });

  void test('links appear only for http(s)', () => {
    const text = new TooltipText().link('code', 'https://x.example/a').link('evil', 'command:x').toString();
    assert.equal(text, '[code](https://x.example/a)  \nevil');
  });
});
