/**
 * Plans one drawing of Problems: every folder's findings planned (core/workspace/diagnostic-plan.ts)
 * and placed in today's code, by file, a slice at a time, the files open in editors first. The
 * controller runs the slices on turns of their own and hands the result to VS Code.
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import { confinePath, firstReportedPath, planDiagnostics, type PlannedDiagnostic, type SeverityMapping } from '../core/workspace/diagnostic-plan';
import { placeDiagnostic } from '../core/workspace/placement';
import type { Logger } from '../host/logger';
import type { WorkspaceRepo } from '../host/workspace-repos';
import type { FindingPlaces } from '../code-places/finding-places';
import { shownInProblems, type FolderFindings } from '../core/services/folder-view';
import { sameList, sameRepo, type DrawnPath, type DrawnPaths, type FileSource } from './kept-drawing';

export type { DrawnPath, DrawnPaths, FileSource };

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
  /** The files whose diagnostics are built and handed over. */
  readonly byUri: Map<string, [vscode.Uri, Placed[]]>;
  /** The files left as the last drawing drew them (their findings are the same), with their count. */
  readonly kept: Map<string, [vscode.Uri, number]>;
  readonly sources: Map<string, FileSource[]>;
  readonly gone: number;
  /** The scanned files to map onto today's code, per folder and commit. */
  readonly wanted: readonly { readonly folder: vscode.WorkspaceFolder; readonly commit: string; readonly paths: ReadonlySet<string> }[];
  /** What this drawing planned per scanned file, for the next one. */
  readonly paths: DrawnPaths;
}

/** One folder's planning state: the files seen (by path as drawn) and the scanned files to map. */
interface FolderPlan {
  readonly repo: WorkspaceRepo;
  readonly wanted: Map<string, Set<string>>;
  readonly files: Map<string, { uri: vscode.Uri; key: string; source: FileSource }>;
}

/** The diagnostics of the files open in editors, planned before the rest and shown first. */
export type Preview = readonly (readonly [vscode.Uri, readonly Placed[]])[];

/** What a drawing is planned with: where findings are today, where to warn, and the settings. */
export interface DrawingContext {
  readonly places: FindingPlaces;
  readonly log: Logger;
  readonly mapping: SeverityMapping;
  readonly options: { readonly unreachableLevel?: 'information' };
  /** The last drawing's plan per scanned file, when it was made with the same inputs and handed over whole. */
  readonly previous?: DrawnPaths;
  /** Files drawn on their own since (an edit, a trace read): planned again. */
  readonly redrawn?: ReadonlySet<string>;
  /** A finding whose diagnostic lists its trace: its file is never kept (the trace is known apart from the findings). */
  readonly traced?: (finding: Finding) => boolean;
}

/** Where a planned diagnostic is in today's code (undefined: its code is gone), and the commit it was scanned at. */
export function placeToday(places: FindingPlaces, repo: WorkspaceRepo, planned: PlannedDiagnostic): { commit: string | undefined; placed: Placed | undefined } {
  const commit = places.commitOf(planned.finding, repo);
  const today = placeDiagnostic(planned, places.placer(repo, commit));
  return { commit, placed: today && { planned: today.planned, folder: repo.folder.uri, changed: today.changed, commit, scannedLine: planned.range.startLine } };
}

/** One file's findings placed again (an edit, a trace read): work per finding of that file. */
export function placeSources(places: FindingPlaces, sources: readonly FileSource[], mapping: SeverityMapping, options: DrawingContext['options']): Placed[] {
  const placedList: Placed[] = [];
  for (const { repo, findings } of sources) {
    for (const planned of planDiagnostics(findings, mapping, options).diagnostics) {
      const { placed } = placeToday(places, repo, planned);
      if (placed) placedList.push(placed);
    }
  }
  return placedList;
}

/** "29 in 12 files (11 files as they were); 2 no longer in this copy", for the log. */
export function describePlanned({ byUri, kept, gone }: Planned): string {
  const count = [...byUri.values()].reduce((n, [, d]) => n + d.length, 0) + [...kept.values()].reduce((n, [, shown]) => n + shown, 0);
  return `${count} in ${byUri.size + kept.size} files${kept.size > 0 ? ` (${kept.size} files as they were)` : ''}${gone > 0 ? `; ${gone} no longer in this copy` : ''}`;
}

/** A scanned file's findings, as one drawing groups them. */
interface PathGroup {
  readonly plan: FolderPlan;
  /** The folder and the scanned path (empty for findings without one). */
  readonly id: string;
  readonly path: string;
  readonly findings: Finding[];
}

/** What planning one group touched, to record it for the next drawing. */
interface GroupTrace {
  /** Today's files its findings went to. */
  files: Set<{ uri: vscode.Uri; key: string; source: FileSource }>;
  shown: number;
  gone: number;
  /** Scanned paths by commit, to map onto today's code. */
  wanted: Map<string, Set<string>>;
}

/** Adds a scanned path to map at a commit. */
function want(byCommit: Map<string, Set<string>>, commit: string, path: string): void {
  let paths = byCommit.get(commit);
  if (!paths) byCommit.set(commit, (paths = new Set()));
  paths.add(path);
}

/**
 * Plans and places every folder's findings, pausing (yielding) between slices. When there is more
 * than one slice, the findings in the files open in editors are planned first and yielded on
 * their own, so they are shown before the rest is planned. A scanned file whose findings are
 * those the previous drawing drew is kept, not planned (`DrawnPath`).
 */
export function* planDrawing(folders: readonly FolderFindings<WorkspaceRepo>[], context: DrawingContext): Generator<Preview | undefined, Planned, void> {
  const byUri = new Map<string, [vscode.Uri, Placed[]]>();
  const kept = new Map<string, [vscode.Uri, number]>();
  const sources = new Map<string, FileSource[]>();
  const paths = new Map<string, DrawnPath>();
  const { mapping, options, previous } = context;
  let gone = 0;
  const lists = folders.map(shownInProblems);
  const total = lists.reduce((n, list) => n + list.length, 0);
  const plans: FolderPlan[] = folders.map((folder) => ({ repo: folder.repo, wanted: new Map(), files: new Map() }));
  const traces = new Map<PathGroup, GroupTrace>();

  const planSlice = (group: PathGroup, trace: GroupTrace, slice: readonly Finding[]): void => {
    const { repo, wanted, files } = group.plan;
    const plan = planDiagnostics(slice, mapping, options);
    for (const path of plan.refused) context.log.warn(`Refused a finding path outside the folder ${repo.folder.name}: ${JSON.stringify(path)}`);
    for (const planned of plan.diagnostics) {
      const { commit, placed } = placeToday(context.places, repo, planned);
      if (commit) {
        for (const path of planned.related ? [planned.relativePath, planned.related.relativePath] : [planned.relativePath]) {
          want(wanted, commit, path);
          want(trace.wanted, commit, path);
        }
      }
      // One Uri (and its text) per file, not per finding: thousands of findings share a few files.
      const relative = placed?.planned.relativePath ?? planned.relativePath;
      let file = files.get(relative);
      if (!file) {
        const uri = vscode.Uri.joinPath(repo.folder.uri, relative);
        const key = uri.toString();
        const source: FileSource = { repo, findings: [] };
        const known = sources.get(key);
        if (known) known.push(source);
        else sources.set(key, [source]);
        files.set(relative, (file = { uri, key, source }));
      }
      const { uri, key } = file;
      trace.files.add(file);
      file.source.findings.push(planned.finding);
      if (!placed) {
        gone++;
        trace.gone++;
        continue;
      }
      trace.shown++;
      let entry = byUri.get(key);
      if (!entry) byUri.set(key, (entry = [uri, []]));
      entry[1].push(placed);
    }
  };
  let sinceYield = 0;
  function* planGroup(group: PathGroup): Generator<undefined, void, void> {
    const trace: GroupTrace = { files: new Set(), shown: 0, gone: 0, wanted: new Map() };
    traces.set(group, trace);
    for (let start = 0; start < group.findings.length; start += PLAN_SLICE) {
      if (sinceYield >= PLAN_SLICE) {
        yield undefined;
        sinceYield = 0;
      }
      const slice = start === 0 && group.findings.length <= PLAN_SLICE ? group.findings : group.findings.slice(start, start + PLAN_SLICE);
      planSlice(group, trace, slice);
      sinceYield += slice.length;
    }
  }
  // A group the last drawing drew the same: left as it is, once no planned group shares its file.
  const keptGroups: [PathGroup, DrawnPath][] = [];
  function* drawGroups(groups: readonly PathGroup[]): Generator<undefined, void, void> {
    for (const group of groups) {
      const before = group.path === '' ? undefined : previous?.get(group.id);
      if (before?.file && !context.redrawn?.has(before.file.key) && sameRepo(before.repo, group.plan.repo) && sameList(before.findings, group.findings))
        keptGroups.push([group, before]);
      else yield* planGroup(group);
    }
  }

  const open = total > PLAN_SLICE ? openDocumentKeys() : new Set<string>();
  // In one turn: grouping is short, and each turn given away here puts the open files'
  // diagnostics behind other work (docs/performance.md, "Drawing diagnostics").
  const grouped = lists.map((list, i) => groupByPath(plans[i], list, open));
  if (grouped.some(({ first }) => first.length > 0)) {
    for (const { first } of grouped) yield* drawGroups(first);
    yield [...open].map((key) => byUri.get(key)).filter((entry) => entry !== undefined);
  }
  for (const { rest } of grouped) yield* drawGroups(rest);
  // A kept file that a planned group also drew (two scanned files now drawn in one), or whose
  // trace was read since, is planned.
  for (const [group, before] of keptGroups) {
    if (byUri.has(before.file!.key) || sources.has(before.file!.key) || (context.traced && group.findings.some(context.traced))) {
      yield* planGroup(group);
      continue;
    }
    const { uri, key } = before.file!;
    const source: FileSource = { repo: group.plan.repo, findings: before.file!.source.findings };
    sources.set(key, [source]);
    if (before.shown > 0) kept.set(key, [uri, before.shown]);
    gone += before.gone;
    for (const [commit, scanned] of before.wanted) for (const path of scanned) want(group.plan.wanted, commit, path);
    paths.set(group.id, { ...before, repo: group.plan.repo, file: { uri, key, source } });
  }
  recordPlanned(traces, sources, paths, context.traced);
  const wanted = plans.flatMap(({ repo, wanted: byCommit }) => [...byCommit].map(([commit, scanned]) => ({ folder: repo.folder, commit, paths: scanned })));
  return { byUri, kept, sources, gone, wanted, paths };
}

/** Records each planned group for the next drawing: keepable when it drew in one file of its own. */
function recordPlanned(
  traces: ReadonlyMap<PathGroup, GroupTrace>,
  sources: ReadonlyMap<string, FileSource[]>,
  paths: Map<string, DrawnPath>,
  traced?: (finding: Finding) => boolean,
): void {
  const groupsPerKey = new Map<string, number>();
  for (const trace of traces.values()) for (const { key } of trace.files) groupsPerKey.set(key, (groupsPerKey.get(key) ?? 0) + 1);
  for (const [group, trace] of traces) {
    if (group.path === '') continue;
    const [file] = trace.files;
    const own = trace.files.size === 1 && groupsPerKey.get(file.key) === 1 && sources.get(file.key)?.length === 1 && !(traced && group.findings.some(traced));
    paths.set(group.id, {
      findings: group.findings,
      repo: group.plan.repo,
      shown: trace.shown,
      gone: trace.gone,
      file: own ? { uri: file.uri, key: file.key, source: file.source } : undefined,
      wanted: trace.wanted,
    });
  }
}

/** The documents open in editors, visible ones first. */
export function openDocumentKeys(): Set<string> {
  return new Set([...vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()), ...vscode.workspace.textDocuments.map((d) => d.uri.toString())]);
}

/**
 * A folder's findings by the scanned file they are drawn in (in their order), those in open
 * documents apart so they are planned first.
 */
function groupByPath(plan: FolderPlan, findings: readonly Finding[], open: ReadonlySet<string>): { first: PathGroup[]; rest: PathGroup[] } {
  const folder = plan.repo.folder.uri;
  const prefix = folder.toString() + '/';
  const anyOpen = [...open].some((key) => key.startsWith(prefix));
  const groups = new Map<string, PathGroup>();
  const first: PathGroup[] = [];
  const rest: PathGroup[] = [];
  for (const finding of findings) {
    // Supply-chain findings go to their usage or lockfile line; the rest to their location.
    const path = firstReportedPath(finding) ?? '';
    let group = groups.get(path);
    if (!group) {
      group = { plan, id: `${prefix}\u0000${path}`, path, findings: [] };
      groups.set(path, group);
      const confined = anyOpen && path !== '' ? confinePath(path) : undefined;
      (confined !== undefined && open.has(vscode.Uri.joinPath(folder, confined).toString()) ? first : rest).push(group);
    }
    group.findings.push(finding);
  }
  return { first, rest };
}
