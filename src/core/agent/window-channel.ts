/**
 * The channel between the MCP server and a VS Code window, both ends of it: a Unix socket (a
 * named pipe on Windows) that only the same OS user can open, in a private directory, and one
 * small file per window there naming its socket and folders, so a server started in a
 * repository finds the window open on it. Lines of JSON: `{ id, tool, input }` asked,
 * `{ id, answer }` answered. No token crosses it: the window answers with what it shows.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, sep } from 'node:path';
import type { ToolName } from './tool-names';
import type { ToolAnswer } from './tool-answer';

/** Pins a server to one window's socket (the launch spec the window gives sets it). */
export const WINDOW_VARIABLE = 'APPSEC_FINDINGS_WINDOW';

export interface ChannelRequest {
  readonly id: number;
  readonly tool: ToolName;
  readonly input: unknown;
}
export interface ChannelResponse {
  readonly id: number;
  readonly answer: ToolAnswer;
}

/** What a window says of itself in the directory. */
export interface WindowEntry {
  readonly socket: string;
  /** The workspace folders' paths on disk. */
  readonly folders: readonly string[];
  readonly pid: number;
}

/** The directory of this OS user's windows; made private (0700) if missing, refused if anyone else could write or read it. */
export function channelDirectory(base = tmpdir()): string {
  const uid = process.getuid?.();
  const dir = join(base, uid === undefined ? `appsec-findings-${userInfo().username}` : `appsec-findings-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.isSymbolicLink()) throw new Error(`${dir} is not a directory of its own.`);
  // On Windows the temporary directory is the user's own, and modes mean little.
  if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0))
    throw new Error(`${dir} is not private to this user (owner or mode), so no window listens there.`);
  return dir;
}

/** A new window's socket path and entry file, named at random. */
export function newWindowAddress(dir: string): { socket: string; entry: string } {
  // Short: a Unix socket's path has room for about 100 bytes (macOS's temporary directory is long).
  const name = `w${process.pid}-${randomBytes(4).toString('hex')}`;
  const socket = process.platform === 'win32' ? `\\\\.\\pipe\\appsec-findings-${name}` : join(dir, `${name}.sock`);
  return { socket, entry: join(dir, `${name}.json`) };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readEntry(file: string): WindowEntry | undefined {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowEntry>;
    if (typeof raw.socket !== 'string' || typeof raw.pid !== 'number' || !Array.isArray(raw.folders)) return undefined;
    return { socket: raw.socket, pid: raw.pid, folders: raw.folders.filter((f): f is string => typeof f === 'string') };
  } catch {
    return undefined;
  }
}

const inside = (folder: string, path: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);

/** The socket of the live window open on the folder that holds `cwd` most closely, if any. */
export function windowFor(cwd: string, dir: string): string | undefined {
  let best: { socket: string; depth: number } | undefined;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const entry = readEntry(join(dir, name));
    if (!entry || !alive(entry.pid)) continue;
    for (const folder of entry.folders) {
      if (inside(folder, cwd) && (!best || folder.length > best.depth)) best = { socket: entry.socket, depth: folder.length };
    }
  }
  return best?.socket;
}

/** The longest line kept waiting for its end: an answer is bounded far below it (`agent-text.ts`). */
const MAX_LINE = 16 * 1024 * 1024;

/** Splits a stream's chunks into lines of JSON, each given to `take` parsed (a line that does not parse, or never ends, is dropped). */
export function jsonLines(take: (value: unknown) => void): (chunk: Buffer | string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString();
    if (pending.length > MAX_LINE && !pending.includes('\n')) pending = '';
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.trim() === '') continue;
      try {
        take(JSON.parse(line));
      } catch {
        // Not ours: the other end speaks this protocol or nothing.
      }
    }
  };
}
