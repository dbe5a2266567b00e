/**
 * The composition of a finding's story (the v2 call's trace, elsewhere, activity, owners) with
 * the places that show it, so the composition root stays a list: one `FindingStories` service
 * that every reader shares, and Problems following it. Once a story with a trace is read (by the
 * details panel, the hover, a command or the agent), the finding's diagnostic lists the steps as
 * related information: only the finding's file is handed to VS Code again, never all of Problems.
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
import type { ProblemsRenderer } from './diagnostics/problems-renderer';
import { traceRelatedInformation } from './diagnostics/trace-related';

export interface StoriesDeps {
  readonly api: () => PlatformApi;
  readonly deploymentId: () => string | undefined;
  readonly places: FindingPlaces;
  /** Problems (made after this, as it reads the related information from here). */
  readonly renderer: () => ProblemsRenderer;
}

export interface Stories extends vscode.Disposable {
  readonly stories: FindingStories;
  /** The finding's trace as related information, for each diagnostic Problems builds. */
  readonly related: (finding: Finding) => readonly vscode.DiagnosticRelatedInformation[] | undefined;
}

export function createStories({ api, deploymentId, places, renderer }: StoriesDeps): Stories {
  const stories = new FindingStories(api, deploymentId);
  /** The file the finding's diagnostic is in today, if it is drawn. */
  const fileOf = (finding: Finding): vscode.Uri | undefined => {
    const place = places.place(finding);
    return place && place.kind !== 'deleted' ? place.uri : undefined;
  };
  const related = (finding: Finding): readonly vscode.DiagnosticRelatedInformation[] | undefined => {
    const steps = stories.traceOf(finding);
    const own = steps && places.place(finding);
    if (!steps || !own || own.kind === 'deleted') return undefined;
    return traceRelatedInformation(traceToday(places, finding, steps), new vscode.Location(own.uri, toRange(own.range)));
  };
  const subscriptions = [
    stories.onDidRead((finding) => {
      const steps = stories.traceOf(finding);
      if (!steps) return;
      mapTraceFiles(places, finding, steps);
      const file = fileOf(finding);
      if (file) renderer().redrawDocument(file);
    }, 'Problems\' trace steps'),
    places.drift.onDidEditDocument((uri) => {
      const edited = uri.toString();
      const files = new Map<string, vscode.Uri>();
      for (const finding of stories.tracedFindings()) {
        const file = fileOf(finding);
        const steps = stories.traceOf(finding);
        if (!file || !steps || file.toString() === edited) continue;
        if (traceToday(places, finding, steps).some((s) => s.uri?.toString() === edited)) files.set(file.toString(), file);
      }
      for (const file of files.values()) renderer().redrawDocument(file);
    }),
  ];
  return {
    stories,
    related,
    dispose: () => {
      for (const s of subscriptions) s.dispose();
      stories.dispose();
    },
  };
}
