/**
 * The rules of a project's tags, in one place: what a tag may be, tags typed comma-separated,
 * and an edit (tags added and removed) planned against the tags the project has. Pure.
 */

const MAX_TAGS_AT_ONCE = 50;
const MAX_TAG_LENGTH = 100;

/** What is wrong with one tag, or undefined when the platform takes it. */
export function checkTag(tag: string): string | undefined {
  if (tag.length > MAX_TAG_LENGTH) return `"${tag.slice(0, 20)}…" is longer than ${MAX_TAG_LENGTH} characters.`;
  if (!/^[\p{L}\p{N}][\p{L}\p{N}_.:/@+-]*$/u.test(tag)) {
    return `"${tag}" has characters a tag cannot have. Use letters, digits and - _ . : / @ +, starting with a letter or digit.`;
  }
  return undefined;
}

/** Checks tags given one by one: de-duplicated in the order given, each checked. Tags, or a message. */
export function checkTags(given: readonly string[]): string[] | string {
  const tags = [...new Set(given)];
  if (tags.length > MAX_TAGS_AT_ONCE) return `At most ${MAX_TAGS_AT_ONCE} tags at once.`;
  for (const tag of tags) {
    const problem = checkTag(tag);
    if (problem) return problem;
  }
  return tags;
}

/** Validates tags typed as "a, b ,a": trimmed, de-duplicated, each checked. Returns tags or a message. */
export function parseTags(input: string): string[] | string {
  const tags = input.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
  if (tags.length === 0) return 'Type at least one tag, e.g. "team-payments, pci".';
  return checkTags(tags);
}

/** Tags typed where typing nothing is allowed (no tags to add): the tags, or what is wrong. */
export function typedTags(input: string): string[] | string {
  return input.split(',').every((t) => t.trim() === '') ? [] : parseTags(input);
}

/** What an edit sends: tags the project lacks to add, tags it has to remove. */
export interface TagEdit {
  readonly add: readonly string[];
  readonly remove: readonly string[];
  /** Asked to be added, but the project has them already. */
  readonly had: readonly string[];
  /** Asked to be removed, but the project does not have them. */
  readonly lacked: readonly string[];
}

/**
 * Plans adding and removing tags on a project that has `current`. Every tag added is checked;
 * a tag removed is checked only when the project lacks it (one the platform holds is taken as
 * it is). A tag both added and removed is refused. A plan with nothing to add or remove sends nothing.
 */
export function planTagEdit(current: readonly string[], add: readonly string[], remove: readonly string[]): TagEdit | string {
  const added = checkTags(add.map((t) => t.trim()));
  if (typeof added === 'string') return added;
  const has = new Set(current);
  const removed = [...new Set(remove.map((t) => (has.has(t) ? t : t.trim())))];
  for (const tag of removed) {
    const problem = has.has(tag) ? undefined : checkTag(tag);
    if (problem) return problem;
  }
  const both = added.find((tag) => removed.includes(tag));
  if (both !== undefined) return `"${both}" is both added and removed: choose one.`;
  return {
    add: added.filter((t) => !has.has(t)),
    remove: removed.filter((t) => has.has(t)),
    had: added.filter((t) => has.has(t)),
    lacked: removed.filter((t) => !has.has(t)),
  };
}

/** The tags after an edit, as the platform orders them: those kept, then those added. */
export function tagsAfter(current: readonly string[], edit: Pick<TagEdit, 'add' | 'remove'>): string[] {
  const removed = new Set(edit.remove);
  return [...current.filter((t) => !removed.has(t)), ...edit.add.filter((t) => !current.includes(t))];
}
