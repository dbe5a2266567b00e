/**
 * The branches offered by "Show Findings of Branch…", in the order a user looks for them: the
 * one shown now, the primary branch, the default branch, the workspace's local branches, the
 * branches the platform scanned, then refs seen on loaded findings. Each branch once, by its short
 * name, marked scanned or not once the platform has said.
 */
import { branchName } from '../model/refs';

export interface RefChoice {
  readonly label: string;
  readonly description?: string;
  readonly ref: string;
}

export function refChoices(from: {
  readonly primary?: string;
  readonly defaultBranch?: string;
  readonly current?: string;
  readonly local: readonly string[];
  readonly loaded: readonly (string | undefined)[];
  /** The branches the platform has scans of, when it said (the Set Primary Branch picker's list). */
  readonly scanned?: readonly string[];
}): RefChoice[] {
  const notes = new Map<string, string[]>();
  const order: string[] = [];
  const add = (ref: string | undefined, note: string): void => {
    if (!ref) return;
    const name = branchName(ref);
    if (!notes.has(name)) {
      notes.set(name, []);
      order.push(name);
    }
    const list = notes.get(name) as string[];
    if (!list.includes(note)) list.push(note);
  };
  add(from.current, 'shown now');
  add(from.primary, 'primary branch');
  add(from.defaultBranch, 'default branch');
  for (const ref of from.local) add(ref, 'local branch');
  for (const ref of from.scanned ?? []) add(ref, 'scanned');
  for (const ref of from.loaded) add(ref, ref?.startsWith('refs/pull/') ? 'pull request' : 'has findings');
  // Once the platform said which branches it scanned, a branch it did not is said to be so.
  // A ref with findings loaded was scanned, whatever the list of recent scans says.
  const scanned = from.scanned && new Set([...from.scanned, ...from.loaded.filter((ref): ref is string => ref !== undefined)].map(branchName));
  if (scanned) for (const ref of order) if (!scanned.has(ref) && !ref.startsWith('refs/pull/')) notes.get(ref)?.push('no recent scan');
  return order.map((ref) => ({ label: ref, description: (notes.get(ref) ?? []).join(' · '), ref }));
}
