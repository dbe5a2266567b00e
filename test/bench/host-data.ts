/**
 * The deployment of `npm run bench:host`: 241 projects, one of them (the workspace's) holding
 * 40 000 code findings in 2 500 files and 10 000 supply-chain findings, half of them with a usage
 * in those files. Copies of generated findings with their own ids, places and match ids; every
 * code-host link names `commit`, the workspace's, so placing them needs no diff.
 */
import type { WireSastFinding, WireScaFinding } from '../platform/wire';
import { generateDeployment, type PlatformData } from '../platform/index';

export const HOST_BENCH = { files: 2_500, sast: 40_000, sca: 10_000, projects: 241 } as const;

/** Folder-relative path of bench file `i` (also what the workspace creates). */
export const benchFile = (i: number): string => `src/pkg${Math.floor(i / 50)}/mod${i}.py`;
export const BENCH_FILE_LINES = 60;
/** The file typed in by (h): it holds the first 500 code findings, the rest share the other files. */
export const HOT_FILE = benchFile(0);
export const HOT_FINDINGS = 500;

/**
 * The deployment of the latency figures: 10 000 findings (8 000 code, 2 000 supply-chain) of the
 * same workspace project among 5 000 projects, under another slug so its start has no cache.
 */
export const LATENCY_BENCH = { files: HOST_BENCH.files, sast: 8_000, sca: 2_000, projects: 5_000, slug: 'latency-bench', movedPerRefresh: 100 } as const;

export interface BenchShape {
  readonly files: number;
  readonly sast: number;
  readonly sca: number;
  readonly projects: number;
  readonly slug?: string;
}

/** `shape`'s deployment; its first project, renamed `projectName` when given, holds the findings. */
export function hostBenchDeployment(commit: string, shape: BenchShape = HOST_BENCH, projectName?: string): { data: PlatformData; project: string } {
  const data = generateDeployment({
    seed: 5,
    projects: shape.projects,
    sastPerProject: 2,
    scaPerProject: 1,
    refsPerProject: 1,
    ...(shape.slug ? { deploymentSlug: shape.slug } : {}),
  });
  const project = data.projects[0];
  const generatedName = project.name;
  if (projectName) project.name = projectName;
  const repoUrl = `https://github.com/${project.name}`;
  const ofProject = (f: { repository?: { name?: string } }): boolean => f.repository?.name === generatedName;
  const sastTemplate = { ...data.sast.find(ofProject)!, repository: { ...data.sast.find(ofProject)!.repository, name: project.name } };
  const scaTemplate = { ...data.sca.find(ofProject)!, repository: { ...data.sca.find(ofProject)!.repository, name: project.name } };
  data.sast = data.sast.filter((f) => !ofProject(f));
  data.sca = data.sca.filter((f) => !ofProject(f));
  for (let i = 0; i < shape.sast; i++) {
    const hot = i < HOT_FINDINGS;
    const file = hot ? HOT_FILE : benchFile(1 + (i % (shape.files - 1)));
    const line = 1 + ((hot ? i : Math.floor(i / shape.files)) % (BENCH_FILE_LINES - 1));
    const finding: WireSastFinding = {
      ...sastTemplate,
      id: 10_000_000 + i,
      syntactic_id: `bench-s-${i}`,
      match_based_id: `bench-m-${i}`,
      ref: 'main',
      status: 'open',
      location: { file_path: file, line, column: 1, end_line: line, end_column: 20 },
      line_of_code_url: `${repoUrl}/blob/${commit}/${file}#L${line}`,
    };
    data.sast.push(finding);
  }
  for (let i = 0; i < shape.sca; i++) {
    const lockLine = 1 + (i % 5000);
    const usageFile = benchFile(i % shape.files);
    const finding: WireScaFinding = {
      ...scaTemplate,
      id: 20_000_000 + i,
      syntactic_id: `bench-c-${i}`,
      match_based_id: `bench-n-${i}`,
      ref: 'main',
      status: 'open',
      location: { file_path: 'poetry.lock', line: lockLine, column: 1 },
      line_of_code_url: `${repoUrl}/blob/${commit}/poetry.lock#L${lockLine}`,
      ...(i % 2 === 0 ? { usage: { location: { path: usageFile === HOT_FILE ? benchFile(1) : usageFile, start_line: 2, start_col: 1, end_col: 10 } } } : {}),
    };
    data.sca.push(finding);
  }
  return { data, project: project.name };
}

/**
 * Moves `count` code findings of the bench's files one line down (the last line wraps to the
 * first), spread over the files, a different set each `round`: what a new scan changes between
 * two refreshes of a user's workspace. Returns how many moved.
 */
export function moveCodeFindings(data: PlatformData, count: number, round: number): number {
  const movable = data.sast.filter((f) => f.location?.file_path !== HOT_FILE && f.location?.file_path?.startsWith('src/pkg'));
  const step = Math.max(1, Math.floor(movable.length / count));
  let moved = 0;
  for (let k = 0; k < count && k < movable.length; k++) {
    const finding = movable[(round * 7 + k * step) % movable.length];
    const location = finding.location!;
    const line = ((location.line ?? 1) % (BENCH_FILE_LINES - 1)) + 1;
    finding.location = { ...location, line, end_line: line };
    finding.line_of_code_url = finding.line_of_code_url?.replace(/#L\d+$/, `#L${line}`);
    moved++;
  }
  return moved;
}
