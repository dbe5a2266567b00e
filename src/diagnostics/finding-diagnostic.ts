/**
 * A `Diagnostic` that remembers its finding (for code actions and "open in platform"), built
 * from a planned diagnostic (pure, see core/workspace/diagnostic-plan.ts).
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { Level, PlannedDiagnostic, PlannedRange } from '../core/workspace/diagnostic-plan';
import { isHttpUrl } from '../core/model/links';
import { DIAGNOSTIC_SOURCE, diagnosticMessage } from './diagnostic-message';

export { DIAGNOSTIC_SOURCE };

/** How many findings at one place the hover and the quick-fix menu speak of; the tree lists them all. */
export const FINDINGS_PER_PLACE = 3;

const SEVERITY: Record<Level, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** How a diagnostic's place relates to the scan, for the hover. */
export interface DiagnosticDrift {
  /** The finding's own code changed since the scan: this is the closest place. */
  readonly changed: boolean;
  /** The scanned commit, when known. */
  readonly commit?: string;
  /** 0-based line at the scan. */
  readonly scannedLine: number;
}

export class FindingDiagnostic extends vscode.Diagnostic {
  constructor(
    range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity,
    /**
     * Undefined only for a diagnostic drawn at start from what the last session showed, until the
     * findings behind it are read and found to draw the same (then it is given them, not drawn
     * again). Hover, code actions and commands pass such a diagnostic by ({@link isFindingDiagnostic}).
     */
    public finding: Finding | undefined,
    public drift?: DiagnosticDrift,
  ) {
    super(range, message, severity);
  }
}

/** One of our diagnostics whose finding is known. */
export type KnownFindingDiagnostic = FindingDiagnostic & { readonly finding: Finding };

export function isFindingDiagnostic(diagnostic: vscode.Diagnostic): diagnostic is KnownFindingDiagnostic {
  return diagnostic instanceof FindingDiagnostic && diagnostic.finding !== undefined;
}

export function toRange(range: PlannedRange): vscode.Range {
  return new vscode.Range(range.startLine, range.startCharacter, range.endLine, range.endCharacter);
}

/** Only http(s) links from the server become clickable targets (never command:, file:, javascript:). */
export function safeLink(url: string | undefined): vscode.Uri | undefined {
  if (!isHttpUrl(url)) return undefined;
  try {
    return vscode.Uri.parse(url, true);
  } catch {
    return undefined;
  }
}

/**
 * A link as a Uri, for a diagnostic's code: links that differ only in a trailing number (the
 * finding's id under its platform page) share one parsed prefix, so tens of thousands of
 * diagnostics do not each parse a URL twice and keep its pieces (docs/performance.md, "Memory").
 * Anything else is checked and parsed as {@link safeLink} does.
 */
export function linkTarget(url: string | undefined): vscode.Uri | undefined {
  const digits = url ? trailingDigits(url) : 0;
  if (!url || digits === 0) return safeLink(url);
  const prefix = url.slice(0, url.length - digits);
  let base = prefixes.get(prefix);
  if (base === undefined) {
    const parsed = safeLink(prefix);
    // Only a prefix that ends in its path can take the number onto that path.
    base = parsed && parsed.query === '' && parsed.fragment === '' && parsed.path.endsWith('/') ? parsed : null;
    if (prefixes.size >= 64) prefixes.clear();
    prefixes.set(prefix, base);
  }
  return base ? base.with({ path: base.path + url.slice(prefix.length) }) : safeLink(url);
}

/**
 * How many digits end the URL right after a `/` (0 when it does not end so). A loop, not a
 * regular expression: a look-behind pattern is tried at every position of every link, a large
 * share of drawing a diagnostic (docs/performance.md, "Drawing diagnostics").
 */
function trailingDigits(url: string): number {
  let start = url.length;
  while (start > 0 && url.charCodeAt(start - 1) >= 0x30 && url.charCodeAt(start - 1) <= 0x39) start--;
  return start < url.length && start > 0 && url.charCodeAt(start - 1) === 0x2f ? url.length - start : 0;
}
const prefixes = new Map<string, vscode.Uri | null>();

/** `trace`: the finding's trace steps once its story was read, listed after its own related place. */
export function toDiagnostic(
  planned: PlannedDiagnostic, folder: vscode.Uri, findingUrl: (f: Finding) => string | undefined, drift?: DiagnosticDrift, trace?: readonly vscode.DiagnosticRelatedInformation[],
): FindingDiagnostic {
  const { finding } = planned;
  const diagnostic = new FindingDiagnostic(toRange(planned.range), diagnosticMessage(finding, drift?.changed), SEVERITY[planned.level], finding, drift);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  const target = linkTarget(findingUrl(finding)) ?? safeLink(finding.lineOfCodeUrl);
  // The code users search for: a supply-chain finding's advisory rather than its `ssc-…` rule id.
  const code = finding.sca?.advisory ?? finding.ruleName;
  diagnostic.code = target ? { value: code, target } : code;
  if (planned.related) {
    const uri = vscode.Uri.joinPath(folder, planned.related.relativePath);
    diagnostic.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, toRange(planned.related.range)), planned.related.message)];
  }
  if (trace && trace.length > 0) diagnostic.relatedInformation = [...(diagnostic.relatedInformation ?? []), ...trace];
  return diagnostic;
}
