/**
 * The message nodes that explain a state instead of leaving a view empty: each says why, and
 * offers the action that gets the user further (Retry, Show Logs, Clear Filters, Sign In, …).
 * Here are the messages any view shows (a load failed, a kind the deployment does not have)
 * and those of the projects, policies and rules; a findings list's own are in
 * `finding-messages.ts`, and how a message becomes a node in `message-nodes.ts`. Every view
 * takes its messages from here. Pure (no `vscode`); texts are tested.
 */
import { unavailableAdvice, unavailableText, type Unavailable } from '../core/services/kind-availability';
import type { RetryTarget } from './tree-commands';
import { formatCount, t } from '../core/l10n';
import { actions, oneLine, type MessageSpec } from './message-nodes';

export { actionChildren, actions, clockTime, message, oneLine } from './message-nodes';
export { aiFailed, cancelledFindings, checkingScan, loadingFindings, noFindings, nothingNew, skippedFindings, staleFindings } from './finding-messages';

/** "Could not load findings: …" with Retry and Show Logs under it (`what` in the display language). */
export function loadFailed(what: string, reason: string, target: RetryTarget): MessageSpec {
  return {
    state: 'error',
    tone: 'error',
    text: t('Could not load {0}: {1}', what, oneLine(reason)),
    tooltip: reason,
    action: actions.retry(target),
    actions: [actions.retry(target), actions.showLogs()],
  };
}

/**
 * The deployment does not have the kind: calm (no error tone), with what to check, and no Retry.
 * The platform's own answer (a JSON error body) is for the log, which Show Logs opens, not for
 * the tooltip.
 */
export function notAvailable(product: string, unavailable: Unavailable): MessageSpec {
  return {
    state: `unavailable-${product.toLowerCase().replace(/\W+/g, '-')}`,
    tone: 'info',
    icon: 'circle-slash',
    text: `${product} — ${unavailableText(unavailable)}`,
    tooltip: unavailableAdvice(product, unavailable),
    action: actions.showLogs(),
  };
}

/**
 * Under a kind's node that already says it is not available: what to check, instead of the
 * node's own sentence again.
 */
export function notAvailableBelow(product: string, unavailable: Unavailable): MessageSpec {
  return {
    ...notAvailable(product, unavailable),
    text: t("What to check: whether the organization licenses {0}, and the token's role. The next refresh asks again.", product),
  };
}

export function noDeployment(reason: string): MessageSpec {
  return {
    state: 'noDeployment',
    tone: 'warning',
    text: oneLine(reason),
    tooltip: reason,
    action: actions.openSettings('appsecFindings.deployment'),
    actions: [actions.openSettings('appsecFindings.deployment'), actions.signIn(t('Sign In with Another Token'))],
  };
}

export function loadingProjects(): MessageSpec {
  return { state: 'loading', tone: 'loading', text: t('Loading projects…') };
}

export function noProjects(deploymentName: string): MessageSpec {
  return {
    state: 'empty',
    tone: 'info',
    text: t('No projects in {0} yet', deploymentName),
    tooltip: t('A project appears on the platform after its first scan.'),
    action: actions.refresh(),
  };
}

export function staleProjects(reason: string): MessageSpec {
  return {
    state: 'stale',
    tone: 'warning',
    text: t('Showing the last project list — the refresh failed: {0}', oneLine(reason)),
    tooltip: reason,
    action: actions.retry({ view: 'projects' }),
    actions: [actions.retry({ view: 'projects' }), actions.showLogs()],
    collapsed: true,
  };
}

/** The policy list endpoint is not in the spec: when it fails, the others are still shown under this. */
export function policyListFailed(reason: string): MessageSpec {
  return {
    state: 'listFailed',
    tone: 'warning',
    text: t("Could not list the deployment's policies: {0}", oneLine(reason)),
    tooltip: `${reason}\n\n${t('Policies named by findings and by the appsecFindings.policyIds setting are still shown.')}`,
    action: actions.retry({ view: 'policies' }),
    actions: [actions.retry({ view: 'policies' }), actions.showLogs()],
    collapsed: true,
  };
}

export function noPolicies(): MessageSpec {
  return {
    state: 'empty',
    tone: 'info',
    text: t('No policies to show'),
    tooltip: t('The platform listed none, no loaded finding names one, and the appsecFindings.policyIds setting is empty.'),
    action: actions.openSettings('appsecFindings.policyIds'),
    actions: [actions.openSettings('appsecFindings.policyIds')],
  };
}

export function noRules(): MessageSpec {
  return { state: 'empty', tone: 'info', text: t('This policy has no rules') };
}

export function skippedRules(count: number): MessageSpec {
  return {
    state: 'skipped',
    tone: 'warning',
    text:
      count === 1
        ? t('{0} rule could not be read and are not shown', formatCount(count))
        : t('{0} rules could not be read and are not shown', formatCount(count)),
    action: actions.showLogs(),
  };
}
