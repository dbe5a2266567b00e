/**
 * The stories registration: a finding's story (the v2 call's trace, elsewhere, activity, owners)
 * with the places that show it: one `FindingStories` service that every reader shares, and what
 * Problems follows of it. Once a story with a trace is read (by the details panel, the hover, a
 * command or the agent), the finding's diagnostic lists the steps as related information: only
 * the finding's file is handed to VS Code again (`onDidChangeTraceFile`), never all of Problems.
 * The steps move with edits as the finding does: an edit of a step's file rebuilds the file of
 * the findings whose trace passes there.
 */
import * as vscode from 'vscode';
import type { Finding } from './core/model/types';
import { FindingStories } from './core/services/finding-stories';
import type { PlatformApi } from './core/services/platform-api';
import type { FindingPlaces } from './code-places/finding-places';
import { mapTraceFiles, traceToday } from './code-places/trace-places';
import { toRange } from './diagnostics/finding-diagnostic';
import { traceRelatedInformation } from './diagnostics/trace-related';

export interface StoriesDeps {
  readonly api: () => PlatformApi;
  readonly deploymentId: () => string | undefined;
  readonly places: FindingPlaces;
}

export interface Stories {
  readonly stories: FindingStories;
  /** The finding's trace as related information, for each diagnostic Problems builds. */
  readonly traceRelated: (finding: Finding) => readonly vscode.DiagnosticRelatedInformation[] | undefined;
  /** A file whose findings' related information changed: Problems builds it again. */
  readonly onDidChangeTraceFile: vscode.Event<vscode.Uri>;
}

export function registerStories(context: vscode.ExtensionContext, { api, deploymentId, places }: StoriesDeps): Stories {
  const stories = new FindingStories(api, deploymentId);
  const changed = new vscode.EventEmitter<vscode.Uri>();
  /** The file the finding's diagnostic is in today, if it is drawn. */
  const fileOf = (finding: Finding): vscode.Uri | undefined => {
    const place = places.place(finding);
    return place && place.kind !== 'deleted' ? place.uri : undefined;
  };
  const traceRelated = (finding: Finding): readonly vscode.DiagnosticRelatedInformation[] | undefined => {
    const steps = stories.traceOf(finding);
    const own = steps && places.place(finding);
    if (!steps || !own || own.kind === 'deleted') return undefined;
    return traceRelatedInformation(traceToday(places, finding, steps), new vscode.Location(own.uri, toRange(own.range)));
  };
  context.subscriptions.push(
    stories.onDidRead((finding) => {
      const steps = stories.traceOf(finding);
      if (!steps) return;
      mapTraceFiles(places, finding, steps);
      const file = fileOf(finding);
      if (file) changed.fire(file);
    }, "Problems' trace steps"),
    places.drift.onDidEditDocument((uri) => {
      const edited = uri.toString();
      const files = new Map<string, vscode.Uri>();
      for (const finding of stories.tracedFindings()) {
        const file = fileOf(finding);
        const steps = stories.traceOf(finding);
        if (!file || !steps || file.toString() === edited) continue;
        if (traceToday(places, finding, steps).some((s) => s.uri?.toString() === edited)) files.set(file.toString(), file);
      }
      for (const file of files.values()) changed.fire(file);
    }),
    changed,
    stories,
  );
  return { stories, traceRelated, onDidChangeTraceFile: changed.event };
}
