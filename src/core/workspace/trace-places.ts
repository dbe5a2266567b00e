/**
 * Where each step of a finding's dataflow trace is in today's code: the same placement as the
 * finding's own (a placer that knows how each file changed since the scanned commit), so a step
 * moves with edits above it, follows a rename, and says so when its code was deleted. A step
 * whose file is not in the workspace (another repository, a path that would leave the folder)
 * keeps the platform's link instead. Pure: the placer is a function.
 */
import type { TraceRole, TraceStep } from '../model/finding-story';
import { confinePath, toPlannedRange, type PlannedRange } from './diagnostic-plan';
import type { Placer } from './placement';
import { english, type Say } from '../l10n';

interface StepFacts {
  readonly role: TraceRole;
  /** 1-based position in the trace, and how many steps it has. */
  readonly number: number;
  readonly of: number;
  /** The code at the step, as the platform sent it. */
  readonly content?: string;
  /** The platform's link to the step's line on the code host. */
  readonly url?: string;
  /** The path and 1-based line the scan gave. */
  readonly scannedPath: string;
  readonly scannedLine: number;
}

/**
 * `here`: in a file of the folder (`changed` when the step's own code changed since the scan, so
 * this is the closest place). `deleted`: its code is no longer in this copy. `elsewhere`: not in
 * this workspace, only the platform's link leads to it.
 */
export type TracePlace = StepFacts &
  (
    | { readonly kind: 'here'; readonly relativePath: string; readonly range: PlannedRange; readonly changed: boolean }
    | { readonly kind: 'deleted' }
    | { readonly kind: 'elsewhere' }
  );

/**
 * Places every step, in the trace's order. `placer` is undefined when the finding's repository
 * is not a folder of the workspace: then every step is elsewhere.
 */
export function placeTrace(steps: readonly TraceStep[], placer: Placer | undefined): TracePlace[] {
  return steps.map((step, i) => {
    const facts: StepFacts = {
      role: step.role,
      number: i + 1,
      of: steps.length,
      scannedPath: step.range.filePath,
      scannedLine: step.range.line,
      ...(step.content ? { content: step.content } : {}),
      ...(step.locationUrl ? { url: step.locationUrl } : {}),
    };
    const relative = placer ? confinePath(step.range.filePath) : undefined;
    const range = toPlannedRange(step.range);
    if (!placer || !relative || !range) return { ...facts, kind: 'elsewhere' };
    const today = placer(relative, range);
    if (today?.kind === 'deleted') return { ...facts, kind: 'deleted' };
    // Not mapped (yet, or the scanned commit is not here): the scanned place is all there is.
    if (!today || today.kind === 'scanned') return { ...facts, kind: 'here', relativePath: relative, range, changed: false };
    return { ...facts, kind: 'here', relativePath: today.relativePath, range: today.range, changed: today.kind === 'changed' };
  });
}

/** `source (1 of 3)`: how a step is named wherever a trace is listed. */
export function sayStepName(place: Pick<TracePlace, 'role' | 'number' | 'of'>, t: Say): string {
  switch (place.role) {
    case 'source':
      return t('source ({0} of {1})', place.number, place.of);
    case 'step':
      return t('step ({0} of {1})', place.number, place.of);
    case 'sink':
      return t('sink ({0} of {1})', place.number, place.of);
  }
}

/** What the tainted data does at a role, in a few words. */
export function sayRoleMeaning(role: TraceRole, t: Say): string {
  switch (role) {
    case 'source':
      return t('where the untrusted data comes in');
    case 'step':
      return t('the data passes through here');
    case 'sink':
      return t('where it reaches the dangerous call');
  }
}

/** `src/app.py:12`, `src/app.py:12 · code changed since the scan`, `old.py:3 · no longer in this copy`, `lib/x.py:4 · not in this workspace`. */
export function sayStepPlace(place: TracePlace, t: Say): string {
  switch (place.kind) {
    case 'here':
      return `${place.relativePath}:${place.range.startLine + 1}${place.changed ? ` · ${t('code changed since the scan')}` : ''}`;
    case 'deleted':
      return `${place.scannedPath}:${place.scannedLine} · ${t('no longer in this copy')}`;
    case 'elsewhere':
      return `${place.scannedPath}:${place.scannedLine} · ${t('not in this workspace')}`;
  }
}

/** The step's name and place in English, for the agent's text and prompt. */
export const stepName = (place: Pick<TracePlace, 'role' | 'number' | 'of'>): string => sayStepName(place, english);
export const stepPlaceText = (place: TracePlace): string => sayStepPlace(place, english);

/** The step's code on one line, bounded, for lists and related information. */
export function stepCode(place: Pick<TracePlace, 'content'>, max = 120): string | undefined {
  const flat = place.content?.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
