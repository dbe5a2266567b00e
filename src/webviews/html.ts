/**
 * HTML text for webviews, built as strings with everything from outside escaped. Server text is
 * always text here: never parsed as markup, and only http(s) links become links (opened by the
 * extension through a message, never by the page itself).
 */
import { isHttpUrl } from '../core/model/links';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A link the page's script turns into an `openLink` message; plain text when not http(s). */
export function link(url: string | undefined, label?: string): string {
  const text = escapeHtml(label ?? url ?? '');
  if (!isHttpUrl(url)) return text;
  return `<a href="#" data-action="openLink" data-url="${escapeHtml(url)}">${text}</a>`;
}

/** `<dt>`/`<dd>` pairs for the fields that have a value; '' when none has. */
export function fields(pairs: readonly (readonly [string, string | undefined])[]): string {
  const shown = pairs.filter((pair): pair is readonly [string, string] => pair[1] !== undefined && pair[1] !== '');
  if (shown.length === 0) return '';
  return `<dl>${shown.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

/** A section with a heading, only when it has content. */
export function section(title: string, body: string, id?: string): string {
  if (body.trim() === '') return '';
  return `<section${id ? ` id="${escapeHtml(id)}"` : ''} aria-label="${escapeHtml(title)}"><h2>${escapeHtml(title)}</h2>${body}</section>`;
}

/** Text kept as written: line breaks shown, markup inert. */
export function prose(text: string | undefined): string {
  return text === undefined || text.trim() === '' ? '' : `<p class="prose">${escapeHtml(text)}</p>`;
}

export function list(items: readonly string[]): string | undefined {
  return items.length === 0 ? undefined : items.map(escapeHtml).join(', ');
}

export function button(action: string, label: string, extra: Readonly<Record<string, string>> = {}, primary = false): string {
  const attrs = Object.entries(extra).map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`).join('');
  return `<button type="button" class="${primary ? 'primary' : 'secondary'}" data-action="${escapeHtml(action)}"${attrs}>${escapeHtml(label)}</button>`;
}
