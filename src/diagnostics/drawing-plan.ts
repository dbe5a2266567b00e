/**
 * Plans one drawing of Problems: every folder's findings planned (core/workspace/diagnostic-plan.ts)
 * and placed in today's code, by file, a slice at a time, the files open in editors first. The
 * controller runs the slices on turns of their own and hands the result to VS Code.
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import { confinePath, firstPlacePath, planDiagnostics, type PlannedDiagnostic, type SeverityMapping } from '../core/workspace/diagnostic-plan';
import { placeDiagnostic } from '../core/workspace/placement';
import type { Logger } from '../host/logger';
import type { WorkspaceRepo } from '../host/workspace-repos';
import type { FindingPlaces } from '../code-places/finding-places';
import { shownInProblems, type FolderFindings } from '../core/services/folder-view';

/** A diagnostic placed in today's code, built into a vscode.Diagnostic when it is handed over. */
export interface Placed {
  readonly planned: PlannedDiagnostic;
  readonly folder: vscode.Uri;
  readonly changed: boolean;
  readonly commit: string | undefined;
  readonly scannedLine: number;
}

/**
 * Findings planned and placed per slice. Smaller slices keep each turn's stall short; larger ones
 * plan no sooner (docs/performance.md, "Drawing diagnostics").
 */
export const PLAN_SLICE = 2000;

/** One drawing, planned: the diagnostics by file, what to place again on an edit, how many are gone, what to map. */
export interface Planned {
  readonly byUri: Map<string, [vscode.Uri, Placed[]]>;
  readonly sources: Map<string, FileSource[]>;
  readonly gone: number;
  /** The scanned files to map onto today's code, per folder and commit. */
  readonly wanted: readonly { readonly folder: vscode.WorkspaceFolder; readonly commit: string; readonly paths: ReadonlySet<string> }[];
}

/** One folder's planning state: the files seen (by path as drawn) and the scanned files to map. */
interface FolderPlan {
  readonly repo: WorkspaceRepo;
  readonly wanted: Map<string, Set<string>>;
  readonly files: Map<string, { uri: vscode.Uri; key: string; source: FileSource }>;
}

/** The diagnostics of the files open in editors, planned before the rest and shown first. */
export type Preview = readonly (readonly [vscode.Uri, readonly Placed[]])[];

/**
 * The findings drawn in one file (of one folder), planned again when the file is edited: keeping
 * the findings rather than their planned diagnostics keeps less alive per finding
 * (docs/performance.md, "Memory").
 */
export interface FileSource {
  readonly repo: WorkspaceRepo;
  readonly findings: Finding[];
}

/** What a drawing is planned with: where findings are today, where to warn, and the settings. */
export interface DrawingContext {
  readonly places: FindingPlaces;
  readonly log: Logger;
  readonly mapping: SeverityMapping;
  readonly options: { readonly unreachableLevel?: 'information' };
}

/** Where a planned diagnostic is in today's code (undefined: its code is gone), and the commit it was scanned at. */
export function placeToday(places: FindingPlaces, repo: WorkspaceRepo, planned: PlannedDiagnostic): { commit: string | undefined; placed: Placed | undefined } {
  const commit = places.commitOf(planned.finding, repo);
  const today = placeDiagnostic(planned, places.placer(repo, commit));
  return { commit, placed: today && { planned: today.planned, folder: repo.folder.uri, changed: today.changed, commit, scannedLine: planned.range.startLine } };
}

/**
 * Plans and places every folder's findings, pausing (yielding) between slices. When there is more
 * than one slice, the findings in the files open in editors are planned first and yielded on
 * their own, so they are shown before the rest is planned.
 */
export function* planDrawing(folders: readonly FolderFindings<WorkspaceRepo>[], context: DrawingContext): Generator<Preview | undefined, Planned, void> {
  const byUri = new Map<string, [vscode.Uri, Placed[]]>();
  const sources = new Map<string, FileSource[]>();
  const { mapping, options } = context;
  let gone = 0;
  const lists = folders.map(shownInProblems);
  const total = lists.reduce((n, list) => n + list.length, 0);

  const planSlice = (folder: FolderPlan, slice: readonly Finding[]): void => {
    const { repo, wanted, files } = folder;
    const plan = planDiagnostics(slice, mapping, options);
    for (const path of plan.refused) context.log.warn(`Refused a finding path outside the folder ${repo.folder.name}: ${JSON.stringify(path)}`);
    for (const planned of plan.diagnostics) {
      const { commit, placed } = placeToday(context.places, repo, planned);
      if (commit) {
        let paths = wanted.get(commit);
        if (!paths) wanted.set(commit, (paths = new Set()));
        paths.add(planned.relativePath);
        if (planned.related) paths.add(planned.related.relativePath);
      }
      // One Uri (and its text) per file, not per finding: thousands of findings share a few files.
      const relative = placed?.planned.relativePath ?? planned.relativePath;
      let file = files.get(relative);
      if (!file) {
        const uri = vscode.Uri.joinPath(repo.folder.uri, relative);
        const key = uri.toString();
        const source: FileSource = { repo, findings: [] };
        const kept = sources.get(key);
        if (kept) kept.push(source);
        else sources.set(key, [source]);
        files.set(relative, (file = { uri, key, source }));
      }
      const { uri, key } = file;
      file.source.findings.push(planned.finding);
      if (!placed) {
        gone++;
        continue;
      }
      let entry = byUri.get(key);
      if (!entry) byUri.set(key, (entry = [uri, []]));
      entry[1].push(placed);
    }
  };
  let sinceYield = 0;
  function* inSlices(folder: FolderPlan, findings: readonly Finding[]): Generator<undefined, void, void> {
    for (let start = 0; start < findings.length; start += PLAN_SLICE) {
      if (sinceYield >= PLAN_SLICE) {
        yield undefined;
        sinceYield = 0;
      }
      const slice = findings.slice(start, start + PLAN_SLICE);
      planSlice(folder, slice);
      sinceYield += slice.length;
    }
  }

  const plans: FolderPlan[] = folders.map((folder) => ({ repo: folder.repo, wanted: new Map(), files: new Map() }));
  const open = total > PLAN_SLICE ? openDocumentKeys() : new Set<string>();
  // In one turn: the sort is short, and each turn given away here puts the open files'
  // diagnostics behind other work (docs/performance.md, "Drawing diagnostics").
  const split = lists.map((list, i) => (open.size > 0 ? splitByFile(list, plans[i].repo.folder.uri, open) : { first: [], rest: list }));
  if (split.some(({ first }) => first.length > 0)) {
    for (const [i, { first }] of split.entries()) yield* inSlices(plans[i], first);
    yield [...open].map((key) => byUri.get(key)).filter((entry) => entry !== undefined);
  }
  for (const [i, { rest }] of split.entries()) yield* inSlices(plans[i], rest);
  const wanted = plans.flatMap(({ repo, wanted: paths }) => [...paths].map(([commit, scanned]) => ({ folder: repo.folder, commit, paths: scanned })));
  return { byUri, sources, gone, wanted };
}

/** The documents open in editors, visible ones first. */
export function openDocumentKeys(): Set<string> {
  return new Set([...vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()), ...vscode.workspace.textDocuments.map((d) => d.uri.toString())]);
}

/** The findings whose place (as planned) is one of these open documents, and the others. */
function splitByFile(findings: readonly Finding[], folder: vscode.Uri, open: ReadonlySet<string>): { first: readonly Finding[]; rest: readonly Finding[] } {
  const prefix = folder.toString() + '/';
  if (![...open].some((key) => key.startsWith(prefix))) return { first: [], rest: findings };
  const isOpen = new Map<string, boolean>();
  const first: Finding[] = [];
  const rest: Finding[] = [];
  for (const finding of findings) {
    // Supply-chain findings go to their usage or lockfile line; the rest to their location.
    const path = firstPlacePath(finding);
    let inOpen = path === undefined ? false : isOpen.get(path);
    if (inOpen === undefined && path !== undefined) {
      const confined = confinePath(path);
      isOpen.set(path, (inOpen = confined !== undefined && open.has(vscode.Uri.joinPath(folder, confined).toString())));
    }
    (inOpen ? first : rest).push(finding);
  }
  return { first, rest };
}
