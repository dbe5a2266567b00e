/**
 * "Check Connection": walks the path of a request step by step (settings, proxy, DNS, TCP,
 * tunnel, TLS, HTTP, token) and stops at the first failure, so the report says WHICH layer
 * failed and what fixes it. Pure core (no vscode): the command only shows the report.
 */
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
  readonly title: string;
  /** `url` is the parsed base URL: every step after the configuration has it. */
  run(ctx: StepContext, url: URL): Outcome | Promise<Outcome>;
}

const CONFIGURATION = { id: 'configuration', title: 'Configuration' } as const;
const PLAN: readonly Step[] = [
  { id: 'proxy', title: 'Proxy', run: steps.proxy },
  { id: 'dns', title: 'DNS lookup', run: steps.dns },
  { id: 'tcp', title: 'TCP connection', run: steps.tcp },
  { id: 'tunnel', title: 'Proxy tunnel (CONNECT)', run: steps.tunnel },
  { id: 'tls', title: 'TLS handshake', run: steps.tls },
  { id: 'http', title: 'HTTP', run: steps.http },
  { id: 'auth', title: 'Sign-in (API token)', run: (ctx) => steps.auth(ctx) },
];

export async function checkConnection(input: CheckConnectionInput): Promise<ConnectionReport> {
  const token = await input.getToken();
  const ctx: StepContext = {
    baseUrl: input.baseUrl, network: input.network, env: input.env, token, extensionVersion: input.extensionVersion,
    timeoutMs: input.timeoutMs ?? 10_000, signal: input.signal, warnings: [],
  };
  const clean = (text: string): string => scrubSecret(text, token);
  const done: CheckStep[] = [];
  let failed: CheckStep | undefined;
  const record = (id: StepId, title: string, outcome: Outcome, started: number): void => {
    const step: CheckStep = { id, title, status: outcome.status, detail: clean(outcome.detail), ...(outcome.fix ? { fix: clean(outcome.fix) } : {}), ms: Date.now() - started };
    done.push(step);
    if (step.status === 'failed') failed = step;
  };
  record(CONFIGURATION.id, CONFIGURATION.title, steps.configuration(ctx), Date.now());
  try {
    for (const step of PLAN) {
      const url = ctx.url;
      if (failed || !url || input.signal?.aborted) {
        done.push({ id: step.id, title: step.title, status: 'skipped', detail: input.signal?.aborted ? 'Cancelled.' : 'Not run: an earlier step failed.' });
        continue;
      }
      const started = Date.now();
      let outcome: Outcome;
      try {
        outcome = await step.run(ctx, url);
      } catch (e) {
        outcome = { status: 'failed', detail: `Unexpected error: ${e instanceof Error ? e.message : String(e)}` };
      }
      record(step.id, step.title, outcome, started);
    }
  } finally {
    ctx.tunnel?.destroy();
    await ctx.dispatcher?.destroy();
  }
  return { ok: !failed, baseUrl: input.baseUrl, steps: done, ...(failed ? { failed } : {}), warnings: ctx.warnings.map(clean) };
}

const MARK: Record<StepStatus, string> = { ok: '✓', failed: '✗', skipped: '–' };

/** The report as lines for the output channel. */
export function formatReport(report: ConnectionReport): string[] {
  const lines = [
    `Connection check of ${report.baseUrl}: ${report.ok ? 'OK' : `FAILED at "${report.failed?.title ?? '?'}"`}`,
  ];
  for (const step of report.steps) {
    lines.push(`  ${MARK[step.status]} ${step.title}: ${step.detail}`);
    if (step.fix) lines.push(`      Fix: ${step.fix}`);
  }
  for (const warning of report.warnings) lines.push(`  ! Warning: ${warning}`);
  return lines;
}

/** One sentence for a notification. */
export function summarize(report: ConnectionReport): string {
  if (report.failed) return `Connection check failed at "${report.failed.title}": ${report.failed.detail}`;
  const auth = report.steps.find((s) => s.id === 'auth');
  const warning = report.warnings.length > 0 ? ` Warning: ${report.warnings[0]}` : '';
  return `Connection OK. ${auth?.status === 'ok' ? auth.detail : auth?.detail ?? ''}${warning}`.trim();
}
