/**
 * Where each step of a finding's trace is in today's code, placed exactly as the finding is: the
 * folder of its project, the commit it was scanned at and the drift tracker's maps from that
 * commit through the edits since (`core/workspace/trace-places.ts` decides; this adds the files'
 * URIs). Problems' related information, Show Trace, the details panel, the agent's prompt and
 * its tool all read it.
 */
import * as vscode from 'vscode';
import type { TraceStep } from '../core/model/finding-story';
import type { Finding } from '../core/model/types';
import { confinePath } from '../core/workspace/diagnostic-plan';
import { placeTrace, type TracePlace } from '../core/workspace/trace-places';
import type { FindingPlaces } from './finding-places';

/** A placed step, with its file's URI when it is in a folder of the workspace. */
export type TraceStepToday = TracePlace & { readonly uri?: vscode.Uri };

export function traceToday(places: FindingPlaces, finding: Finding, steps: readonly TraceStep[]): TraceStepToday[] {
  const repo = places.repoOf(finding);
  const placer = repo && places.placer(repo, places.commitOf(finding, repo));
  return placeTrace(steps, placer).map((step) =>
    step.kind === 'here' && repo ? { ...step, uri: vscode.Uri.joinPath(repo.folder.uri, step.relativePath) } : step,
  );
}

/**
 * Asks the drift tracker to map the files of the steps too (the finding's own file is mapped
 * with Problems; a step may be in another file); it tells when they are placed anew.
 */
export function mapTraceFiles(places: FindingPlaces, finding: Finding, steps: readonly TraceStep[]): void {
  const repo = places.repoOf(finding);
  const commit = repo && places.commitOf(finding, repo);
  if (!repo || !commit) return;
  const paths = new Set(steps.map((s) => confinePath(s.range.filePath)).filter((p): p is string => p !== undefined));
  if (paths.size > 0) places.drift.ensure(repo.folder, commit, paths);
}

/** A step's range in the editor: a whole-line step ends at its line's end. */
export function stepRange(step: Extract<TraceStepToday, { kind: 'here' }>): vscode.Range {
  const { range } = step;
  return new vscode.Range(range.startLine, range.startCharacter, range.endLine, range.wholeLine ? 0 : range.endCharacter);
}
