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

export function hostBenchDeployment(commit: string): { data: PlatformData; project: string } {
  const data = generateDeployment({ seed: 5, projects: HOST_BENCH.projects, sastPerProject: 2, scaPerProject: 1, refsPerProject: 1 });
  const project = data.projects[0];
  const repoUrl = `https://github.com/${project.name}`;
  const sastTemplate = data.sast.find((f) => f.repository?.name === project.name)!;
  const scaTemplate = data.sca.find((f) => f.repository?.name === project.name)!;
  data.sast = data.sast.filter((f) => f.repository?.name !== project.name);
  data.sca = data.sca.filter((f) => f.repository?.name !== project.name);
  for (let i = 0; i < HOST_BENCH.sast; i++) {
    const hot = i < HOT_FINDINGS;
    const file = hot ? HOT_FILE : benchFile(1 + (i % (HOST_BENCH.files - 1)));
    const line = 1 + ((hot ? i : Math.floor(i / HOST_BENCH.files)) % (BENCH_FILE_LINES - 1));
    const finding: WireSastFinding = {
      ...sastTemplate, id: 10_000_000 + i, syntactic_id: `bench-s-${i}`, match_based_id: `bench-m-${i}`, ref: 'main', status: 'open',
      location: { file_path: file, line, column: 1, end_line: line, end_column: 20 },
      line_of_code_url: `${repoUrl}/blob/${commit}/${file}#L${line}`,
    };
    data.sast.push(finding);
  }
  for (let i = 0; i < HOST_BENCH.sca; i++) {
    const lockLine = 1 + (i % 5000);
    const usageFile = benchFile(i % HOST_BENCH.files);
    const finding: WireScaFinding = {
      ...scaTemplate, id: 20_000_000 + i, syntactic_id: `bench-c-${i}`, match_based_id: `bench-n-${i}`, ref: 'main', status: 'open',
      location: { file_path: 'poetry.lock', line: lockLine, column: 1 },
      line_of_code_url: `${repoUrl}/blob/${commit}/poetry.lock#L${lockLine}`,
      ...(i % 2 === 0 ? { usage: { location: { path: usageFile === HOT_FILE ? benchFile(1) : usageFile, start_line: 2, start_col: 1, end_col: 10 } } } : {}),
    };
    data.sca.push(finding);
  }
  return { data, project: project.name };
}
