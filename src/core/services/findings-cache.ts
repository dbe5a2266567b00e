/**
 * The findings of the workspace's projects kept on disk, so the next start shows them before any
 * network answer. One file per deployment in the extension's global storage, in the store's
 * snapshot format (compact, versioned; findings only: never the token). Written atomically (a
 * temporary file renamed over the old one), bounded in size (the oldest answers are dropped
 * first), and ignored when unreadable, of another version or broken: the next refresh rebuilds it.
 *
 * Beside it, a small file holds the part of it drawn in the files that were open in editors, so
 * the next start draws those (VS Code opens them again) before reading tens of megabytes; and
 * another holds what Problems showed, so that start draws every diagnostic before the findings
 * are read. Each names the size and time of the whole file it was drawn from and is used only
 * with that file.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nextTurn } from '../slices';
import { decodeSnapshot, decodeSnapshotInSlices, encodeSnapshot, encodeSnapshotInSlices } from './findings-snapshot';
import type { FindingsResult } from './findings-query';

export const DEFAULT_CACHE_MEGABYTES = 200;

export interface FindingsCacheOptions {
  /** The extension's global storage folder. */
  readonly dir: string;
  /** The size bound in bytes. */
  readonly maxBytes: () => number;
  /** Told of a cache file that could not be used or written (it is then rebuilt). */
  readonly onProblem?: (message: string) => void;
  /** The platform's base URL: two platforms may have a deployment of the same slug. */
  readonly origin?: () => string;
}

export class FindingsCache {
  /** Counts clears: a write that began before one (sign-out) must not land after it. */
  private generation = 0;

  constructor(private readonly options: FindingsCacheOptions) {}

  /** How many times the cache was cleared: what was written before the last clear is gone. */
  get clears(): number {
    return this.generation;
  }

  /** The answers kept for a deployment; undefined when there are none or the file is unusable. */
  async read(deploymentSlug: string): Promise<FindingsResult[] | undefined> {
    const file = this.fileOf(deploymentSlug);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      return undefined; // none yet
    }
    // The bytes, not text: each segment is decoded from UTF-8 in its own turn.
    const results = await decodeSnapshotInSlices(bytes);
    if (!results) {
      this.options.onProblem?.('The findings cache was of another version or damaged; it was dropped and will be rebuilt by the next refresh.');
      await rm(file, { force: true }).catch(() => undefined);
      return undefined;
    }
    return results.filter((r) => r.query.deploymentSlug === deploymentSlug);
  }

  /**
   * Replaces what is kept for a deployment. Newest answers first: when the whole does not fit
   * the bound, the oldest are left out. Resolves with the bytes written (0: nothing kept).
   */
  async write(deploymentSlug: string, results: readonly FindingsResult[]): Promise<number> {
    const generation = this.generation;
    const newestFirst = [...results]
      .filter((r) => r.query.deploymentSlug === deploymentSlug && r.staleBecause === undefined)
      .sort((a, b) => b.loadedAt.getTime() - a.loadedAt.getTime());
    let parts = await encodeSnapshotInSlices(newestFirst);
    let bytes = await byteLengthOf(parts);
    while (bytes > this.options.maxBytes() && newestFirst.length > 0) {
      newestFirst.pop();
      parts = await encodeSnapshotInSlices(newestFirst);
      bytes = await byteLengthOf(parts);
    }
    if (newestFirst.length === 0) {
      if (generation === this.generation) await this.forget(deploymentSlug);
      return 0;
    }
    try {
      if (!(await this.replace(this.fileOf(deploymentSlug), parts, generation))) return 0;
    } catch (error) {
      this.options.onProblem?.(`The findings cache could not be written: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
    return bytes;
  }

  /**
   * Keeps the answers drawn in the open files (cut down to those files' findings) beside the
   * whole cache of the deployment, marked as cut from the whole file as it is now. Nothing is
   * kept without a whole cache.
   */
  async writeOpen(deploymentSlug: string, results: readonly FindingsResult[]): Promise<void> {
    const mine = results.filter((r) => r.query.deploymentSlug === deploymentSlug);
    await this.writeBeside(
      this.openFileOf(deploymentSlug),
      deploymentSlug,
      {},
      mine.every((r) => r.findings.length === 0) ? undefined : () => encodeSnapshot(mine),
      "The open files' part of the findings cache could not be written",
    );
  }

  /**
   * The answers kept for the files that were open, when they were cut from the whole cache as it
   * is now (undefined otherwise: the whole is read as usual).
   */
  async readOpen(deploymentSlug: string): Promise<FindingsResult[] | undefined> {
    const body = await this.readBeside(this.openFileOf(deploymentSlug), deploymentSlug, {});
    return body === undefined ? undefined : decodeSnapshot(body)?.filter((r) => r.query.deploymentSlug === deploymentSlug);
  }

  /**
   * Keeps what Problems shows (`text`, see shown-snapshot.ts) beside the whole cache, marked as
   * drawn from the whole file as it is now and for `view` (what decides how findings are drawn:
   * folders, branches, filters, settings). Nothing is kept without a whole cache.
   */
  async writeShown(deploymentSlug: string, view: string, text: string): Promise<void> {
    await this.writeBeside(this.shownFileOf(deploymentSlug), deploymentSlug, { view }, () => text, 'What Problems showed could not be kept');
  }

  /** What Problems showed, when drawn from the whole cache as it is now and for this `view`. */
  readShown(deploymentSlug: string, view: string): Promise<string | undefined> {
    return this.readBeside(this.shownFileOf(deploymentSlug), deploymentSlug, { view });
  }

  /**
   * Writes a file beside the whole cache: a first line marking it as drawn from the whole file
   * as it is now (and with `mark`), then `text()`. Without a whole cache, or without text, the
   * file is removed instead.
   */
  private async writeBeside(
    file: string,
    deploymentSlug: string,
    mark: Record<string, string>,
    text: (() => string) | undefined,
    problem: string,
  ): Promise<void> {
    const generation = this.generation;
    const whole = await wholeFileMark(this.fileOf(deploymentSlug));
    try {
      if (whole === undefined || text === undefined) await rm(file, { force: true });
      else await this.replace(file, [JSON.stringify({ cutFrom: whole, ...mark }), '\n', text()], generation);
    } catch (error) {
      this.options.onProblem?.(`${problem}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The text of a file kept beside the whole cache, after its first line (a mark); undefined when
   * there is none, or its mark does not name the whole file as it is now and `expected`.
   */
  private async readBeside(file: string, deploymentSlug: string, expected: Record<string, string>): Promise<string | undefined> {
    const whole = await wholeFileMark(this.fileOf(deploymentSlug));
    if (whole === undefined) return undefined;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    const end = text.indexOf('\n');
    let mark: unknown;
    try {
      mark = JSON.parse(text.slice(0, end));
    } catch {
      return undefined;
    }
    if (end < 0 || typeof mark !== 'object' || mark === null) return undefined;
    const marked = mark as Record<string, unknown>;
    if (marked.cutFrom !== whole || Object.entries(expected).some(([key, value]) => marked[key] !== value)) return undefined;
    return text.slice(end + 1);
  }

  /** Forgets a deployment's cache (sign-out, another deployment); all of them without a slug. */
  async clear(deploymentSlug?: string): Promise<void> {
    this.generation++;
    if (deploymentSlug !== undefined) return this.forget(deploymentSlug);
    await rm(join(this.options.dir, 'findings-cache'), { recursive: true, force: true }).catch(() => undefined);
  }

  private async forget(deploymentSlug: string): Promise<void> {
    await rm(this.fileOf(deploymentSlug), { force: true }).catch(() => undefined);
    await rm(this.openFileOf(deploymentSlug), { force: true }).catch(() => undefined);
    await rm(this.shownFileOf(deploymentSlug), { force: true }).catch(() => undefined);
  }

  /** One file per platform and deployment; its name is a hash, so no slug reaches the file system as a path. */
  private fileOf(deploymentSlug: string, suffix = ''): string {
    const name = nameOf(`${this.options.origin?.() ?? ''}\n${deploymentSlug}`);
    return join(this.options.dir, 'findings-cache', `${name}${suffix}.json`);
  }

  private openFileOf(deploymentSlug: string): string {
    return this.fileOf(deploymentSlug, '.open');
  }

  private shownFileOf(deploymentSlug: string): string {
    return this.fileOf(deploymentSlug, '.shown');
  }

  /**
   * Writes a file atomically: a temporary file renamed over the old one (a reader never sees
   * half). False, and nothing written, when the cache was cleared since `generation`.
   */
  private async replace(file: string, parts: readonly string[], generation: number): Promise<boolean> {
    if (generation !== this.generation) return false;
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await mkdir(join(this.options.dir, 'findings-cache'), { recursive: true });
      await writeInPieces(temporary, parts);
      if (generation !== this.generation) {
        await rm(temporary, { force: true });
        return false;
      }
      await rename(temporary, file);
      return true;
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }
}

function nameOf(deploymentSlug: string): string {
  return createHash('sha256').update(deploymentSlug).digest('hex').slice(0, 24);
}

/** Which whole cache file this is (its size and time of writing); undefined when there is none. */
async function wholeFileMark(file: string): Promise<string | undefined> {
  try {
    const { size, mtimeMs } = await stat(file);
    return `${size}:${mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Characters encoded and written per step: a whole cache encoded at once is a stall (docs/performance.md, "Writing the cache"). */
const WRITE_PIECE = 1 << 20;

/**
 * Writes the text's parts as UTF-8 a piece at a time, so no encoding (nor joining the parts into
 * one string) ever holds the extension host for long.
 */
export async function writeInPieces(file: string, parts: string | readonly string[], piece = WRITE_PIECE): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (const text of typeof parts === 'string' ? [parts] : parts) {
      let start = 0;
      while (start < text.length) {
        let end = Math.min(text.length, start + piece);
        // A piece must not end inside a surrogate pair (its halves would be written as two U+FFFD).
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        await handle.write(text.slice(start, end), null, 'utf8');
        start = end;
      }
    }
  } finally {
    await handle.close();
  }
}

/** The UTF-8 size of the parts, measured one at a time with a turn of the event loop between them. */
async function byteLengthOf(parts: readonly string[]): Promise<number> {
  let bytes = 0;
  for (const part of parts) {
    bytes += Buffer.byteLength(part, 'utf8');
    await nextTurn();
  }
  return bytes;
}
