/**
 * A git clone of a generated project, as the platform scanned it: one file per path its findings
 * name, committed on the primary branch with the project's remote, and that commit named in the
 * findings' links as the one scanned. For what runs outside VS Code against the local platform
 * (the MCP server standalone, its benchmark).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PlatformData, StoredProject } from './types';

export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** Makes `root` that clone (files of `lines` lines each); gives the scanned commit and the files' paths. */
export function cloneProject(root: string, project: StoredProject, data: PlatformData, lines: number): { commit: string; paths: string[] } {
  const ours = data.sast.filter((f) => f.repository?.name === project.name);
  const paths = new Set(
    ours.map((f) => f.location?.file_path).filter((p): p is string => p !== undefined && p !== '' && !p.startsWith('/') && !p.includes('..')),
  );
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), Array.from({ length: lines }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  }
  git(root, 'init', '-q');
  git(root, 'config', 'user.email', 'clone@example.invalid');
  git(root, 'config', 'user.name', 'Clone');
  git(root, 'checkout', '-q', '-B', project.primary_branch);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'scanned');
  git(root, 'remote', 'add', 'origin', `git@github.com:${project.name}.git`);
  const commit = git(root, 'rev-parse', 'HEAD');
  for (const f of ours) f.line_of_code_url = f.line_of_code_url?.replace(/\/blob\/[0-9a-f]{7,40}\//, `/blob/${commit}/`);
  return { commit, paths: [...paths] };
}
