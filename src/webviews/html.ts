/**
 * HTML for webviews, built as text with everything from outside escaped. Markup is an `Html`
 * value made only by the `html` template tag (or the helpers below, which use it); any plain
 * string put into a template is escaped, so server text can only ever become text, whichever
 * way a caller forgets. Links are only http(s) and are opened by the extension through a message,
 * never by the page itself.
 */
import { formatDayTime, t } from '../core/l10n';
import { isHttpUrl } from '../core/model/links';

/** Made only here, so every `Html` comes from a template whose values were escaped. */
let trusted: (markup: string) => Html;

/** Markup this module built. A class, not a branded string, so the tag can tell it apart at run time. */
export class Html {
  static {
    trusted = (markup) => new Html(markup);
  }

  private constructor(readonly markup: string) {}

  get isEmpty(): boolean {
    return this.markup.trim() === '';
  }

  toString(): string {
    return this.markup;
  }
}

/** What a template accepts: markup as it is, text escaped, nothing for absent values. */
export type Part = Html | string | number | undefined | null | false | readonly Part[];

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes the five characters that matter in text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * Our own words (in the display language) as the text of an element: `&`, `<` and `>` escaped,
 * quotes kept as written, so an English sentence reads byte for byte as before. Not for attributes.
 */
export function wordsText(text: string): Html {
  return trusted(text.replace(/[&<>]/g, (c) => ESCAPES[c] ?? c));
}

function render(part: Part): string {
  if (part instanceof Html) return part.markup;
  if (part === undefined || part === null || part === false) return '';
  if (typeof part === 'string' || typeof part === 'number') return escapeHtml(String(part));
  return part.map(render).join('');
}

/** The template tag: the literal parts are markup, every value is escaped unless it is `Html`. */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return trusted(out);
}

export const EMPTY = html``;

/** Parts joined with a separator (itself markup). */
export function join(parts: readonly Part[], separator: Html = EMPTY): Html {
  const shown = parts.filter((p) => render(p) !== '');
  return trusted(shown.map(render).join(separator.markup));
}

/**
 * A link the page's script turns into an `openLink` message (the extension opens it). Only
 * http(s) URLs: anything else (`javascript:`, `command:`, `file:`…) is shown as plain text.
 */
export function link(url: string | undefined, label?: string): Html {
  const text = label ?? url ?? '';
  if (!isHttpUrl(url)) return html`${text}`;
  // `href` keeps it a focusable, announced link; the script cancels the navigation.
  return html`<a href="#" data-action="openLink" data-url="${url}">${text}</a>`;
}

export type Field = readonly [label: string, value: Part];

/** `<dt>`/`<dd>` pairs for the fields that have a value; nothing when none has. */
export function fields(pairs: readonly Field[]): Html {
  const shown = pairs.filter(([, value]) => render(value).trim() !== '');
  if (shown.length === 0) return EMPTY;
  return html`<dl>${shown.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A section with its heading, or nothing when the body is empty. */
export function section(title: string, id: string, body: readonly Part[]): Html {
  const content = join(body);
  if (content.isEmpty) return EMPTY;
  return html`<section id="${id}" aria-labelledby="${id}-heading"><h2 id="${id}-heading">${title}</h2>${content}</section>`;
}

/** Server text kept as written: line breaks shown (by CSS), markup and markdown inert. */
export function prose(text: string | undefined, tag: 'p' | 'span' = 'span'): Html {
  if (text === undefined || text.trim() === '') return EMPTY;
  return tag === 'p' ? html`<p class="prose">${text}</p>` : html`<span class="prose">${text}</span>`;
}

/** A list of short values (CWE names, versions); nothing when empty. */
export function list(items: readonly Part[] | undefined): Html {
  const shown = (items ?? []).filter((item) => render(item).trim() !== '');
  if (shown.length === 0) return EMPTY;
  return html`<ul class="values">${shown.map((item) => html`<li>${item}</li>`)}</ul>`;
}

/** A date as UTC minutes, with the exact instant for the machine-readable attribute. */
export function time(value: Date | undefined): Html {
  if (!value || Number.isNaN(value.getTime())) return EMPTY;
  const iso = value.toISOString();
  return html`<time datetime="${iso}">${t('{0} UTC', formatDayTime(value))}</time>`;
}

/** A real button; the page's script posts the message its `data-*` attributes describe. */
export function button(action: string, label: string, options: { readonly data?: Readonly<Record<string, string>>; readonly primary?: boolean } = {}): Html {
  const data = Object.entries(options.data ?? {}).map(([key, value]) => html` data-${key.replace(/[^a-z-]/g, '')}="${value}"`);
  return html`<button type="button" class="${options.primary ? 'primary' : 'secondary'}" data-action="${action}"${data}>${label}</button>`;
}
