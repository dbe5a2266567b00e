/**
 * Markdown text for tooltips, built from server text. Everything the platform sends (rule
 * messages, names, tags) may hold HTML, markdown links or `command:` URIs, so it is escaped into
 * inert text here; the only links that reach a tooltip are http(s) URLs built by `markdownLink`.
 * Pure (no `vscode`): the views wrap the result in an untrusted `MarkdownString`.
 */

/**
 * Backslash-escapes every ASCII punctuation character (CommonMark lets any of them be escaped),
 * which disarms emphasis, links, images, raw HTML, entities and autolinks (`https\:\/\/…` is no
 * longer a URL to the renderer). Line breaks become spaces: a tooltip line is one line.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&').replace(/\r\n|\r|\n/g, ' ');
}

/** Text shown as inline code, for identifiers: no markdown inside, and a backtick cannot end it early. */
export function markdownCode(text: string): string {
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const padded = text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\r\n|\r|\n/g, ' ')}${fence}`;
}

/** Re-exported for the views: defined below them, beside the platform's links. */
import { isHttpUrl } from '../core/model/links';
export { isHttpUrl };

/**
 * A markdown link when `url` is http(s); otherwise only the escaped label, so a `command:`,
 * `javascript:` or `file:` URL from the server can never become clickable.
 */
export function markdownLink(label: string, url: string | undefined): string {
  if (!isHttpUrl(url)) return escapeMarkdown(label);
  // `href` percent-encodes spaces, quotes and angle brackets; parentheses would end the destination.
  const destination = new URL(url).href.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `[${escapeMarkdown(label)}](${destination})`;
}

/**
 * Builds a tooltip line by line. Values are escaped as they are added; only the builder's own
 * structure (bold labels, line breaks, rules) is markdown.
 */
export class TooltipText {
  private readonly lines: string[] = [];

  /** A bold heading from server text. */
  heading(text: string): this {
    this.lines.push(`**${escapeMarkdown(text)}**`);
    return this;
  }

  /** Plain server text, escaped. */
  text(text: string | undefined): this {
    if (text) this.lines.push(escapeMarkdown(text));
    return this;
  }

  /** `Label: value`, left out when the value is empty. */
  field(label: string, value: string | number | undefined): this {
    if (value === undefined || value === '') return this;
    this.lines.push(`${escapeMarkdown(label)}: ${escapeMarkdown(String(value))}`);
    return this;
  }

  /** `Label: value` with the value as inline code (rule ids, paths, ids). */
  codeField(label: string, value: string | undefined): this {
    if (!value) return this;
    this.lines.push(`${escapeMarkdown(label)}: ${markdownCode(value)}`);
    return this;
  }

  /** A link when the URL is http(s), the escaped label alone otherwise. */
  link(label: string, url: string | undefined): this {
    if (url) this.lines.push(markdownLink(label, url));
    return this;
  }

  separator(): this {
    this.lines.push('---');
    return this;
  }

  toString(): string {
    // Two trailing spaces make a hard line break inside a paragraph; a rule needs blank lines
    // around it, or the line above would become a heading.
    let out = '';
    for (const line of this.lines) {
      if (line === '---') out += '\n\n---\n\n';
      else out += out === '' || out.endsWith('\n\n') ? line : `  \n${line}`;
    }
    return out.trim();
  }
}
