/**
 * The words the user reads at run time, without `vscode` (docs/l10n-glossary.md, "Where the words
 * live"). Every such text goes through `t(english, ...args)`: the English text is the key, as with
 * `vscode.l10n.t`, and `{0}`, `{1}`… are replaced by the arguments. Activation injects the
 * translator (`vscode.l10n.t`, which reads `l10n/bundle.l10n.<language>.json`) and the display
 * language once (`host/l10n-host.ts`); until then, and in plain Node tests, `t` formats the
 * English. The first argument of `t` (and of `said`) is always one string literal: a unit test
 * collects them from src as the English keys (test/unit/l10n/runtime-bundles.test.ts).
 *
 * Counts pick their message by count, each a key of its own: `n === 1 ? t('{0} finding', …) :
 * t('{0} findings', …)`. Numbers and dates go through `Intl` in the display language.
 *
 * What stays English whatever the language: the log, command ids, setting keys and the text the
 * agent's tools return to the model.
 */

export type Argument = string | number | boolean;

/** How a translator is called: the English text and the arguments for its placeholders. */
export type Translator = (message: string, args: readonly Argument[]) => string;

/** `{0}` → args[0], as `vscode.l10n.t` does; a placeholder without an argument stays as written. */
export function formatMessage(message: string, args: readonly Argument[]): string {
  if (args.length === 0) return message;
  return message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
}

let translator: Translator = formatMessage;
let language = 'en';
/** Bumped on each injection: tables built from `t` (see `perLanguage`) are built again. */
let generation = 0;

/**
 * Injects the translator and the display language (`vscode.env.language`, e.g. `de`, `pt-br`).
 * Called once at activation; tests call it to read a view in another language, and
 * `resetTranslator()` after.
 */
export function setTranslator(translate: Translator, displayLanguage: string): void {
  translator = translate;
  language = displayLanguage || 'en';
  generation++;
}

/** Back to English formatting (tests). */
export function resetTranslator(): void {
  setTranslator(formatMessage, 'en');
}

/** The display language, as VS Code names it (`en`, `de`, `zh-cn`, …). */
export function displayLanguage(): string {
  return language;
}

/** Whether the display language is English (then the English formats of before are kept byte for byte). */
export function isEnglish(): boolean {
  return language === 'en' || language.startsWith('en-');
}

/** The user-facing text of `message` (English, the key) in the display language, placeholders filled. */
export function t(message: string, ...args: Argument[]): string {
  return translator(message, args);
}

/** A sentence said twice: to the log in English, to the user in the display language. */
export interface Said {
  readonly english: string;
  readonly text: string;
}

/** A `Said` among the arguments fills its placeholder with its English in `english`, its text in `text`. */
export function said(message: string, ...args: (Argument | Said)[]): Said {
  const english = args.map((a) => (typeof a === 'object' ? a.english : a));
  const text = args.map((a) => (typeof a === 'object' ? a.text : a));
  return { english: formatMessage(message, english), text: translator(message, text) };
}

/**
 * A value built from `t` (a table of labels), built again only when the language changes: module
 * constants are evaluated before activation injects the translator, so they must not call `t`.
 */
export function perLanguage<T>(build: () => T): () => T {
  let built: { readonly generation: number; readonly value: T } | undefined;
  return () => {
    if (built?.generation !== generation) built = { generation, value: build() };
    return built.value;
  };
}

/** BCP 47 tag for Intl: VS Code's `zh-cn` is `zh-CN`, `pt-br` is `pt-BR`. */
function intlLocale(): string {
  const [lang, region] = language.split('-');
  return region ? `${lang}-${region.toUpperCase()}` : lang || 'en';
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** 12,345 in English, 12.345 in German, 12 345 in French. */
export function formatNumber(value: number): string {
  const locale = isEnglish() ? 'en-US' : intlLocale();
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(value);
}

/**
 * A count inside a sentence: digits alone in English (as the extension always wrote them, and as
 * the in-host tests read the status bar), the display language's grouping otherwise.
 */
export function formatCount(value: number): string {
  return isEnglish() ? String(value) : formatNumber(value);
}

/**
 * "14:03" today, "2024-05-01 14:03" on another day (local time, as the user reads a clock). In
 * another language the time, and the date when not today, as that language writes them.
 */
export function formatClock(date: Date, now = new Date()): string {
  const sameDay = date.toDateString() === now.toDateString();
  if (isEnglish()) {
    const pad = (n: number): string => String(n).padStart(2, '0');
    const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
    return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
  }
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { hour: '2-digit', minute: '2-digit' }
    : { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(intlLocale(), options).format(date);
}

/** A day (2024-05-01 in English; the language's short date otherwise), in UTC as the platform dates it. */
export function formatDay(date: Date): string {
  if (isEnglish()) return date.toISOString().slice(0, 10);
  return new Intl.DateTimeFormat(intlLocale(), { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(date);
}

/** A day and time in UTC ("2024-05-01 14:03" in English). */
export function formatDayTime(date: Date): string {
  if (isEnglish()) return date.toISOString().replace('T', ' ').slice(0, 16);
  return new Intl.DateTimeFormat(intlLocale(), {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(date);
}

/** A moment as the display language writes it, local time (`Date.toLocaleString` in English, as before). */
export function formatMoment(date: Date): string {
  return isEnglish() ? date.toLocaleString() : date.toLocaleString(intlLocale());
}

/**
 * How words shared by the user and the agent are said: a function that says them takes `t: Say`
 * (named `t`, so its keys are collected like any call of `t`); the user's callers pass `t`, the
 * agent's text, which stays English by rule, passes `english`.
 */
export type Say = (message: string, ...args: Argument[]) => string;

/** The English text with its placeholders filled, whatever the display language. */
export const english: Say = (message, ...args) => formatMessage(message, args);
