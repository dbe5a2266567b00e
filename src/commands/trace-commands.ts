/**
 * Show Trace: a code finding's dataflow trace, read from the platform's story when first wanted,
 * each step placed where its code is today, walked in the editor one step at a time (a list
 * whose active step is shown in the editor as you move; Enter opens it, a step outside the
 * workspace opens on the platform). Given `{ findingId, issueType }` (automation) it asks
 * nothing and resolves with the steps. A finding without a trace, or a deployment without the
 * call, reads calmly as "no trace": in the list (or the status bar), never a toast.
 */
import { showCode } from '../code-places/show-code';
import * as vscode from 'vscode';
import { showInformation, withProgress } from '../host/notify';
import { formatCount, t } from '../core/l10n';
import { distinctName } from '../core/model/finding-names';
import type { Finding } from '../core/model/types';
import { sayRoleMeaning, sayStepName, sayStepPlace, stepCode } from '../core/workspace/trace-places';
import { mapTraceFiles, stepRange, traceToday, type TraceStepToday } from '../code-places/trace-places';
import { safeLink } from '../diagnostics/finding-diagnostic';
import { codeColumn } from '../webviews/details-code';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { isFindingTarget, targetFinding, type FindingTarget } from './finding-target';
import { inertIcons } from '../core/model/untrusted-text';
import { kindOf } from '../core/model/finding-kinds';

export type TraceCommandsDeps = Pick<CommandDeps, 'session' | 'findings' | 'selectedItem' | 'places' | 'stories'>;

/** One step as automation gets it (docs: automation). */
export interface TraceStepResult {
  readonly role: 'source' | 'step' | 'sink';
  /** Where the step's code is in the workspace today. */
  readonly uri?: vscode.Uri;
  readonly range?: vscode.Range;
  /** The platform's link, where the step is not in the workspace. */
  readonly url?: string;
  /** The step's code was deleted since the scan. */
  readonly gone?: boolean;
}

export function stepResult(step: TraceStepToday): TraceStepResult {
  if (step.kind === 'here' && step.uri) return { role: step.role, uri: step.uri, range: stepRange(step) };
  return { role: step.role, ...(step.url ? { url: step.url } : {}), ...(step.kind === 'deleted' ? { gone: true } : {}) };
}

/** The trace placed today, or why there is none, in plain words. */
export async function readTrace(app: Pick<CommandDeps, 'stories' | 'places'>, finding: Finding): Promise<{ steps: TraceStepToday[] } | { none: string }> {
  if (!kindOf(finding).traced) return { none: t('only code findings have a trace') };
  const answer = await app.stories.get(finding);
  if (!answer) throw new Error(t("Sign in to read the finding's trace from the platform."));
  if (answer.kind === 'notAvailable') return { none: t('this deployment does not give traces ({0})', answer.unavailable.status) };
  const trace = answer.story.trace ?? [];
  if (trace.length === 0) return { none: t('the platform gives none for this finding (its rule does not follow data)') };
  mapTraceFiles(app.places, finding, trace);
  return { steps: traceToday(app.places, finding, trace) };
}

export async function showTrace(app: TraceCommandsDeps, target: CommandItem | FindingTarget | undefined): Promise<TraceStepResult[] | undefined> {
  const finding = targetFinding(app, target);
  if (!finding) {
    void showInformation(t('AppSec: select a code finding in the tree, or put the cursor on one in the editor, to see its trace.'));
    return undefined;
  }
  const trace = await withProgress({ location: vscode.ProgressLocation.Window, title: t('AppSec: reading the trace…') }, () => readTrace(app, finding));
  if (isFindingTarget(target)) {
    if ('none' in trace) vscode.window.setStatusBarMessage(`$(info) ${t('AppSec: no trace for {0}: {1}.', distinctName(finding), trace.none)}`, 8_000);
    return 'none' in trace ? [] : trace.steps.map(stepResult);
  }
  await walk(finding, 'none' in trace ? trace.none : trace.steps);
  return 'none' in trace ? [] : trace.steps.map(stepResult);
}

interface StepItem extends vscode.QuickPickItem {
  readonly step?: TraceStepToday;
}

const ROLE_ICONS = { source: 'debug-start', step: 'arrow-down', sink: 'target' } as const;

function itemOf(step: TraceStepToday): StepItem {
  const icon = step.kind === 'deleted' ? 'circle-slash' : step.kind === 'elsewhere' ? 'link-external' : ROLE_ICONS[step.role];
  // A step's name, place and code are the platform's (the scanned code): drawn as text, never as icons.
  return {
    label: `$(${icon}) ${inertIcons(sayStepName(step, t))}`,
    description: inertIcons(sayStepPlace(step, t)),
    detail: inertIcons(stepCode(step, 200) ?? sayRoleMeaning(step.role, t)),
    step,
  };
}

/**
 * The steps in a list: moving through it shows each in the editor (the list keeps the focus);
 * Enter opens the step (on the platform when it is not here). Resolves when the list closes.
 */
function walk(finding: Finding, steps: readonly TraceStepToday[] | string): Promise<void> {
  const pick = vscode.window.createQuickPick<StepItem>();
  // The list keeps the focus, so the editor's selection is faint: the step's lines are lit as "Go to Line" lights them.
  const lit = vscode.window.createTextEditorDecorationType({ backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'), isWholeLine: true });
  pick.title =
    typeof steps === 'string'
      ? t('AppSec: trace of {0}', distinctName(finding))
      : steps.length === 1
        ? t('AppSec: trace of {0} (1 step)', distinctName(finding))
        : t('AppSec: trace of {0} ({1} steps, source first)', distinctName(finding), formatCount(steps.length));
  pick.placeholder = typeof steps === 'string' ? t('No trace') : t('Move through the steps to see each in the editor; Enter opens one, Escape closes');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items =
    typeof steps === 'string' ? [{ label: `$(info) ${t('No trace')}`, detail: t('The trace of this finding is not there: {0}.', steps) }] : steps.map(itemOf);
  return new Promise<void>((resolve) => {
    const subscriptions = [
      pick.onDidChangeActive(([active]) => void (active?.step ? show(active.step, true, lit) : undefined)),
      pick.onDidAccept(() => {
        const step = pick.activeItems[0]?.step;
        pick.hide();
        if (step) void show(step, false);
      }),
      pick.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        lit.dispose();
        pick.dispose();
        resolve();
      }),
    ];
    pick.show();
  });
}

/** A step in the editor (`preview`: the list keeps the focus, the step lit), or its platform link when it is not here. */
async function show(step: TraceStepToday, preview: boolean, lit?: vscode.TextEditorDecorationType): Promise<void> {
  if (step.kind === 'here' && step.uri) {
    const range = stepRange(step);
    const editor = await showCode(step.uri, range, { preview: true, preserveFocus: preview, viewColumn: codeColumn() }).then(undefined, () => undefined);
    if (editor && lit) {
      for (const other of vscode.window.visibleTextEditors) other.setDecorations(lit, []);
      editor.setDecorations(lit, [range]);
    }
    return;
  }
  const link = safeLink(step.url);
  if (!preview && link) await vscode.env.openExternal(link);
}
