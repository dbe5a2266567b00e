/**
 * Turns findings into what a diagnostic needs, without `vscode`: a file inside the workspace
 * folder, a 0-based range, a severity level and the related place. Pure, so every edge (1-based
 * to 0-based, missing ends, paths that try to leave the folder) is tested in plain Node.
 */
import type { Finding, SourceRange } from '../model/types';

export type Level = 'error' | 'warning' | 'information' | 'hint';
/** The levels, the most severe first. */
export const LEVELS: readonly Level[] = ['error', 'warning', 'information', 'hint'];
export type SeverityMapping = Readonly<Record<string, Level>>;
export const DEFAULT_MAPPING: SeverityMapping = { critical: 'error', high: 'error', medium: 'warning', low: 'information' };

/** 0-based, end exclusive as VS Code wants; `wholeLine` when the service gave no end. */
export interface PlannedRange {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
  readonly wholeLine: boolean;
}

export interface PlannedDiagnostic {
  /** Folder-relative, `/`-separated, confined to the folder. */
  readonly relativePath: string;
  readonly range: PlannedRange;
  readonly level: Level;
  readonly finding: Finding;
  /** The other place of a supply-chain finding (lockfile line or usage). */
  readonly related?: { readonly relativePath: string; readonly range: PlannedRange; readonly message: string };
}

export interface PlanResult {
  readonly diagnostics: PlannedDiagnostic[];
  /** Paths refused because they are absolute or leave the folder (logged by the caller). */
  readonly refused: string[];
}

/**
 * A server path as a safe folder-relative path, or undefined. Refuses absolute paths, drive
 * letters, UNC paths, `..` segments (also when percent-encoded) and NUL bytes.
 */
export function confinePath(serverPath: string): string | undefined {
  let path = serverPath;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(path); i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      return undefined;
    }
  }
  if (!path || path.includes('\0')) return undefined;
  path = path.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[a-z]:/i.test(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return undefined;
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..')) return undefined;
  return segments.join('/');
}

/** 1-based scanner positions → 0-based; a missing or bad end becomes the whole start line. */
export function toPlannedRange(range: Pick<SourceRange, 'line' | 'column' | 'endLine' | 'endColumn'>): PlannedRange | undefined {
  if (!Number.isSafeInteger(range.line) || range.line < 1) return undefined;
  const startLine = range.line - 1;
  const startCharacter = positiveInt(range.column) ? range.column - 1 : 0;
  if (positiveInt(range.endLine) && positiveInt(range.endColumn)) {
    const endLine = range.endLine - 1;
    const endCharacter = range.endColumn - 1;
    if (endLine > startLine || (endLine === startLine && endCharacter > startCharacter)) {
      return { startLine, startCharacter, endLine, endCharacter, wholeLine: false };
    }
  }
  // No usable end: the host stretches this to the end of the line it finds in the document.
  return { startLine, startCharacter: 0, endLine: startLine, endCharacter: Number.MAX_SAFE_INTEGER, wholeLine: true };
}

const positiveInt = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n >= 1;

/** The lockfile's relative path from a `…/blob/<sha>/<path>#L<n>` link, when it has that shape. */
export function lockfilePathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  // GitLab's `/-/blob/` is unambiguous; otherwise skip host/owner/repo first, so a repository
  // that is itself named `src` or `blob` is not mistaken for the marker.
  const match = /\/-\/blob\/[^/]+\/([^#?]+)/.exec(url) ?? /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/[^/]+\/[^/]+\/(?:blob|src)\/[^/]+\/([^#?]+)/i.exec(url);
  return match?.[1] ? confinedLockfile(match[1]) : undefined;
}

/** Thousands of supply-chain findings name the same few lockfiles: each is checked once. */
const lockfiles = new Map<string, string | undefined>();
function confinedLockfile(path: string): string | undefined {
  if (lockfiles.has(path)) return lockfiles.get(path);
  if (lockfiles.size >= 256) lockfiles.clear();
  const safe = confinePath(path);
  lockfiles.set(path, safe);
  return safe;
}

/**
 * Statuses that say the code no longer has the problem (fixed) or that someone decided it is not
 * one (ignored): never a problem in Problems, whatever the tree's filter lists.
 */
export const CLOSED_STATUSES: ReadonlySet<string> = new Set(['fixed', 'ignored', 'provisionally_ignored']);

export interface PlanOptions {
  /**
   * The level of a supply-chain finding the scanner found unreachable from the code, whatever
   * its severity (`appsecFindings.unreachableAsInformation`); undefined: the severity mapping.
   */
  readonly unreachableLevel?: Level;
}

/**
 * The level a finding is shown at, everywhere (Problems, the tree's icon, SARIF): an unreachable
 * supply-chain finding at `unreachableLevel` when set, any other at its severity's mapped level.
 */
export function findingLevel(finding: Pick<Finding, 'severity' | 'sca'>, mapping: SeverityMapping, options: PlanOptions = {}): Level {
  const unreachable = finding.sca?.reachability === 'unreachable';
  return unreachable && options.unreachableLevel ? options.unreachableLevel : levelFor(finding.severity, mapping);
}

export function planDiagnostics(findings: Iterable<Finding>, mapping: SeverityMapping, options: PlanOptions = {}): PlanResult {
  const diagnostics: PlannedDiagnostic[] = [];
  const refused: string[] = [];
  // Thousands of findings share a few hundred files: check each path once.
  const confined = new Map<string, string | undefined>();
  const confine = (path: string): string | undefined => {
    if (confined.has(path)) return confined.get(path);
    const safe = confinePath(path);
    confined.set(path, safe);
    return safe;
  };
  for (const finding of findings) {
    if (CLOSED_STATUSES.has(finding.status)) continue;
    const level = findingLevel(finding, mapping, options);
    const locations = reportedLocationsOf(finding);
    const primary = locations[0];
    if (!primary) continue;
    const relativePath = confine(primary.path);
    if (relativePath === undefined) {
      refused.push(primary.path);
      continue;
    }
    const range = toPlannedRange(primary);
    if (!range) continue;
    const other = locations[1];
    const otherPath = other && confine(other.path);
    const otherRange = other && toPlannedRange(other);
    diagnostics.push({
      relativePath,
      range,
      level,
      finding,
      ...(other && otherPath && otherRange ? { related: { relativePath: otherPath, range: otherRange, message: other.label } } : {}),
    });
  }
  return { diagnostics, refused };
}

/** Own properties only: a severity such as `constructor` must not pick up Object's prototype. */
export function levelFor(severity: string, mapping: SeverityMapping): Level {
  if (Object.hasOwn(mapping, severity)) return mapping[severity];
  if (Object.hasOwn(DEFAULT_MAPPING, severity)) return DEFAULT_MAPPING[severity];
  return 'warning';
}

/** A place the scanner reported for a finding, in a file at the scanned commit, with what it is. */
export interface ReportedLocation extends Pick<SourceRange, 'line' | 'column' | 'endLine' | 'endColumn'> {
  readonly path: string;
  readonly label: string;
}

/**
 * Where a finding goes. Code findings (AI ones too) and secrets: their location. Supply-chain findings: the usage when the
 * scanner found one, else the lockfile line; the other location becomes related information.
 */
export function reportedLocationsOf(finding: Finding): ReportedLocation[] {
  const locations: ReportedLocation[] = [];
  const usage = finding.sca?.usage;
  if (usage) locations.push({ ...usage, path: usage.filePath, label: 'Vulnerable code is used here' });
  const lockPath = lockfilePathOf(finding.sca?.lockfileLineUrl);
  const lockLine = finding.sca?.lockfileLine;
  if (finding.sca && lockPath && lockLine) {
    locations.push({
      path: lockPath,
      line: lockLine,
      label: `${[finding.sca.package ?? 'Dependency', finding.sca.version].filter(Boolean).join(' ')} is locked here`,
    });
  }
  if (finding.location && (!finding.sca || locations.length === 0)) {
    locations.unshift({ ...finding.location, path: finding.location.filePath, label: 'Finding' });
  }
  return locations;
}

/**
 * The path of a finding's first reported location ({@link reportedLocationsOf}), without building them: the open
 * files' findings are sorted out by it in one turn, so it must not build objects per finding
 * (docs/performance.md, "Drawing diagnostics").
 */
export function firstReportedPath(finding: Finding): string | undefined {
  const { sca } = finding;
  if (!sca) return finding.location?.filePath;
  if (sca.usage) return sca.usage.filePath;
  const lockPath = lockfilePathOf(sca.lockfileLineUrl);
  return lockPath && sca.lockfileLine ? lockPath : finding.location?.filePath;
}
