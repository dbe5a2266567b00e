/**
 * The few git commands drift mapping needs, run as `git` processes in the workspace folder
 * (arguments as an array, never through a shell; a commit must look like a SHA before it is
 * used). The git extension's API has no "file at commit" batch nor rename detection against
 * the working tree, so this talks to git directly, with the binary the git extension found.
 */
import { execFile, spawn } from 'node:child_process';

const SHA = /^[0-9a-f]{7,64}$/i;

export interface ChangedFile {
  /** Folder-relative path today. */
  readonly path: string;
  /** Folder-relative path at the scanned commit (differs when git sees a rename). */
  readonly scannedPath: string;
  /** Deleted since the scan. */
  readonly deleted: boolean;
}

export class GitCli {
  /** Per folder: its path inside the repository, which never changes (one `git` less per read). */
  private readonly prefixes = new Map<string, Promise<string>>();

  constructor(private readonly gitPath: () => string) {}

  /** True when the commit is in the local repository. */
  async hasCommit(cwd: string, commit: string): Promise<boolean> {
    if (!SHA.test(commit)) return false;
    return (await this.run(cwd, ['cat-file', '-e', `${commit}^{commit}`])).code === 0;
  }

  /** True when the checkout's HEAD includes the commit (it is HEAD or one of its ancestors). */
  async inHistory(cwd: string, commit: string): Promise<boolean> {
    this.checkSha(commit);
    const result = await this.run(cwd, ['merge-base', '--is-ancestor', commit, 'HEAD']);
    if (result.code > 1) throw new Error(`git merge-base failed: ${result.stderr.trim().slice(0, 300)}`);
    return result.code === 0;
  }

  /**
   * Files that differ between the commit and the working tree (uncommitted changes included),
   * with git's rename detection, relative to the folder and limited to it.
   */
  async changedSince(cwd: string, commit: string): Promise<ChangedFile[]> {
    this.checkSha(commit);
    const result = await this.run(cwd, ['-c', 'core.quotepath=off', 'diff', '--name-status', '-z', '-M', '--relative', '--no-ext-diff', commit, '--']);
    if (result.code !== 0) throw new Error(`git diff failed: ${result.stderr.trim().slice(0, 300)}`);
    const fields = result.stdout.split('\0');
    const changed: ChangedFile[] = [];
    for (let i = 0; i < fields.length - 1;) {
      const status = fields[i++];
      if (status.startsWith('R') || status.startsWith('C')) {
        const from = fields[i++];
        const to = fields[i++];
        if (status.startsWith('R')) changed.push({ path: to, scannedPath: from, deleted: false });
        continue;
      }
      const path = fields[i++];
      changed.push({ path, scannedPath: path, deleted: status.startsWith('D') });
    }
    return changed;
  }

  /** The texts of folder-relative paths at the commit, in one `git cat-file --batch` (missing: undefined). */
  async filesAt(cwd: string, commit: string, paths: readonly string[]): Promise<Map<string, string | undefined>> {
    this.checkSha(commit);
    const out = new Map<string, string | undefined>();
    if (paths.length === 0) return out;
    let asked = this.prefixes.get(cwd);
    if (!asked) {
      asked = this.run(cwd, ['rev-parse', '--show-prefix']).then((r) => r.stdout.trim());
      // A failure is not kept: the next read asks again.
      asked.catch(() => this.prefixes.delete(cwd));
      this.prefixes.set(cwd, asked);
    }
    const prefix = await asked;
    const request = paths.map((path) => `${commit}:${prefix}${path}\n`).join('');
    const raw = await this.batch(cwd, request);
    let at = 0;
    for (const path of paths) {
      const headerEnd = raw.indexOf(10, at);
      if (headerEnd < 0) break;
      const header = raw.subarray(at, headerEnd).toString('utf8');
      at = headerEnd + 1;
      const match = /^[0-9a-f]+ blob (\d+)$/.exec(header);
      if (!match) {
        out.set(path, undefined);
        continue;
      }
      const size = Number(match[1]);
      out.set(path, raw.subarray(at, at + size).toString('utf8'));
      at += size + 1;
    }
    return out;
  }

  /** Fetches the commit from each remote in turn until it is here; true when it is. */
  async fetchCommit(cwd: string, commit: string): Promise<boolean> {
    this.checkSha(commit);
    if (await this.hasCommit(cwd, commit)) return true;
    const remotes = (await this.run(cwd, ['remote'])).stdout
      .split('\n')
      .map((r) => r.trim())
      .filter(Boolean);
    for (const remote of remotes) {
      await this.run(cwd, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote, commit], 120_000);
      if (await this.hasCommit(cwd, commit)) return true;
    }
    return false;
  }

  private checkSha(commit: string): void {
    if (!SHA.test(commit)) throw new Error(`not a commit id: ${JSON.stringify(commit.slice(0, 80))}`);
  }

  private run(cwd: string, args: string[], timeout = 30_000): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        this.gitPath(),
        args,
        { cwd, timeout, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
    });
  }

  private batch(cwd: string, input: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.gitPath(), ['cat-file', '--batch'], { cwd, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git cat-file exited with ${code}`))));
      child.stdin.end(input);
    });
  }
}
