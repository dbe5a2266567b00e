/**
 * A diagnostic's code that opens the finding's page when clicked in Problems. Tens of thousands of
 * diagnostics each keep one, so it keeps what makes its link rather than the link: a parsed prefix
 * shared by the links that differ only in their trailing number (the finding's id under its
 * platform page) and that number. The `Uri` is made when it is read (VS Code reads it once, when
 * a `set` hands the diagnostic over), rather than kept per diagnostic with its path's text
 * (docs/performance.md, "Memory").
 */
import * as vscode from 'vscode';
import { isHttpUrl } from '../core/model/links';

/** Only http(s) links from the server become clickable targets (never command:, file:, javascript:). */
export function safeLink(url: string | undefined): vscode.Uri | undefined {
  if (!isHttpUrl(url)) return undefined;
  try {
    return vscode.Uri.parse(url, true);
  } catch {
    return undefined;
  }
}

export class CodeLink {
  constructor(
    readonly value: string,
    /** The whole link, or the prefix its `tail` ends. */
    private readonly base: vscode.Uri,
    /** The id after the prefix (as a number it keeps no text), or '' when `base` is the whole link. */
    private readonly tail: number | '',
  ) {}

  get target(): vscode.Uri {
    return this.tail === '' ? this.base : this.base.with({ path: this.base.path + String(this.tail) });
  }

  /** The same link: compared by its parts, never by making both Uris. */
  sameTarget(other: CodeLink): boolean {
    return this.tail === other.tail && (this.base === other.base || sameUri(this.base, other.base));
  }

  /**
   * The link's text. The shared prefix keeps its text once formatted; a whole link is formatted
   * from a copy, as VS Code's `Uri` keeps the text it was formatted to for as long as it lives.
   */
  text(): string {
    return this.tail === '' ? vscode.Uri.from(this.base).toString() : this.base.toString() + String(this.tail);
  }

  /** What `JSON.stringify` of a diagnostic says of its code (a getter is not an own property). */
  toJSON(): { value: string; target: vscode.Uri } {
    return { value: this.value, target: this.target };
  }
}

/**
 * The code `value` linked to `url`, or undefined when `url` is not an http(s) link. Links that end
 * in a number after a `/` share one parsed prefix; anything else is checked and parsed as
 * {@link safeLink} does.
 */
export function codeLink(value: string, url: string | undefined): CodeLink | undefined {
  if (!url) return undefined;
  const digits = trailingDigits(url);
  const start = url.length - digits;
  // A number that reads back as written: at most 15 digits, no leading zero.
  if (digits > 0 && digits <= 15 && (digits === 1 || url.charCodeAt(start) !== 0x30)) {
    const base = prefixOf(url.slice(0, start));
    if (base) return new CodeLink(value, base, Number(url.slice(start)));
  }
  const whole = safeLink(url);
  return whole && new CodeLink(value, whole, '');
}

/** The parsed prefix, when it ends its path (so the number can be added to the path). */
function prefixOf(prefix: string): vscode.Uri | undefined {
  let base = prefixes.get(prefix);
  if (base === undefined) {
    const parsed = safeLink(prefix);
    base = parsed && parsed.query === '' && parsed.fragment === '' && parsed.path.endsWith('/') ? parsed : null;
    if (prefixes.size >= 64) prefixes.clear();
    prefixes.set(prefix, base);
  }
  return base ?? undefined;
}
const prefixes = new Map<string, vscode.Uri | null>();

/**
 * How many digits end the URL right after a `/` (0 when it does not end so). A loop, not a
 * regular expression: a look-behind pattern is tried at every position of every link, a large
 * share of drawing a diagnostic (docs/performance.md, "Drawing diagnostics").
 */
function trailingDigits(url: string): number {
  let start = url.length;
  while (start > 0 && url.charCodeAt(start - 1) >= 0x30 && url.charCodeAt(start - 1) <= 0x39) start--;
  return start < url.length && start > 0 && url.charCodeAt(start - 1) === 0x2f ? url.length - start : 0;
}

/**
 * The same parts, so the same link. Not by `toString()`: formatting every link of a large file is
 * a stall, and each link then keeps its text for as long as it is shown (docs/performance.md,
 * "Cached start").
 */
export function sameUri(a: vscode.Uri, b: vscode.Uri): boolean {
  return a.scheme === b.scheme && a.authority === b.authority && a.path === b.path && a.query === b.query && a.fragment === b.fragment;
}
