/**
 * "Check Connection": walks the path of a request step by step (settings, proxy, DNS, TCP,
 * tunnel, TLS, HTTP, token) and stops at the first failure, so the report says WHICH layer
 * failed and what fixes it. Pure core (no vscode): the command only shows the report.
 */
import { said, t, type Said } from '../l10n';
import { scrubSecret } from '../model/errors';
import * as steps from './connection-steps';
import type { Outcome, StepContext, StepStatus } from './connection-steps';
import type { Env, NetworkSettings } from '../net/proxy-config';

export type { StepStatus } from './connection-steps';
export type StepId = 'configuration' | 'proxy' | 'dns' | 'tcp' | 'tunnel' | 'tls' | 'http' | 'auth';

export interface CheckStep {
  readonly id: StepId;
  readonly title: string;
  readonly status: StepStatus;
  readonly detail: string;
  readonly fix?: string;
  readonly ms?: number;
}

export interface ConnectionReport {
  readonly ok: boolean;
  readonly baseUrl: string;
  readonly steps: readonly CheckStep[];
  /** The step that failed, when one did. */
  readonly failed?: CheckStep;
  /** Not failures, but worth saying (verification off, an unreadable NODE_EXTRA_CA_CERTS). */
  readonly warnings: readonly string[];
}

export interface CheckConnectionInput {
  readonly baseUrl: string;
  readonly network: NetworkSettings;
  readonly env: Env;
  /** The stored token; used for the last step only, and never written to the report. */
  readonly getToken: () => Promise<string | undefined>;
  readonly extensionVersion: string;
  /** Per step (default 10 s). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

interface Step {
  readonly id: StepId;
  readonly title: () => Said;
  /** `url` is the parsed base URL: every step after the configuration has it. */
  run(ctx: StepContext, url: URL): Outcome | Promise<Outcome>;
}

/** The protocol's name, the same in every language. */
const HTTP = 'HTTP';
const CONFIGURATION = { id: 'configuration', title: (): Said => said('Configuration') } as const;
const PLAN: readonly Step[] = [
  { id: 'proxy', title: () => said('Proxy'), run: steps.proxy },
  { id: 'dns', title: () => said('DNS lookup'), run: steps.dns },
  { id: 'tcp', title: () => said('TCP connection'), run: steps.tcp },
  { id: 'tunnel', title: () => said('Proxy tunnel (CONNECT)'), run: steps.tunnel },
  { id: 'tls', title: () => said('TLS handshake'), run: steps.tls },
  { id: 'http', title: () => ({ english: HTTP, text: HTTP }), run: steps.http },
  { id: 'auth', title: () => said('Sign-in (API token)'), run: (ctx) => steps.auth(ctx) },
];

/** A step's words in the display language, for the notification. */
interface ShownStep {
  readonly title: string;
  readonly detail: string;
}

/**
 * What the user reads of each step, kept beside the report: the report itself (which the log
 * writes and automation reads) stays English, like the log (docs/l10n-glossary.md).
 */
const shown = new WeakMap<CheckStep, ShownStep>();
const shownWarnings = new WeakMap<ConnectionReport, readonly string[]>();

export async function checkConnection(input: CheckConnectionInput): Promise<ConnectionReport> {
  const token = await input.getToken();
  const ctx: StepContext = {
    baseUrl: input.baseUrl,
    network: input.network,
    env: input.env,
    token,
    extensionVersion: input.extensionVersion,
    timeoutMs: input.timeoutMs ?? 10_000,
    signal: input.signal,
    warnings: [],
  };
  const clean = (text: string): string => scrubSecret(text, token);
  const done: CheckStep[] = [];
  let failed: CheckStep | undefined;
  const push = (step: CheckStep, title: Said, detail: Said): void => {
    done.push(step);
    shown.set(step, { title: title.text, detail: clean(detail.text) });
  };
  const record = (id: StepId, title: Said, outcome: Outcome, started: number): void => {
    const step: CheckStep = {
      id,
      title: title.english,
      status: outcome.status,
      detail: clean(outcome.detail.english),
      ...(outcome.fix ? { fix: clean(outcome.fix.english) } : {}),
      ms: Date.now() - started,
    };
    push(step, title, outcome.detail);
    if (step.status === 'failed') failed = step;
  };
  record(CONFIGURATION.id, CONFIGURATION.title(), steps.configuration(ctx), Date.now());
  try {
    for (const step of PLAN) {
      const url = ctx.url;
      if (failed || !url || input.signal?.aborted) {
        const title = step.title();
        const detail = input.signal?.aborted ? said('Cancelled.') : said('Not run: an earlier step failed.');
        push({ id: step.id, title: title.english, status: 'skipped', detail: detail.english }, title, detail);
        continue;
      }
      const started = Date.now();
      let outcome: Outcome;
      try {
        outcome = await step.run(ctx, url);
      } catch (e) {
        outcome = { status: 'failed', detail: said('Unexpected error: {0}', e instanceof Error ? e.message : String(e)) };
      }
      record(step.id, step.title(), outcome, started);
    }
  } finally {
    ctx.tunnel?.destroy();
    await ctx.dispatcher?.destroy();
  }
  const report: ConnectionReport = {
    ok: !failed,
    baseUrl: input.baseUrl,
    steps: done,
    ...(failed ? { failed } : {}),
    warnings: ctx.warnings.map((w) => clean(w.english)),
  };
  shownWarnings.set(
    report,
    ctx.warnings.map((w) => clean(w.text)),
  );
  return report;
}

const MARK: Record<StepStatus, string> = { ok: '✓', failed: '✗', skipped: '–' };

/** The report as lines for the output channel. */
export function formatReport(report: ConnectionReport): string[] {
  const lines = [`Connection check of ${report.baseUrl}: ${report.ok ? 'OK' : `FAILED at "${report.failed?.title ?? '?'}"`}`];
  for (const step of report.steps) {
    lines.push(`  ${MARK[step.status]} ${step.title}: ${step.detail}`);
    if (step.fix) lines.push(`      Fix: ${step.fix}`);
  }
  for (const warning of report.warnings) lines.push(`  ! Warning: ${warning}`);
  return lines;
}

/** One sentence for a notification, in the display language. */
export function summarize(report: ConnectionReport): string {
  const words = (step: CheckStep): ShownStep => shown.get(step) ?? step;
  if (report.failed) return t('Connection check failed at "{0}": {1}', words(report.failed).title, words(report.failed).detail);
  const auth = report.steps.find((s) => s.id === 'auth');
  const warning = (shownWarnings.get(report) ?? report.warnings)[0];
  const ok = t('Connection OK. {0}', auth ? words(auth).detail : '').trim();
  return warning === undefined ? ok : `${ok} ${t('Warning: {0}', warning)}`;
}
