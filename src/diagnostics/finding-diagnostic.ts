/**
 * A `Diagnostic` that remembers its finding (for code actions and "open in platform"), built
 * from a planned diagnostic (pure, see core/workspace/diagnostic-plan.ts).
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { Level, PlannedDiagnostic, PlannedRange } from '../core/workspace/diagnostic-plan';
import { DIAGNOSTIC_SOURCE, diagnosticMessage } from './diagnostic-message';
import { codeLink, safeLink } from './code-link';
import { sharedFile, sharedRange, sharedText } from './shared-parts';

export { DIAGNOSTIC_SOURCE, safeLink };

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
    range: vscode.Range,
    message: string,
    severity: vscode.DiagnosticSeverity,
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

/** A planned range as a `Range`, shared with equal ranges (shared-parts.ts). */
export function toRange(range: PlannedRange): vscode.Range {
  return sharedRange(range.startLine, range.startCharacter, range.endLine, range.endCharacter);
}

/** `trace`: the finding's trace steps once its story was read, listed after its own related place. */
export function toDiagnostic(
  planned: PlannedDiagnostic,
  folder: vscode.Uri,
  findingUrl: (f: Finding) => string | undefined,
  drift?: DiagnosticDrift,
  trace?: readonly vscode.DiagnosticRelatedInformation[],
): FindingDiagnostic {
  const { finding } = planned;
  const message = diagnosticMessage(finding, drift?.changed);
  // A message sent with the finding is already one copy per rule; one built for it (a supply-chain finding's) is shared here.
  const diagnostic = new FindingDiagnostic(
    toRange(planned.range),
    message === finding.message ? finding.message : sharedText(message),
    SEVERITY[planned.level],
    finding,
    drift,
  );
  diagnostic.source = DIAGNOSTIC_SOURCE;
  // The code users search for: a supply-chain finding's advisory rather than its `ssc-…` rule id.
  const code = finding.sca?.advisory ?? finding.ruleName;
  diagnostic.code = codeLink(code, findingUrl(finding)) ?? codeLink(code, finding.lineOfCodeUrl) ?? code;
  if (planned.related) {
    const uri = sharedFile(folder, planned.related.relativePath);
    diagnostic.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, toRange(planned.related.range)), sharedText(planned.related.message)),
    ];
  }
  if (trace && trace.length > 0) diagnostic.relatedInformation = [...(diagnostic.relatedInformation ?? []), ...trace];
  return diagnostic;
}
