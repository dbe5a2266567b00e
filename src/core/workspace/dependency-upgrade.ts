/**
 * Where a direct dependency is pinned in a manifest, and the text that upgrades it to a fixed
 * version: `package.json` (`"lodash": "^4.17.20"` in any dependencies block, the range prefix
 * kept) and `requirements.txt` (`requests==2.19.0`, extras and markers kept). Pure: the quick
 * fix builds its edit from this. Anything less certain (ranges without a version, git URLs,
 * other manifests) gives no edit: the fix version is then shown, not guessed into a file.
 */
import { pep503Name } from './name-mentions';

export type ManifestKind = 'package.json' | 'requirements.txt';

/** Replace `[start, end)` of the manifest text with `text`. */
export interface TextReplacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** The line (0-based) the replacement is on, for the editor. */
  readonly line: number;
}

export function manifestKindOf(fileName: string): ManifestKind | undefined {
  const base = fileName.split('/').pop()?.toLowerCase();
  return base === 'package.json' ? 'package.json' : base === 'requirements.txt' ? 'requirements.txt' : undefined;
}

export function upgradeReplacement(kind: ManifestKind, text: string, pkg: string, version: string): TextReplacement | undefined {
  if (!/^[\w.+-]+$/.test(version)) return undefined;
  const declared = declaredVersion(kind, text, pkg);
  return declared && { start: declared.start, end: declared.end, text: `${declared.prefix}${version}`, line: declared.line };
}

/** The version a manifest pins a package at, where it is written (`[start, end)` holds the prefix and the version). */
export interface DeclaredVersion {
  readonly version: string;
  /** `^`, `~` or `>=` in package.json; empty in requirements.txt, whose operator stays. */
  readonly prefix: string;
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

/** Where and at what version the manifest pins `pkg`, as the upgrade rewrites it; undefined where it cannot tell. */
export function declaredVersion(kind: ManifestKind, text: string, pkg: string): DeclaredVersion | undefined {
  return kind === 'package.json' ? inPackageJson(text, pkg) : inRequirements(text, pkg);
}

const DEPENDENCY_BLOCKS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

function inPackageJson(text: string, pkg: string): DeclaredVersion | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  const declared = DEPENDENCY_BLOCKS.some((block) => {
    const deps = (manifest as Record<string, unknown>)[block];
    return typeof deps === 'object' && deps !== null && typeof (deps as Record<string, unknown>)[pkg] === 'string';
  });
  if (!declared) return undefined;
  // The entry's text: "name": "<prefix><version>", found after the JSON check said it exists.
  const entry = new RegExp(`"${escapeRegExp(pkg)}"\\s*:\\s*"([~^]|>=)?(\\d[\\w.+-]*)"`, 'g');
  const match = entry.exec(text);
  if (!match) return undefined;
  const prefix = match[1] ?? '';
  const version = match[2] ?? '';
  // The match ends with the value's closing quote.
  const valueEnd = match.index + match[0].length - 1;
  const valueStart = valueEnd - prefix.length - version.length;
  return { version, prefix, start: valueStart, end: valueEnd, line: lineOf(text, valueStart) };
}

function inRequirements(text: string, pkg: string): DeclaredVersion | undefined {
  let offset = 0;
  for (const line of text.split('\n')) {
    const match = /^(\s*)([A-Za-z0-9][\w.-]*)(\[[^\]]*\])?\s*(==|~=|>=)\s*([\w.+!-]+)/.exec(line);
    if (match && pep503Name(match[2] ?? '') === pep503Name(pkg)) {
      const version = match[5] ?? '';
      const versionAt = offset + match[0].length - version.length;
      return { version, prefix: '', start: versionAt, end: versionAt + version.length, line: lineOf(text, versionAt) };
    }
    offset += line.length + 1;
  }
  return undefined;
}

function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
