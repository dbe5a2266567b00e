/**
 * Standalone mode's places in today's code, through git, as the extension's drift mapping does
 * without `vscode`: a finding scanned at a commit is placed by the line diff from that commit's
 * file to the file in the working tree (`core/workspace/line-diff.ts`, `range-mapper.ts`). A
 * commit this clone lacks leaves the scanned place, said as such; a file gone is gone.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Finding } from '../core/model/types';
import type { TraceStep } from '../core/model/finding-story';
import type { TodayPlace } from '../core/agent/tool-answer';
import { scannedCommitOf } from '../core/workspace/drift-hint';
import { confinePath, reportedLocationsOf, toPlannedRange } from '../core/workspace/diagnostic-plan';
import { diffLines, splitLines } from '../core/workspace/line-diff';
import { LineMap, mapThrough } from '../core/workspace/range-mapper';
import { placeTrace, type TracePlace } from '../core/workspace/trace-places';
import type { PlannedRange } from '../core/workspace/diagnostic-plan';
import type { TodayPlace as MappedPlace } from '../core/workspace/today-place';

const run = promisify(execFile);

/** Git's answer as it printed it (a file's text keeps its leading and trailing lines). */
async function gitRaw(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await gitRaw(cwd, ...args)).trim();
}

/** Maps from a scanned commit's files to the working tree's, each file diffed once. */
export class GitPlaces {
  private readonly maps = new Map<string, LineMap | 'gone' | 'not-here'>();

  constructor(
    private readonly root: string,
    private readonly latestCommit: (finding: Finding) => string | undefined,
  ) {}

  /** Reads what `place` needs for these findings: one diff per scanned file and commit. */
  async prepare(findings: readonly Finding[], extraPaths: readonly [string, string][] = []): Promise<void> {
    const wanted = new Map<string, [string, string]>();
    for (const finding of findings) {
      const commit = this.commitOf(finding);
      const path = reportedLocationsOf(finding)[0] && confinePath(reportedLocationsOf(finding)[0].path);
      if (commit && path) wanted.set(`${commit}:${path}`, [commit, path]);
    }
    for (const [commit, path] of extraPaths) wanted.set(`${commit}:${path}`, [commit, path]);
    await Promise.all(
      [...wanted].filter(([key]) => !this.maps.has(key)).map(async ([key, [commit, path]]) => this.maps.set(key, await this.mapOf(commit, path))),
    );
  }

  place(finding: Finding): TodayPlace | undefined {
    const scanned = reportedLocationsOf(finding)[0];
    const path = scanned && confinePath(scanned.path);
    const range = scanned && toPlannedRange(scanned);
    if (!path || !range) return undefined;
    const today = this.placed(this.commitOf(finding), path, range);
    if (today.kind === 'deleted')
      return { kind: 'gone', notYet: today.onlyAt !== undefined, ...(finding.ref ? { onBranch: finding.ref.replace(/^refs\/heads\//, '') } : {}) };
    return { kind: 'here', path: today.relativePath, line: today.range.startLine + 1, changed: today.kind === 'changed' };
  }

  trace(finding: Finding, steps: readonly TraceStep[]): readonly TracePlace[] {
    const commit = this.commitOf(finding);
    return placeTrace(steps, (path, range) => this.placed(commit, path, range));
  }

  /** The trace's files, for `prepare`. */
  tracePaths(finding: Finding, steps: readonly TraceStep[]): [string, string][] {
    const commit = this.commitOf(finding);
    return commit
      ? steps
          .map((s) => confinePath(s.range.filePath))
          .filter((p): p is string => p !== undefined)
          .map((p) => [commit, p])
      : [];
  }

  private commitOf(finding: Finding): string | undefined {
    return scannedCommitOf(finding.lineOfCodeUrl) ?? this.latestCommit(finding);
  }

  private placed(commit: string | undefined, path: string, range: PlannedRange): MappedPlace {
    const map = commit ? this.maps.get(`${commit}:${path}`) : undefined;
    if (map === 'gone') return { kind: 'deleted' };
    if (map === 'not-here' || map === undefined) return { kind: 'scanned', relativePath: path, range };
    const mapped = mapThrough([map], range);
    return mapped.kind === 'deleted' ? { kind: 'deleted' } : { ...mapped, relativePath: path };
  }

  private async mapOf(commit: string, path: string): Promise<LineMap | 'gone' | 'not-here'> {
    let scanned: string;
    try {
      scanned = await gitRaw(this.root, 'show', `${commit}:${path}`);
    } catch {
      return 'not-here';
    }
    let today: string;
    try {
      today = await readFile(join(this.root, path), 'utf8');
    } catch {
      return 'gone';
    }
    return new LineMap(diffLines(splitLines(scanned), splitLines(today)));
  }
}
