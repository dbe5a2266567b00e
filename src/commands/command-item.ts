/**
 * What a command is run on, read once from whatever it was given: a tree node (and, from a
 * view's context menu, every selected node), a diagnostic, a quick fix's or hover's `{ finding }`
 * or `{ findingRef }`, a Finding, a Project, or text (a project name, severity, rule or path, by
 * command). Handlers take this typed record; nothing else unwraps arguments. Pure, tested in Node.
 */
import type { Finding, IssueType, Project } from '../core/model/types';
import { isIssueType } from '../core/model/finding-kinds';

export interface CommandItem {
  /** The argument itself when it is text: a project name, a severity, a rule id or a path, by command. */
  readonly text?: string;
  /** A finding node's, a diagnostic's or `{ finding }`'s finding, or a Finding itself. */
  readonly finding?: Finding;
  /** A finding named by reference (a hover's command link): looked up in the store by the command map. */
  readonly findingRef?: { readonly issueType: IssueType; readonly id: number };
  /** A project node's project, or a Project. */
  readonly project?: Project;
  /** A findings group node: what it is grouped by, its key and its findings. */
  readonly group?: { readonly by?: string; readonly key?: string; readonly findings: readonly Finding[] };
  /** A policy rule node's rule id, platform page and the id of the policy it is shown under. */
  readonly rule?: { readonly path?: string; readonly url?: string; readonly policyId?: string };
  /** The item's link: its project's, rule's or policy's, else its own `url`. */
  readonly url?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const stringIn = (value: unknown, key: string): string | undefined => (isObject(value) && typeof value[key] === 'string' ? value[key] : undefined);

function findingOf(value: unknown): Finding | undefined {
  if (!isObject(value)) return undefined;
  const candidate = 'finding' in value ? value.finding : value;
  return isObject(candidate) && 'ruleName' in candidate && 'issueType' in candidate ? (candidate as unknown as Finding) : undefined;
}

function projectOf(value: unknown): Project | undefined {
  if (!isObject(value)) return undefined;
  const candidate = 'project' in value ? value.project : value;
  return isObject(candidate) && typeof candidate.id === 'number' && typeof candidate.name === 'string' ? (candidate as unknown as Project) : undefined;
}

function findingRefOf(value: unknown): CommandItem['findingRef'] {
  const ref = isObject(value) ? value.findingRef : undefined;
  if (!isObject(ref) || typeof ref.id !== 'number') return undefined;
  return isIssueType(ref.issueType) ? { issueType: ref.issueType, id: ref.id } : undefined;
}

function groupOf(value: unknown): CommandItem['group'] {
  const group = isObject(value) ? value.group : undefined;
  if (!isObject(group) || !isObject(value)) return undefined;
  const findings = Array.isArray(group.findings) ? ((group.findings as unknown[]).filter((f) => findingOf(f) !== undefined) as Finding[]) : [];
  return { by: stringIn(value, 'groupBy'), key: stringIn(group, 'key'), findings };
}

/** Reads any argument; what it does not recognise is simply absent. */
export function itemOf(value: unknown): CommandItem {
  if (typeof value === 'string') return { text: value };
  if (!isObject(value)) return {};
  const item: { -readonly [K in keyof CommandItem]: CommandItem[K] } = {};
  const finding = findingOf(value);
  if (finding) item.finding = finding;
  const findingRef = findingRefOf(value);
  if (findingRef) item.findingRef = findingRef;
  const project = projectOf(value);
  if (project) item.project = project;
  const group = groupOf(value);
  if (group) item.group = group;
  if (isObject(value.rule)) {
    const policyId = stringIn(value.policy, 'id');
    item.rule = { path: stringIn(value.rule, 'path'), url: stringIn(value.rule, 'url'), ...(policyId === undefined ? {} : { policyId }) };
  }
  const url = stringIn(value.project, 'url') ?? stringIn(value.rule, 'url') ?? stringIn(value.policy, 'url') ?? stringIn(value, 'url');
  if (url !== undefined) item.url = url;
  return item;
}

/** A view's selection, passed after the clicked item from a context menu: undefined when it is no list. */
export function itemsOf(value: unknown): CommandItem[] | undefined {
  return Array.isArray(value) ? (value as unknown[]).map(itemOf) : undefined;
}

/** The key of a group node grouped `by` (a rule group's rule, say). */
export function groupKey(item: CommandItem | undefined, by: string): string | undefined {
  return item?.group?.by === by ? item.group.key : undefined;
}

/** The findings of the items: each one's finding, or every finding of a group. */
export function findingsOf(items: readonly CommandItem[]): Finding[] {
  return items.flatMap((item) => (item.finding ? [item.finding] : (item.group?.findings ?? [])));
}
