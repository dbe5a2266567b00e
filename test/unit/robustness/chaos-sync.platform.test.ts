/**
 * A full sync of a deployment (every project, then both kinds of findings of every project)
 * while a fifth of all requests meet a transient fault, must end with exactly the findings of
 * the same sync without faults: none lost, none doubled. Faults are drawn from a seeded random
 * source, so every run injects the same ones (in the sequential sync).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PlatformClient } from '../../../src/core/api/client';
import type { IssueType } from '../../../src/core/model/types';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { Fault } from '../../platform/index';
import { rejectionGuard, startPlatform, type Platform } from './robustness-harness';

const ISSUE_TYPES: readonly IssueType[] = ['sast', 'sca'];
const PAGE_SIZE = 100;
const PROJECTS_PAGE_SIZE = 5;
/** Enough attempts that 20 % faults never exhaust them; tiny waits keep the test quick. */
const PATIENT = { maxRetries: 10, baseDelayMs: 1, maxDelayMs: 4, totalBudgetMs: 30_000 };
/** A timeout far below the injected latency, so a delayed answer is given up on. */
const TIMEOUTS = { headersMs: 100, bodyMs: 2_000 };

/** What users see as transient: overload, rate limits (with a short wait), drops and stalls. */
const RETRYABLE_FAULTS: Fault[] = [
  { kind: 'status', status: 502 },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 504 },
  { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
  { kind: 'status', status: 429, headers: { 'retry-after': 'Wed, 01 May 2024 12:00:00 GMT' } },
  { kind: 'reset' },
  { kind: 'delay', ms: 3_000 },
];

interface Synced {
  readonly projects: readonly string[];
  /** `sast:<id>` / `sca:<id>` of every finding of every project, in the order loaded. */
  readonly findings: readonly string[];
}

/** Projects first, then each project's findings of each type, as the extension's views load them. */
async function fullSync(client: PlatformClient, slug: string, parallel: boolean): Promise<Synced> {
  const projects = await client.listProjects(slug, { pageSize: PROJECTS_PAGE_SIZE });
  const service = new FindingsStore(() => client, { pageSize: PAGE_SIZE });
  const slots = projects.flatMap((project) => ISSUE_TYPES.map((issueType) => ({ project, issueType })));
  const load = async ({ project, issueType }: (typeof slots)[number]): Promise<string[]> => {
    const result = await service.load(`${project.name}\n${issueType}`, { deploymentSlug: slug, issueType, filters: { repos: [project.name] } });
    return result.findings.map((f) => `${issueType}:${f.id}`);
  };
  const lists: string[][] = [];
  if (parallel) {
    lists.push(...(await Promise.all(slots.map(load))));
  } else {
    for (const slot of slots) lists.push(await load(slot));
  }
  service.dispose();
  return { projects: projects.map((x) => x.name), findings: lists.flat() };
}

/** Findings of `expected` missing from `actual`, and findings present more than once. */
function compare(expected: readonly string[], actual: readonly string[]): { lost: number; doubled: number } {
  const got = new Set(actual);
  return { lost: expected.filter((k) => !got.has(k)).length, doubled: actual.length - got.size };
}

let p: Platform;
let truth: string[];
const guard = rejectionGuard();

before(async () => {
  guard.install();
  p = await startPlatform({ seed: 2024, projects: 12, sastPerProject: 250, scaPerProject: 150, refsPerProject: 2 });
  truth = [...p.server.data.sast.map((f) => `sast:${f.id}`), ...p.server.data.sca.map((f) => `sca:${f.id}`)];
});
after(async () => {
  try {
    await guard.check();
  } finally {
    guard.uninstall();
    await p.close();
  }
});
beforeEach(() => {
  p.server.faults.clear();
  p.server.requests.length = 0;
});

void describe('a full sync under 20 % transient faults', () => {
  for (const mode of ['sequential', 'parallel'] as const) {
    void it(`${mode}: ends with exactly the findings of the fault-free sync`, async (t) => {
      const parallel = mode === 'parallel';
      const client = p.client({ retryPolicy: PATIENT, timeouts: TIMEOUTS, concurrency: parallel ? 4 : 1 });

      // `applied` counts over the server's life: this test's faults are the increase.
      const appliedBefore = p.server.faults.applied;
      const clean = await fullSync(client, p.slug, parallel);
      assert.equal(p.server.faults.applied, appliedBefore);
      const cleanRequests = p.server.requests.length;
      assert.deepEqual(new Set(clean.findings), new Set(truth), 'the fault-free sync sees every finding of the deployment');
      assert.equal(clean.findings.length, truth.length);

      p.server.requests.length = 0;
      p.server.faults.setRandom({ rate: 0.2, kinds: RETRYABLE_FAULTS, seed: parallel ? 99 : 42 });
      const started = Date.now();
      const chaotic = await fullSync(client, p.slug, parallel);
      const faults = p.server.faults.applied - appliedBefore;

      const { lost, doubled } = compare(clean.findings, chaotic.findings);
      t.diagnostic(
        `${mode}: ${faults} faults injected and survived over ${p.server.requests.length} requests ` +
          `(${cleanRequests} without faults); ${chaotic.findings.length} findings compared with ${clean.findings.length}; ` +
          `lost ${lost}, doubled ${doubled}; ${Date.now() - started} ms`,
      );
      assert.ok(faults >= 10, `only ${faults} faults were injected`);
      assert.equal(lost, 0, 'findings lost');
      assert.equal(doubled, 0, 'findings doubled');
      assert.deepEqual(chaotic.projects, clean.projects, 'the same projects, in the same order');
      // Each slot is swapped in whole, in page order: the very same list as without faults.
      assert.deepEqual(chaotic.findings, clean.findings);
    });
  }
});
