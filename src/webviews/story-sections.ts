/**
 * The sections of the Finding Details page that tell the finding's story (the platform's v2
 * call): its trace, each step a control that opens it where its code is today, in order; what the
 * platform says about it (blocks pull requests, code owners, its fix pull request); where else the
 * same finding is; and its history. A deployment without the call, or a finding without a trace,
 * reads calmly as "no trace"; nothing else on the page depends on it. Pure, like the rest.
 */
import { fixPullRequestOf } from '../core/model/finding-story';
import { t } from '../core/l10n';
import { sayActivity, sayElsewhere, sayFixPullRequest, sayOwners } from '../core/services/story-words';
import { sayRoleMeaning, sayStepName, sayStepPlace, stepCode, type TracePlace } from '../core/workspace/trace-places';
import type { DetailsInput } from './details-input';
import { button, EMPTY, fields, html, join, link, prose, section, time, type Html } from './html';
import { kindOf } from '../core/model/finding-kinds';

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
  if (story.state === 'notAvailable') {
    return story.problem ? t('No trace: this deployment does not give traces ({0}).', story.problem) : t('No trace: this deployment does not give traces.');
  }
  if (story.state === 'failed') {
    return story.problem
      ? t("No trace for now: the platform's story of this finding could not be read ({0}). Refresh to try again.", story.problem)
      : t("No trace for now: the platform's story of this finding could not be read. Refresh to try again.");
  }
  if ((story.trace?.length ?? 0) === 0)
    return kindOf(finding).traced ? t('No trace: the platform gives none for this finding (its rule does not follow data).') : undefined;
  return undefined;
}

function traceSection(input: DetailsInput): Html {
  const { finding, story } = input;
  if (!story || (!kindOf(finding).traced && (story.trace?.length ?? 0) === 0)) return EMPTY;
  if (story.state === 'loading') return section(t('Trace'), 'trace', [html`<p class="loading" role="status" aria-busy="true">${t('Reading the trace…')}</p>`]);
  const none = noTrace(input);
  const steps = story.trace ?? [];
  if (none || steps.length === 0) return section(t('Trace'), 'trace', [html`<p class="note">${none ?? t('No trace.')}</p>`]);
  return section(t('Trace'), 'trace', [
    html`<p class="note">${t('How untrusted data reaches the finding, source first. Select a step to see its code.')}</p>`,
    html`<ol class="trace">${steps.map((step, i) => traceStep(step, i))}</ol>`,
    html`<p>${button('showTrace', t('Walk Through in Editor'))}</p>`,
  ]);
}

function traceStep(step: TracePlace, index: number): Html {
  const where =
    step.kind === 'here'
      ? button('openTraceStep', sayStepPlace(step, t), { data: { index: String(index) } })
      : step.kind === 'elsewhere' && step.url
        ? link(step.url, sayStepPlace(step, t))
        : html`<span>${sayStepPlace(step, t)}</span>${step.url ? html` ${link(step.url, t('the scanned line'))}` : undefined}`;
  const code = stepCode(step, 200);
  const name = sayStepName(step, t);
  return html`<li class="step role-${step.role} place-${step.kind}"><span class="role">${name.charAt(0).toUpperCase() + name.slice(1)}</span> ${where}<br><span class="note">${sayRoleMeaning(step.role, t)}</span>${code ? html`<pre><code>${code}</code></pre>` : undefined}</li>`;
}

/** What the platform says about the finding beyond its fields: pull requests it blocks, owners, its fix. */
function platformSection({ story }: DetailsInput): Html {
  const s = story?.story;
  if (!s) return EMPTY;
  const pr = fixPullRequestOf(s);
  const prText = sayFixPullRequest(pr, t);
  return section(t('On the platform'), 'platform', [
    fields([
      [
        t('Blocks pull requests'),
        s.isBlocking ? html`<strong>${t('yes')}</strong>: ${t('its rule runs in block mode, so a pull request that adds it cannot merge')}` : undefined,
      ],
      [t('Code owners'), sayOwners(s.codeOwners, t)],
      [t('Fix pull request'), prText ? join([prText, pr.url ? link(pr.url) : undefined, time(pr.at)], html` · `) : undefined],
      [t('Introduced in'), s.commitUrl ? link(s.commitUrl, t('the commit that introduced it')) : undefined],
      [t('First detected'), time(s.firstDetectedAt)],
    ]),
  ]);
}

function elsewhereSection({ story }: DetailsInput): Html {
  const others = story?.story?.elsewhere ?? [];
  if (others.length === 0) return EMPTY;
  return section(t('Elsewhere'), 'elsewhere', [
    html`<p class="note">${t('The same finding on other branches and pull requests.')}</p>`,
    html`<ul class="story-list">${others.map((e) => html`<li>${sayElsewhere(e, t)}${e.createdAt ? html` <span class="note">· ${t('found')} ${time(e.createdAt)}</span>` : undefined}</li>`)}</ul>`,
  ]);
}

function activitySection({ story }: DetailsInput): Html {
  const entries = story?.story?.activity ?? [];
  if (entries.length === 0) return EMPTY;
  return section(t('Activity'), 'activity', [
    html`<ol class="story-list activity">${entries.map((entry) => {
      const line = sayActivity(entry, t);
      const who = [line.actor ? t('by {0}', line.actor) : undefined, line.reason ? t('reason: {0}', line.reason) : undefined]
        .filter((p): p is string => p !== undefined)
        .join(', ');
      return html`<li>${line.date ? html`${time(line.date)} · ` : undefined}${prose(line.text)}${who ? html` <span class="note">(${who})</span>` : undefined}${line.note ? html`<br>${prose(line.note)}` : undefined}</li>`;
    })}</ol>`,
  ]);
}
