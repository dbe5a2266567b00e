/**
 * The sections of the Finding Details page that tell the finding's story (the platform's v2
 * call): its trace, each step a control that opens it where its code is today, in order; what the
 * platform says about it (blocks pull requests, code owners, its fix pull request); where else the
 * same finding is; and its history. A deployment without the call, or a finding without a trace,
 * reads calmly as "no trace"; nothing else on the page depends on it. Pure, like the rest.
 */
import { fixPullRequestOf } from '../core/model/finding-story';
import { activityLine, elsewhereText, fixPullRequestText, ownersText } from '../core/services/story-words';
import { stepCode, stepName, stepPlaceText, ROLE_MEANINGS, type TracePlace } from '../core/workspace/trace-places';
import type { DetailsInput } from './details-input';
import { button, EMPTY, fields, html, join, link, prose, section, time, type Html } from './html';

/** Below where the finding is: how the data gets there, and what the platform says of it. */
export function pathSections(input: DetailsInput): Html {
  return join([traceSection(input), platformSection(input)], html`\n`);
}

/** Further down: where else the same finding is, and what happened to it. */
export function historySections(input: DetailsInput): Html {
  return join([elsewhereSection(input), activitySection(input)], html`\n`);
}

/** Why there is no trace to show, in a few calm words (undefined: there is one, or it is on its way). */
function noTrace({ finding, story }: DetailsInput): string | undefined {
  if (!story || story.state === 'loading') return undefined;
  if (story.state === 'notAvailable') return `No trace: this deployment does not give traces${story.problem ? ` (${story.problem})` : ''}.`;
  if (story.state === 'failed') return `No trace for now: the platform's story of this finding could not be read${story.problem ? ` (${story.problem})` : ''}. Refresh to try again.`;
  if ((story.trace?.length ?? 0) === 0) return finding.issueType === 'sast' ? 'No trace: the platform gives none for this finding (its rule does not follow data).' : undefined;
  return undefined;
}

function traceSection(input: DetailsInput): Html {
  const { finding, story } = input;
  if (!story || (finding.issueType !== 'sast' && (story.trace?.length ?? 0) === 0)) return EMPTY;
  if (story.state === 'loading') return section('Trace', 'trace', [html`<p class="loading" role="status" aria-busy="true">Reading the trace…</p>`]);
  const none = noTrace(input);
  const steps = story.trace ?? [];
  if (none || steps.length === 0) return section('Trace', 'trace', [html`<p class="note">${none ?? 'No trace.'}</p>`]);
  return section('Trace', 'trace', [
    html`<p class="note">How untrusted data reaches the finding, source first. Select a step to see its code.</p>`,
    html`<ol class="trace">${steps.map((step, i) => traceStep(step, i))}</ol>`,
    html`<p>${button('showTrace', 'Walk Through in Editor')}</p>`,
  ]);
}

function traceStep(step: TracePlace, index: number): Html {
  const where = step.kind === 'here'
    ? button('openTraceStep', stepPlaceText(step), { data: { index: String(index) } })
    : step.kind === 'elsewhere' && step.url ? link(step.url, stepPlaceText(step))
      : html`<span>${stepPlaceText(step)}</span>${step.url ? html` ${link(step.url, 'the scanned line')}` : undefined}`;
  const code = stepCode(step, 200);
  const name = stepName(step);
  return html`<li class="step role-${step.role} place-${step.kind}"><span class="role">${name.charAt(0).toUpperCase() + name.slice(1)}</span> ${where}<br><span class="note">${ROLE_MEANINGS[step.role]}</span>${code ? html`<pre><code>${code}</code></pre>` : undefined}</li>`;
}

/** What the platform says about the finding beyond its fields: pull requests it blocks, owners, its fix. */
function platformSection({ story }: DetailsInput): Html {
  const s = story?.story;
  if (!s) return EMPTY;
  const pr = fixPullRequestOf(s);
  const prText = fixPullRequestText(pr);
  return section('On the platform', 'platform', [fields([
    ['Blocks pull requests', s.isBlocking ? html`<strong>yes</strong>: its rule runs in block mode, so a pull request that adds it cannot merge` : undefined],
    ['Code owners', ownersText(s.codeOwners)],
    ['Fix pull request', prText ? join([prText, pr.url ? link(pr.url) : undefined, time(pr.at)], html` · `) : undefined],
    ['Introduced in', s.commitUrl ? link(s.commitUrl, 'the commit that introduced it') : undefined],
    ['First detected', time(s.firstDetectedAt)],
  ])]);
}

function elsewhereSection({ story }: DetailsInput): Html {
  const others = story?.story?.elsewhere ?? [];
  if (others.length === 0) return EMPTY;
  return section('Elsewhere', 'elsewhere', [
    html`<p class="note">The same finding on other branches and pull requests.</p>`,
    html`<ul class="story-list">${others.map((e) => html`<li>${elsewhereText(e)}${e.createdAt ? html` <span class="note">· found ${time(e.createdAt)}</span>` : undefined}</li>`)}</ul>`,
  ]);
}

function activitySection({ story }: DetailsInput): Html {
  const entries = story?.story?.activity ?? [];
  if (entries.length === 0) return EMPTY;
  return section('Activity', 'activity', [html`<ol class="story-list activity">${entries.map((entry) => {
    const line = activityLine(entry);
    const who = [line.actor ? `by ${line.actor}` : undefined, line.reason ? `reason: ${line.reason}` : undefined].filter((p): p is string => p !== undefined).join(', ');
    return html`<li>${line.date ? html`${time(line.date)} · ` : undefined}${prose(line.text)}${who ? html` <span class="note">(${who})</span>` : undefined}${line.note ? html`<br>${prose(line.note)}` : undefined}</li>`;
  })}</ol>`]);
}
