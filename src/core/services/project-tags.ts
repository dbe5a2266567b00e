/**
 * The rules of a project's tags, in one place: what a tag may be, tags typed comma-separated,
 * and an edit (tags added and removed) planned against the tags the project has. Pure. What is
 * wrong is said in both languages (`said`): the input boxes show the display language's text, a
 * refused change carries the English too, which the log and the agent's tools read.
 */
import { said, t, type Said } from '../l10n';

const MAX_TAGS_AT_ONCE = 50;
const MAX_TAG_LENGTH = 100;

/** What is wrong with one tag, or undefined when the platform takes it. */
function tagProblem(tag: string): Said | undefined {
  if (tag.length > MAX_TAG_LENGTH) return said('"{0}…" is longer than {1} characters.', tag.slice(0, 20), MAX_TAG_LENGTH);
  if (!/^[\p{L}\p{N}][\p{L}\p{N}_.:/@+-]*$/u.test(tag)) {
    return said('"{0}" has characters a tag cannot have. Use letters, digits and {1}, starting with a letter or digit.', tag, '- _ . : / @ +');
  }
  return undefined;
}

/** Tags given one by one: de-duplicated in the order given, each checked. Tags, or what is wrong. */
function tagsOrProblem(given: readonly string[]): string[] | Said {
  const tags = [...new Set(given)];
  if (tags.length > MAX_TAGS_AT_ONCE) return said('At most {0} tags at once.', MAX_TAGS_AT_ONCE);
  for (const tag of tags) {
    const problem = tagProblem(tag);
    if (problem) return problem;
  }
  return tags;
}

/** What is wrong with one tag (in the display language), or undefined when the platform takes it. */
export function checkTag(tag: string): string | undefined {
  return tagProblem(tag)?.text;
}

/** Checks tags given one by one: de-duplicated in the order given, each checked. Tags, or a message. */
export function checkTags(given: readonly string[]): string[] | string {
  const tags = tagsOrProblem(given);
  return Array.isArray(tags) ? tags : tags.text;
}

/** Validates tags typed as "a, b ,a": trimmed, de-duplicated, each checked. Returns tags or a message. */
export function parseTags(input: string): string[] | string {
  const tags = input
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  if (tags.length === 0) return t('Type at least one tag, e.g. "{0}".', 'team-payments, pci');
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
export function planTagEdit(current: readonly string[], add: readonly string[], remove: readonly string[]): TagEdit | Said {
  const added = tagsOrProblem(add.map((tag) => tag.trim()));
  if (!Array.isArray(added)) return added;
  const has = new Set(current);
  const removed = [...new Set(remove.map((tag) => (has.has(tag) ? tag : tag.trim())))];
  for (const tag of removed) {
    const problem = has.has(tag) ? undefined : tagProblem(tag);
    if (problem) return problem;
  }
  const both = added.find((tag) => removed.includes(tag));
  if (both !== undefined) return said('"{0}" is both added and removed: choose one.', both);
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
