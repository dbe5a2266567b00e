/**
 * Checks of input the type system cannot vouch for: command arguments (from keybindings, tasks,
 * other extensions, menus) and the agent's tool input. Each schema turns `unknown` into a typed
 * value or one sentence naming the field that is wrong, so a command and a tool that take the
 * same input share one schema and say the same thing. Pure (no `vscode`), tested in Node.
 */

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export interface Schema<T> {
  check(value: unknown): Checked<T>;
}

/** The type a schema gives. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

export const valid = <T>(value: T): Checked<T> => ({ ok: true, value });
export const invalid = (problem: string): Checked<never> => ({ ok: false, problem });

export function schema<T>(check: (value: unknown) => Checked<T>): Schema<T> {
  return { check };
}

/** The value, or throws `error(problem)`: for callers whose errors are reported (commands). */
export function parse<T>(s: Schema<T>, value: unknown, error: (problem: string) => Error = (p) => new TypeError(p)): T {
  const checked = s.check(value);
  if (!checked.ok) throw error(checked.problem);
  return checked.value;
}

/** Anything: for arguments whose shape the command reads itself (tree items). */
export function anything<T>(read: (value: unknown) => T): Schema<T> {
  return schema((value) => valid(read(value)));
}

export function text(problem: string): Schema<string> {
  return schema((value) => (typeof value === 'string' ? valid(value) : invalid(problem)));
}

export function boolean(problem: string): Schema<boolean> {
  return schema((value) => (typeof value === 'boolean' ? valid(value) : invalid(problem)));
}

/** One of fixed words. */
export function oneOf<const V extends string>(values: readonly V[], problem: string): Schema<V> {
  return schema((value) => (typeof value === 'string' && (values as readonly string[]).includes(value) ? valid(value as V) : invalid(problem)));
}

/** A whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number, problem: string): Schema<number> {
  return schema((value) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max ? valid(value) : invalid(problem)));
}

/** An id: a whole number, or a string of digits (what a link or a model may give). */
export function id(problem: string): Schema<number> {
  return schema((value) => {
    const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? valid(n) : invalid(problem);
  });
}

/** A list whose every item passes `item`; `notList` when it is no list, else the item's problem. */
export function listOf<T>(item: Schema<T>, notList: string, badItem?: string): Schema<T[]> {
  return schema((value) => {
    if (!Array.isArray(value)) return invalid(notList);
    const out: T[] = [];
    for (const entry of value as unknown[]) {
      const checked = item.check(entry);
      if (!checked.ok) return invalid(badItem ?? checked.problem);
      out.push(checked.value);
    }
    return valid(out);
  });
}

/** `undefined` passes as itself. */
export function optional<T>(inner: Schema<T>): Schema<T | undefined> {
  return schema((value) => (value === undefined ? valid(undefined) : inner.check(value)));
}

/** One more rule on a checked value (between fields, say). */
export function refine<T>(inner: Schema<T>, problem: (value: T) => string | undefined): Schema<T> {
  return schema((value) => {
    const checked = inner.check(value);
    if (!checked.ok) return checked;
    const wrong = problem(checked.value);
    return wrong === undefined ? checked : invalid(wrong);
  });
}

/** Another shape after checking (ids from links, say). */
export function map<T, U>(inner: Schema<T>, to: (value: T) => U): Schema<U> {
  return schema((value) => {
    const checked = inner.check(value);
    return checked.ok ? valid(to(checked.value)) : checked;
  });
}

type Fields = Record<string, Schema<unknown>>;
type OptionalKeys<F extends Fields> = { [K in keyof F]: undefined extends Infer<F[K]> ? K : never }[keyof F];
type RequiredKeys<F extends Fields> = Exclude<keyof F, OptionalKeys<F>>;
/** Fields that may be undefined are optional. */
export type ObjectOf<F extends Fields> = { -readonly [K in RequiredKeys<F>]: Infer<F[K]> } & { -readonly [K in OptionalKeys<F>]?: Infer<F[K]> };

/**
 * An object with these fields, checked in order (the first wrong one is said); every field is
 * in the result, undefined when absent. Other keys are refused when `closed` says how to name
 * the ones there are, so a misspelt option is an error rather than a prompt.
 */
export function object<F extends Fields>(fields: F, notObject: string, closed?: (unknown: string, known: string) => string): Schema<ObjectOf<F>> {
  return schema((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid(notObject);
    const raw = value as Record<string, unknown>;
    if (closed) {
      const extra = Object.keys(raw).find((key) => !(key in fields));
      if (extra !== undefined) return invalid(closed(extra, Object.keys(fields).join(', ')));
    }
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      const checked = field.check(raw[key]);
      if (!checked.ok) return checked;
      out[key] = checked.value;
    }
    return valid(out as ObjectOf<F>);
  });
}

/** A command's arguments: one schema per position. */
export type ArgumentsSchema<T extends readonly unknown[]> = Schema<T>;

export function argumentList<T extends unknown[]>(...positions: { [I in keyof T]: Schema<T[I]> }): ArgumentsSchema<T> {
  return schema((value) => {
    const given = Array.isArray(value) ? (value as unknown[]) : [];
    const out: unknown[] = [];
    for (const [i, position] of (positions as Schema<unknown>[]).entries()) {
      const checked = position.check(given[i]);
      if (!checked.ok) return checked;
      out.push(checked.value);
    }
    return valid(out as T);
  });
}

/** The sentence for an option a command does not take (`object`'s `closed`), naming what it takes. */
export const noSuchOption =
  (command: string) =>
  (extra: string, known: string): string =>
    `${command} has no option ${JSON.stringify(extra)} (it takes ${known}).`;
