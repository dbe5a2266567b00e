/**
 * Branch names as the platform spells them. Projects name their branches `refs/heads/main`,
 * findings name theirs `main` (or a pull-request ref such as `refs/pull/1234/merge`), and the
 * local git branch is `main`: branches are compared and shown by their short name, and a
 * request may need either spelling (see `RefSpelling` in the findings service).
 */

const HEADS = 'refs/heads/';

/** `refs/heads/main` → `main`; any other ref (a pull-request ref, a tag, `main`) as it is. */
export function branchName(ref: string): string {
  return ref.startsWith(HEADS) && ref.length > HEADS.length ? ref.slice(HEADS.length) : ref;
}

/** `main` → `refs/heads/main`; undefined for refs that are not plain branch names (`refs/…`). */
export function fullBranchRef(ref: string): string | undefined {
  const name = branchName(ref);
  return name.startsWith('refs/') ? undefined : HEADS + name;
}

/** True when both name the same branch, whichever spelling each uses. */
export function sameBranch(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && branchName(a) === branchName(b);
}

/** How a deployment's findings spell branch refs: `short` (`main`) or `full` (`refs/heads/main`). */
export type RefSpelling = 'short' | 'full';

/** The ref spelled the given way; refs that are not branch names stay as they are. */
export function spellRef(ref: string, spelling: RefSpelling): string {
  return spelling === 'full' ? (fullBranchRef(ref) ?? ref) : branchName(ref);
}

/** The spelling a ref uses, or undefined when it is not a branch (pull-request refs, tags). */
export function spellingOf(ref: string): RefSpelling | undefined {
  if (ref.startsWith(HEADS)) return 'full';
  return ref.startsWith('refs/') ? undefined : 'short';
}

/** The branch the platform scans for a project: its primary branch, else its default one. */
export function primaryRef(project: { readonly primaryBranch?: string; readonly defaultBranch?: string } | undefined): string | undefined {
  return project?.primaryBranch ?? project?.defaultBranch;
}

/**
 * Which ref's findings a place shows, and the one to fall back to when that ref has no scan:
 * the chosen ref (a tree override, the folder's checked-out branch), else the primary branch;
 * the fallback is the primary branch when it is another branch.
 */
export function refToShow(
  chosen: string | undefined,
  project: Parameters<typeof primaryRef>[0],
): { readonly ref: string | undefined; readonly fallback: string | undefined } {
  const primary = primaryRef(project);
  const ref = chosen ?? primary;
  return { ref, fallback: primary !== undefined && !sameBranch(ref, primary) ? primary : undefined };
}
