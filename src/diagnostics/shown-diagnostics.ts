/**
 * Our diagnostics as the records kept on disk (core/services/shown-snapshot.ts) and back, so a
 * start draws every one before the findings behind them are read. Drawn that way a diagnostic
 * does not know its finding yet. When the findings are read and planned, each file whose planned
 * diagnostics are the same as those drawn keeps them, and they are given their findings
 * (`giveFindings`): VS Code is not handed every diagnostic a second time.
 */
import * as vscode from 'vscode';
import type { ShownDiagnostic, ShownRange, ShownReader } from '../core/services/shown-snapshot';
import type { Keep } from './diagnostics-publisher';
import { DIAGNOSTIC_SOURCE, FindingDiagnostic } from './finding-diagnostic';
import { CodeLink, codeLink, sameUri } from './code-link';
import { sharedRange } from './shared-parts';

/** A diagnostic of ours as a record. */
export function shownRecord(d: vscode.Diagnostic): ShownDiagnostic {
  const raw = d.code;
  const code = typeof raw === 'object' ? raw : undefined;
  const value = typeof raw === 'object' ? raw.value : raw;
  const related = d.relatedInformation?.[0];
  return {
    range: rangeRecord(d.range),
    severity: d.severity,
    message: d.message,
    code: value === undefined ? '' : String(value),
    // The text of a copy: VS Code's Uri keeps the text it was formatted to, so formatting the
    // shown link itself would add that text to every link for as long as it is shown, and to
    // anything that passes the link on.
    ...(code ? { target: code instanceof CodeLink ? code.text() : vscode.Uri.from(code.target).toString() } : {}),
    ...(related ? { related: { uri: related.location.uri.toString(), range: rangeRecord(related.location.range), message: related.message } } : {}),
  };
}

/** Builds diagnostics (without their findings) and files from records. */
export const shownReader: ShownReader<[vscode.Uri, FindingDiagnostic[]], FindingDiagnostic> = {
  diagnostic(record) {
    const d = new FindingDiagnostic(toRange(record.range), record.message, record.severity, undefined);
    d.source = DIAGNOSTIC_SOURCE;
    // Only http(s) links become targets again, as when they were first drawn.
    d.code = codeLink(record.code, record.target) ?? record.code;
    if (record.related) {
      d.relatedInformation = [
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(vscode.Uri.parse(record.related.uri, true), toRange(record.related.range)),
          record.related.message,
        ),
      ];
    }
    return d;
  },
  file(uri, diagnostics) {
    return [vscode.Uri.parse(uri, true), diagnostics];
  },
};

/**
 * Which files a hand-over leaves as they are: those whose diagnostics shown (drawn by an earlier
 * hand-over, or remembered from the last session) are the same as those just built. They are
 * given the new findings instead: a refresh that changed little hands little to VS Code, which
 * serializes every diagnostic of a `set` and sends it to the window (docs/performance.md, "After
 * the last answer").
 */
export function keepWhatIsShown(collection: vscode.DiagnosticCollection): Keep {
  return (uri, built) => {
    if (!built) return false;
    const shown = collection.get(uri);
    if (!shown || !sameDiagnostics(shown, built)) return false;
    giveFindings(shown, built);
    return true;
  };
}

/** Whether the diagnostics drawn in a file are those just built for it (in the same order). */
export function sameDiagnostics(shown: readonly vscode.Diagnostic[], built: readonly vscode.Diagnostic[]): boolean {
  return shown.length === built.length && shown.every((d, i) => sameDiagnostic(d, built[i]));
}

/** Gives drawn diagnostics the findings (and drift facts) of those just built the same. */
export function giveFindings(shown: readonly vscode.Diagnostic[], built: readonly vscode.Diagnostic[]): void {
  for (const [i, d] of shown.entries()) {
    const from = built[i];
    if (!(d instanceof FindingDiagnostic) || !(from instanceof FindingDiagnostic)) continue;
    d.finding = from.finding;
    d.drift = from.drift;
  }
}

function sameDiagnostic(a: vscode.Diagnostic, b: vscode.Diagnostic): boolean {
  return (
    a.range.isEqual(b.range) &&
    a.message === b.message &&
    a.severity === b.severity &&
    a.source === b.source &&
    sameCode(a.code, b.code) &&
    sameRelated(a.relatedInformation, b.relatedInformation)
  );
}

function sameCode(a: vscode.Diagnostic['code'], b: vscode.Diagnostic['code']): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (a instanceof CodeLink && b instanceof CodeLink) return a.value === b.value && a.sameTarget(b);
  return a.value === b.value && sameUri(a.target, b.target);
}

function sameRelated(a: readonly vscode.DiagnosticRelatedInformation[] | undefined, b: readonly vscode.DiagnosticRelatedInformation[] | undefined): boolean {
  if (!a || !b) return (a?.length ?? 0) === (b?.length ?? 0);
  return (
    a.length === b.length &&
    a.every((r, i) => r.message === b[i].message && r.location.range.isEqual(b[i].location.range) && sameUri(r.location.uri, b[i].location.uri))
  );
}

function rangeRecord(range: vscode.Range): ShownRange {
  return [range.start.line, range.start.character, range.end.line, range.end.character];
}

function toRange([startLine, startCharacter, endLine, endCharacter]: ShownRange): vscode.Range {
  return sharedRange(startLine, startCharacter, endLine, endCharacter);
}
