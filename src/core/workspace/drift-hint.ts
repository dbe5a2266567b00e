/**
 * Until findings are mapped onto today's code, a diagnostic sits at the line of the scanned
 * commit. Where the copy in the editor may differ from that commit, say so rather than claim a
 * precision we do not have.
 */

/**
 * The commit a code host's link to the scanned line names: GitHub `…/blob/<sha>/…`, GitLab
 * `…/-/blob/<sha>/…`, Bitbucket `…/src/<sha>/…`, Azure DevOps `…?version=GC<sha>`. A link that
 * names a branch instead gives nothing (the scans endpoint is asked then).
 */
export function scannedCommitOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  // Each drawing asks this of every finding, and a scan's findings name one commit: the commit
  // found last is checked in place first (no regex, no substrings; docs/performance.md, "Drawing diagnostics").
  const blob = url.indexOf('/blob/');
  const last = lastFound;
  if (
    blob >= 0 &&
    last !== undefined &&
    url.startsWith(last, blob + 6) &&
    url.charCodeAt(blob + 6 + last.length) === SLASH &&
    url.lastIndexOf('/src/', blob) < 0
  )
    return last;
  const found = commitByPattern(url);
  if (found !== undefined) lastFound = found;
  return found;
}
const SLASH = 0x2f;
let lastFound: string | undefined;

function commitByPattern(url: string): string | undefined {
  const match = /\/(?:blob|src)\/([0-9a-f]{7,40})\//i.exec(url) ?? /[?&]version=GC([0-9a-f]{7,40})(?:&|#|$)/i.exec(url);
  const commit = match?.[1]?.toLowerCase();
  if (commit === undefined) return undefined;
  // One string per commit: the 50 000 findings of a scan (and their diagnostics) share it.
  let shared = commits.get(commit);
  if (shared === undefined) {
    if (commits.size >= 1024) commits.clear();
    commits.set(commit, (shared = commit));
  }
  return shared;
}
const commits = new Map<string, string>();

export interface CopyState {
  /** The commit of the finding's scan, when its link names one. */
  readonly scanned?: string;
  /** The commit checked out in the workspace folder, when git knows it. */
  readonly head?: string;
  /** The open document has unsaved edits. */
  readonly dirty: boolean;
}

/** A sentence for the hover when the place may have moved; undefined when the copy is the scanned one. */
export function driftHint(state: CopyState): string | undefined {
  const scanned = state.scanned?.slice(0, 7);
  const reasons: string[] = [];
  if (state.dirty) reasons.push('this file has unsaved edits');
  if (state.scanned && state.head && !sameCommit(state.scanned, state.head)) reasons.push(`this copy is at commit ${state.head.slice(0, 7)}`);
  if (reasons.length === 0) return undefined;
  const origin = scanned ? `the scan of commit ${scanned}` : 'the last scan';
  return `Placed at its line in ${origin}; ${reasons.join(' and ')}, so the code it points at may have moved.`;
}

/** Full and abbreviated SHAs name one commit when one starts with the other. */
function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x.startsWith(y) || y.startsWith(x);
}
