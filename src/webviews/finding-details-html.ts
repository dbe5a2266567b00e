/**
 * The Finding Details page: every field the platform sends, in sections shown only when they
 * have content, with the actions at the top. Pure: the panel passes what it knows and gets the
 * whole document back, so everything here is unit-tested in Node. Strict CSP: no inline script
 * or style (not even `style=`); the script is the extension's file with a nonce, the stylesheet
 * the extension's file; server text is always escaped text (see `html.ts`).
 */
import { isHttpUrl } from '../core/model/links';
import { DEFAULT_MAPPING, levelFor } from '../core/workspace/diagnostic-plan';
import { findingLabel, secretName } from '../core/model/finding-names';
import type { DetailsInput } from './details-input';
import { fixPullRequestOf } from '../core/model/finding-story';
import { mayIgnore, sayTriageLimit } from '../core/services/story-words';
import { detailSections, statusText } from './details-sections';
import { button, html, wordsText, type Html } from './html';
import { displayLanguage, t } from '../core/l10n';
import { valueLabel } from '../core/services/filters';
import { kindOf } from '../core/model/finding-kinds';

export interface WebviewResources {
  readonly nonce: string;
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
}

/** The messages the page's script posts to the extension. */
export type DetailsMessage =
  | { readonly type: 'triage'; readonly state: 'ignored' | 'reviewing' | 'fixing' | 'reopened' }
  | { readonly type: 'addNote' }
  | { readonly type: 'createTicket' }
  | { readonly type: 'linkTicket' }
  | { readonly type: 'unlinkTicket' }
  | { readonly type: 'unlinkTicketEverywhere' }
  | { readonly type: 'openInPlatform' }
  | { readonly type: 'openLink'; readonly url: string }
  | { readonly type: 'openLocation' }
  | { readonly type: 'applyFix' }
  | { readonly type: 'copyRuleId' }
  | { readonly type: 'refresh' }
  | { readonly type: 'showTrace' }
  | { readonly type: 'openTraceStep'; readonly index: number }
  | { readonly type: 'requestAutofix' }
  | { readonly type: 'fixWithAgent' }
  // The page's script has loaded (a new document, or the same one after the panel was hidden).
  | { readonly type: 'ready' };

type SimpleType = Exclude<DetailsMessage['type'], 'triage' | 'openLink' | 'openTraceStep'>;
type TriageTarget = Extract<DetailsMessage, { type: 'triage' }>['state'];

const SIMPLE_TYPES: ReadonlySet<string> = new Set<SimpleType>([
  'addNote',
  'createTicket',
  'linkTicket',
  'unlinkTicket',
  'unlinkTicketEverywhere',
  'openInPlatform',
  'openLocation',
  'applyFix',
  'copyRuleId',
  'refresh',
  'showTrace',
  'requestAutofix',
  'fixWithAgent',
  'ready',
]);
const TRIAGE_TARGETS: ReadonlySet<string> = new Set<TriageTarget>(['ignored', 'reviewing', 'fixing', 'reopened']);

/**
 * Validates a message from the page (untrusted): undefined for anything else. Builds a fresh
 * object from the checked fields, so nothing else the page put in the message travels on.
 */
export function parseDetailsMessage(raw: unknown): DetailsMessage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { type, state, url, index } = raw as Record<string, unknown>;
  if (typeof type !== 'string') return undefined;
  if (SIMPLE_TYPES.has(type)) return { type: type as SimpleType };
  if (type === 'triage') return typeof state === 'string' && TRIAGE_TARGETS.has(state) ? { type, state: state as TriageTarget } : undefined;
  if (type === 'openLink') return typeof url === 'string' && isHttpUrl(url) ? { type, url } : undefined;
  if (type === 'openTraceStep') return typeof index === 'number' && Number.isSafeInteger(index) && index >= 0 && index < 1000 ? { type, index } : undefined;
  return undefined;
}

/**
 * What the page's `main` holds: the panel sends this alone to redraw a page already shown, so
 * the document (its stylesheet and script) stays and nothing is drawn unstyled meanwhile.
 */
export function findingDetailsBody(input: DetailsInput): DetailsBody {
  return {
    finding: `${input.finding.issueType}:${input.finding.id}`,
    title: t('Finding: {0}', findingLabel(input.finding)),
    content: html`${header(input)}
${statusLines(input)}
${detailSections(input)}`,
  };
}

/** The body of a page, as the panel sends it to redraw one (see `details.js`). */
export interface DetailsBody {
  readonly finding: string;
  readonly title: string;
  readonly content: Html;
}

export function findingDetailsHtml(input: DetailsInput, resources: WebviewResources): string {
  return detailsDocument(findingDetailsBody(input), resources);
}

/** The whole page around a body: what the panel sets when it has no page to redraw. */
export function detailsDocument(body: DetailsBody, resources: WebviewResources): string {
  const { nonce, cspSource } = resources;
  // The policy's quotes are markup; the host's values in it are escaped like any other value.
  // The panel shows no image of the platform's (its icons are text): images only from the
  // extension's own resources, never https: or data:, so hostile markup that slipped through could
  // not load one (a tracking pixel, a picture of a fake button). VS Code 1.100's webview does not
  // finish drawing the page with no image source at all.
  const csp = html`default-src 'none'; img-src ${cspSource}; style-src ${cspSource}; script-src 'nonce-${nonce}';`;
  return html`<!DOCTYPE html>
<html lang="${displayLanguage()}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${resources.styleUri}">
<title>${body.title}</title>
</head>
<body>
<main data-finding="${body.finding}">
${body.content}
</main>
<script nonce="${nonce}" src="${resources.scriptUri}"></script>
</body>
</html>
`.markup;
}

/** The level Problems gives the severity by default; an unknown severity gets its own look. */
function severityLevel(severity: string): string {
  return Object.hasOwn(DEFAULT_MAPPING, severity) ? levelFor(severity, DEFAULT_MAPPING) : 'unknown';
}

/**
 * Under the name: a code rule's full id (the name is its last segment); for a dependency, what
 * and where it is (its `ssc-…` rule id means nothing to people and stays in the Rule section);
 * for a secret, its service.
 */
function subtitleOf(finding: DetailsInput['finding']): string {
  const sca = finding.sca;
  if (sca)
    return [
      sca.ecosystem,
      sca.transitivity === 'direct'
        ? t('direct dependency')
        : sca.transitivity === 'transitive'
          ? t('transitive dependency')
          : sca.transitivity && sca.transitivity !== 'unknown'
            ? `${sca.transitivity} ${t('dependency')}`
            : t('dependency'),
      finding.location?.filePath,
    ]
      .filter(Boolean)
      .join(' · ');
  if (finding.secret) return secretName(finding.secret);
  return finding.ruleName;
}

function header(input: DetailsInput): Html {
  const { finding } = input;
  const severity = finding.severity ? valueLabel(finding.severity) : t('unknown');
  const badges = [
    // The glyph is drawn by CSS (no icon font under this CSP); the word carries the meaning.
    html`<span class="badge severity level-${severityLevel(finding.severity)}"><span class="glyph" aria-hidden="true"></span>${severity}</span>`,
    html`<span class="badge status">${statusText(finding)}</span>`,
    finding.sca?.isMalicious ? html`<span class="badge danger">${t('malicious package')}</span>` : undefined,
    input.newAgainst ? html`<span class="badge new" title="${t('{0} does not have it', input.newAgainst)}">${t('new on this branch')}</span>` : undefined,
    input.story?.story?.isBlocking
      ? html`<span class="badge blocking" title="${t('Its rule runs in block mode: a pull request that adds it cannot merge')}">${t('blocks pull requests')}</span>`
      : undefined,
  ];
  const message = finding.message || input.detail?.rule?.message;
  const limit = sayTriageLimit(input.story?.story?.triagePermission, input.story?.story?.exceptionState, t);
  return html`<header>
<h1>${findingLabel(finding)}</h1>
<p class="rule-id">${subtitleOf(finding)}</p>
<p class="badges">${badges}</p>
${message ? html`<p class="message prose">${message}</p>` : undefined}
<nav class="actions" aria-label="${t('Actions')}">${actions(input)}</nav>
${limit ? html`<p class="note triage-limit">${limit}</p>` : undefined}
</header>`;
}

/**
 * The actions in the order a keyboard reaches them: triage first, then notes and tickets, then
 * the ways to fix, then the links and utilities. The main one is what the finding's state calls
 * for: Ignore on an open finding, Reopen on an ignored or fixed one. A state the finding is
 * already in is not offered again (it would do nothing); Ignore stays, to change the reason,
 * except where the user may only request an exception (said below the actions instead). A fix
 * pull request is not offered again while one is asked for or open.
 */
function actions(input: DetailsInput): Html[] {
  const { finding } = input;
  const hasTicket = (finding.ticket ?? input.detail?.externalTicket) !== undefined;
  const closed = finding.status === 'ignored' || finding.status === 'provisionally_ignored' || finding.status === 'fixed';
  const reopen = finding.status === 'open' ? undefined : button('triage', t('Reopen'), { data: { state: 'reopened' }, primary: closed });
  const story = input.story?.story;
  const ignorable = mayIgnore(story?.triagePermission);
  const prState = story ? fixPullRequestOf(story).state : 'none';
  const pullRequestAsked = prState === 'requested' || prState === 'opened';
  const all: (Html | undefined)[] = [
    closed ? reopen : undefined,
    ignorable ? button('triage', closed ? t('Change Ignore Reason…') : t('Ignore…'), { data: { state: 'ignored' }, primary: !closed }) : undefined,
    finding.status === 'reviewing' ? undefined : button('triage', t('Mark as Reviewing'), { data: { state: 'reviewing' } }),
    finding.status === 'fixing' ? undefined : button('triage', t('Mark as Fixing'), { data: { state: 'fixing' } }),
    closed ? undefined : reopen,
    button('addNote', t('Add Note…')),
    hasTicket ? undefined : button('createTicket', t('Create Jira Ticket')),
    button('linkTicket', t('Link Existing Ticket…')),
    hasTicket ? button('unlinkTicket', t('Unlink Ticket')) : undefined,
    finding.ticket?.id !== undefined ? button('unlinkTicketEverywhere', t('Unlink Ticket from All Its Findings…')) : undefined,
    button('fixWithAgent', t('Fix with Agent')),
    kindOf(finding).fixPullRequests && !pullRequestAsked ? button('requestAutofix', t('Open a Fix Pull Request…')) : undefined,
    isHttpUrl(input.platformUrl) ? button('openInPlatform', t('Open in Platform')) : undefined,
    button('copyRuleId', t('Copy Rule ID')),
    button('refresh', t('Refresh')),
  ];
  return all.filter((b): b is Html => b !== undefined);
}

/** Loading, a failure and the last action's outcome, above the sections they qualify. */
function statusLines(input: DetailsInput): Html {
  const notice = input.notice;
  return html`${input.loading ? html`<p class="loading" role="status" aria-busy="true">${wordsText(t("Loading the platform's details…"))}</p>` : undefined}
${input.error ? html`<p class="banner error prose" role="alert">${input.error}</p>` : undefined}
${notice ? html`<p class="banner notice-${notice.kind}" role="status" aria-live="polite"${notice.kind === 'busy' ? html` aria-busy="true"` : undefined}>${notice.text}</p>` : undefined}`;
}
