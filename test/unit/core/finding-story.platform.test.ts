/**
 * One finding's story (the experimental v2 call) through the client, against the local platform:
 * the answer as the platform sends it (camelCase, numbers and lines as strings), in snake_case,
 * with each member left out, with malformed members, and from a deployment without the call.
 */
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import { fixPullRequestOf, type FindingStory } from '../../../src/core/model/finding-story';
import { STORY_MEMBERS, type StoryMember } from '../../platform/issue-story';
import type { WireSastFinding } from '../../platform/wire';
import { usePlatform } from './helpers/platformFixture';

const fx = usePlatform();

void afterEach(() => {
  fx.platform.setIssueStory({});
  fx.platform.restoreProducts();
});

async function storyOf(id: number, includeCode?: boolean): Promise<FindingStory> {
  const answer = await fx.client.findingStory(fx.deploymentId(), id, includeCode === undefined ? {} : { includeCode });
  assert.equal(answer.kind, 'story');
  return answer.story;
}

/** The answer as sent, read without the client. */
async function rawStory(id: number): Promise<Record<string, unknown>> {
  const response = await fetch(`${fx.platform.url}/api/agent/deployments/${fx.deploymentId()}/issues/v2/${id}`, {
    headers: { authorization: `Bearer ${fx.platform.token}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

function locationOf(f: WireSastFinding): { filePath: string; line: number; column?: number; endLine?: number; endColumn?: number } {
  const l = f.location ?? {};
  return {
    filePath: l.filePath ?? l.file_path ?? '',
    line: l.line ?? 0,
    column: l.column,
    endLine: l.endLine ?? l.end_line,
    endColumn: l.endColumn ?? l.end_column,
  };
}

const STATE_OF_STATUS: Record<string, string> = { open: 'open', fixed: 'fixed', ignored: 'ignored_app', reviewing: 'reviewing', fixing: 'fixing' };

/** The first code finding whose full answer has `member`, so a test about it cannot pass on its absence. */
async function findingWith(member: StoryMember): Promise<{ id: number; raw: Record<string, unknown> }> {
  for (const f of fx.platform.data.sast.slice(0, 200)) {
    const raw = await rawStory(f.id ?? -1);
    if (JSON.stringify(raw).includes(`"${member}":`)) return { id: f.id ?? -1, raw };
  }
  throw new Error(`no finding's story has ${member}`);
}

void describe("one finding's story", () => {
  /**
   * The first project's code, known to the platform (as the demo's is): its traces quote real
   * lines, with offsets. Every tenth line starts a function the lines below belong to.
   */
  void before(() => {
    const { data } = fx.platform;
    const project = data.projects[0]?.name ?? '';
    const text = Array.from({ length: 450 }, (_, i) => (i % 10 === 0 ? `def handler_${i}(request):` : `    value_${i} = request.args[${i}]`)).join('\n');
    const paths = data.sast.filter((f) => f.repository?.name === project).map((f) => locationOf(f).filePath);
    data.sourceFiles = new Map([[project, Object.fromEntries(paths.map((path) => [path, text]))]]);
  });

  void it('reads the answer as the platform sends it: camelCase, ids and lines as strings', async () => {
    const { data } = fx.platform;
    const f = data.sast.find((c) => (c.id ?? 0) % 5 !== 0 && (c.id ?? 0) % 11 !== 0 && data.sast.some((o) => o !== c && o.match_based_id === c.match_based_id));
    assert.ok(f?.id);
    const raw = await rawStory(f.id);
    const sent = raw.dataflowTrace as { taintSink: { start: { line: unknown } }[] };
    assert.equal(typeof raw.id, 'string');
    assert.equal(typeof sent.taintSink[0]?.start.line, 'string');

    const story = await storyOf(f.id);
    assert.equal(story.id, f.id);
    assert.equal(story.skipped, 0);
    const trace = story.trace ?? [];
    assert.ok(trace.length >= 2 && trace.length <= 4, `a trace of 2–4 places, got ${trace.length}`);
    assert.deepEqual(
      trace.map((s) => s.role),
      ['source', ...trace.slice(2).map(() => 'step'), 'sink'],
    );
    const sink = trace[trace.length - 1];
    assert.deepEqual(sink?.range, locationOf(f));
    for (const step of trace) {
      assert.ok(Number.isInteger(step.range.line) && step.range.line > 0);
      assert.match(step.locationUrl ?? '', new RegExp(`^${f.repository?.url ?? ''}/blob/[0-9a-f]{40}/${step.range.filePath}#L${step.range.line}$`));
    }
    assert.equal(typeof trace[0]?.content, 'string');

    const twins = data.sast.filter((o) => o !== f && o.match_based_id === f.match_based_id);
    assert.deepEqual(
      story.elsewhere?.map((e) => [e.id, e.ref, e.state]),
      twins.map((o) => [o.id, o.ref, STATE_OF_STATUS[o.status ?? '']]),
    );
    assert.ok(story.elsewhere?.every((e) => e.createdAt instanceof Date && (e.ref === 'main' || /^\d+$/.test(e.pullRequestId ?? ''))));
    assert.equal(story.activity?.[0]?.kind, 'status');
    const dates = story.activity?.map((a) => a.date?.getTime() ?? NaN) ?? [];
    assert.deepEqual(
      dates,
      [...dates].sort((a, b) => a - b),
      'oldest first',
    );
    assert.ok((story.codeOwners?.length ?? 0) > 0 && story.codeOwners?.[0]?.isTeam === true);
    assert.equal(story.triagePermission, 'ignore');
    const rule = data.rulesByPolicyId.get(String(f.sourcing_policy?.id))?.find((r) => r.path === f.rule?.name);
    assert.equal(story.isBlocking, rule?.policyMode === 'MODE_BLOCK' ? true : undefined);
    assert.ok(story.firstDetectedAt instanceof Date && story.commitUrl?.startsWith(f.repository?.url ?? '-'));
  });

  void it('reads the same story spelt in snake_case', async () => {
    const { id } = await findingWith('relatedIssues');
    const camel = await storyOf(id);
    fx.platform.setIssueStory({ spelling: 'snake' });
    const raw = await rawStory(id);
    assert.ok('related_issues' in raw && 'activity_history' in raw && !('relatedIssues' in raw));
    assert.deepEqual(await storyOf(id), camel);
  });

  const FIELD_OF: Partial<Record<StoryMember, keyof FindingStory>> = {
    dataflowTrace: 'trace',
    relatedIssues: 'elsewhere',
    activityHistory: 'activity',
    isBlocking: 'isBlocking',
    codeowners: 'codeOwners',
    triagePermission: 'triagePermission',
    codeSnippets: 'codeSnippets',
    commitUrl: 'commitUrl',
    firstDetectedAt: 'firstDetectedAt',
    ruleDisplayName: 'ruleDisplayName',
  };
  for (const member of STORY_MEMBERS) {
    void it(`${member} left out: what it said is absent, the rest is the same`, async () => {
      const { id } = await findingWith(member);
      const whole = await storyOf(id);
      fx.platform.setIssueStory({ omit: [member] });
      const without = await storyOf(id);
      assert.equal(without.skipped, 0);
      const field = FIELD_OF[member];
      if (field) {
        assert.notEqual(whole[field], undefined);
        assert.equal(without[field], undefined);
        assert.deepEqual(without, Object.fromEntries(Object.entries(whole).filter(([key]) => key !== field)));
      } else if (member === 'clickToFixPrUrl' || member === 'clickToFixPrId') {
        const kept = member === 'clickToFixPrUrl' ? 'id' : 'url';
        assert.deepEqual(without.fixPullRequest, { [kept]: whole.fixPullRequest?.[kept] });
      } else {
        const steps = without.trace ?? [];
        assert.ok(steps.length > 0);
        if (member === 'intermediateVars')
          assert.deepEqual(
            steps,
            whole.trace?.filter((s) => s.role !== 'step'),
          );
        if (member === 'content') assert.ok(steps.every((s) => s.content === undefined) && whole.trace?.some((s) => s.content !== undefined));
        if (member === 'locationUrl') assert.ok(steps.every((s) => s.locationUrl === undefined));
        if (member === 'end') assert.ok(steps.every((s) => s.range.endLine === undefined && s.range.endColumn === undefined));
        if (member === 'offset') assert.ok(steps.every((s) => s.startOffset === undefined && s.endOffset === undefined));
      }
    });
  }

  void it("most code findings have a trace of 2–4 places in their project's files; some none, supply chain none", async () => {
    const { data } = fx.platform;
    const sample = data.sast.slice(0, 60);
    let traced = 0;
    for (const f of sample) {
      const story = await storyOf(f.id ?? -1);
      const paths = new Set(data.sast.filter((o) => o.repository?.name === f.repository?.name).map((o) => locationOf(o).filePath));
      if (!story.trace) continue;
      traced++;
      assert.ok(story.trace.length >= 2 && story.trace.length <= 4);
      assert.ok(
        story.trace.every((s) => paths.has(s.range.filePath)),
        `${f.id}: every place in the project's files`,
      );
    }
    assert.ok(traced >= sample.length * 0.6 && traced < sample.length, `${traced} of ${sample.length} traced`);
    const sca = data.sca[0];
    assert.ok(sca?.id);
    const story = await storyOf(sca.id);
    assert.equal(story.trace, undefined);
    assert.ok((story.activity?.length ?? 0) > 0);
  });

  void it('asks without the code when told to', async () => {
    const { id } = await findingWith('content');
    const story = await storyOf(id, false);
    assert.ok(fx.platform.requests.some((r) => r.rawUrl.endsWith(`/issues/v2/${id}?includeCodeSnippet=false`)));
    assert.ok((story.trace?.length ?? 0) > 0 && story.trace?.every((s) => s.content === undefined));
    assert.equal(story.codeSnippets, undefined);
  });

  void it('leaves out and counts the members it cannot read, and keeps the rest', async () => {
    const { id, raw } = await findingWith('intermediateVars');
    const whole = await storyOf(id);
    const trace = raw.dataflowTrace as Record<string, unknown[]>;
    trace.intermediateVars?.push({ path: 'src/x.py', start: { line: 'twelve' } }, { path: 'src/x.py', start: { line: '9' }, end: { line: '3' } });
    (raw.activityHistory as unknown[]).push(42);
    raw.relatedIssues = [...((raw.relatedIssues as unknown[] | undefined) ?? []), 'not an issue', { ref: 'main' }];
    raw.codeowners = [...((raw.codeowners as unknown[] | undefined) ?? []), { isTeam: true }];
    raw.isBlocking = 'yes';
    raw.commitUrl = 7;
    raw.codeSnippets = { path: 'not a list' };
    fx.platform.faults.inject({ kind: 'status', status: 200, body: JSON.stringify(raw) }, { pathIncludes: '/issues/v2/' });
    const story = await storyOf(id);
    assert.equal(story.skipped, 9);
    assert.deepEqual(story.trace, whole.trace);
    assert.deepEqual(story.activity, whole.activity);
    assert.deepEqual(story.elsewhere ?? [], whole.elsewhere ?? []);
    assert.deepEqual(story.codeOwners ?? [], whole.codeOwners ?? []);
    assert.equal(story.isBlocking, undefined);
    assert.equal(story.commitUrl, undefined);
    assert.equal(story.codeSnippets, undefined);
    assert.equal(story.triagePermission, whole.triagePermission);

    fx.platform.faults.inject({ kind: 'status', status: 200, body: '["not", "an", "issue"]' }, { pathIncludes: '/issues/v2/' });
    await assert.rejects(fx.client.findingStory(fx.deploymentId(), id), (e) => PlatformError.is(e, 'invalidResponse'));
  });

  void it('reads each history type as its kind, and keeps an unknown one as "other" with its name', async () => {
    const { id, raw } = await findingWith('activityHistory');
    const at = (day: number): string => `2024-06-${String(day).padStart(2, '0')}T10:00:00Z`;
    raw.activityHistory = [
      { date: at(1), title: 'Found', historyType: 'HISTORY_TYPE_STATUS' },
      {
        date: at(2),
        title: 'Ignored',
        historyType: 'HISTORY_TYPE_TRIAGE',
        triageReason: 'TRIAGE_REASON_FALSE_POSITIVE',
        note: 'test code',
        actor: { name: 'Dana Whitfield' },
      },
      { date: at(3), title: 'Fix asked', historyType: 'HISTORY_TYPE_CLICK_TO_FIX_PR_REQUESTED' },
      { date: at(4), title: 'Fix failed', historyType: 'HISTORY_TYPE_CLICK_TO_FIX_PR_FAILED', note: 'Merge conflict' },
      { date: at(5), title: 'Breached its SLA', historyType: 'HISTORY_TYPE_SLA_BREACHED', actor: 'policy bot' },
      { date: at(6), title: 'Something happened' },
      { date: at(7), title: 'Exception asked', history_type: 'HISTORY_TYPE_EXCEPTION_REQUEST_CREATED' },
    ];
    raw.exceptionState = 'FINDING_EXCEPTION_REQUEST_STATE_REQUESTED';
    delete raw.clickToFixPrUrl;
    delete raw.clickToFixPrId;
    fx.platform.faults.inject({ kind: 'status', status: 200, body: JSON.stringify({ issue: raw }) }, { pathIncludes: '/issues/v2/' });
    const story = await storyOf(id);
    assert.deepEqual(
      story.activity?.map((a) => [a.kind, a.rawType]),
      [
        ['status', undefined],
        ['triage', undefined],
        ['fixPrRequested', undefined],
        ['fixPrFailed', undefined],
        ['other', 'HISTORY_TYPE_SLA_BREACHED'],
        ['other', undefined],
        ['exceptionRequested', undefined],
      ],
    );
    assert.deepEqual(
      [story.activity?.[1]?.triageReason, story.activity?.[1]?.actor, story.activity?.[4]?.actor],
      ['false_positive', 'Dana Whitfield', 'policy bot'],
    );
    assert.equal(story.exceptionState, 'requested');
    assert.deepEqual(fixPullRequestOf(story), { state: 'failed', at: new Date(at(4)), reason: 'Merge conflict' });
    assert.equal(story.skipped, 0);
  });

  void it("tells where a fix pull request stands from the platform's own data: opened, merged, none", async () => {
    const { data } = fx.platform;
    const withPr = (fixed: boolean) =>
      data.sast.find((f) => (f.click_to_fix_prs?.length ?? 0) > 0 && (f.status === 'fixed') === fixed && (f.click_to_fix_failures?.length ?? 0) === 0);
    const opened = withPr(false);
    const merged = withPr(true);
    const plain = data.sast.find((f) => (f.click_to_fix_prs?.length ?? 0) === 0 && (f.click_to_fix_failures?.length ?? 0) === 0);
    assert.deepEqual(fixPullRequestOf(await storyOf(opened?.id ?? -1)).url, opened?.click_to_fix_prs?.[0]?.url);
    assert.equal(fixPullRequestOf(await storyOf(opened?.id ?? -1)).state, 'opened');
    assert.equal(fixPullRequestOf(await storyOf(merged?.id ?? -1)).state, 'merged');
    assert.deepEqual(fixPullRequestOf(await storyOf(plain?.id ?? -1)), { state: 'none' });
    // A link without a history (left out) still says a pull request is open.
    fx.platform.setIssueStory({ omit: ['activityHistory'] });
    assert.deepEqual(fixPullRequestOf(await storyOf(opened?.id ?? -1)), { state: 'opened', url: opened?.click_to_fix_prs?.[0]?.url });
  });

  void it('reads places wrapped as { location, content }, plain numbers, and owners spelt codeOwners', async () => {
    const { id, raw } = await findingWith('dataflowTrace');
    raw.dataflowTrace = {
      taintSource: [
        {
          location: { path: 'src/a.py', start: { line: 3, col: 2, offset: 40 }, end: { line: 3, col: 9 }, locationUrl: 'https://example.test/a#L3' },
          content: 'x = input()',
        },
      ],
      taintSink: [{ path: 'src/a.py', start: { line: '7' } }],
    };
    delete raw.codeowners;
    raw.codeOwners = [{ id: 12, name: 'platform-team', isTeam: true }, { name: 'Sam' }];
    fx.platform.faults.inject({ kind: 'status', status: 200, body: JSON.stringify(raw) }, { pathIncludes: '/issues/v2/' });
    const story = await storyOf(id);
    assert.deepEqual(story.trace, [
      {
        role: 'source',
        range: { filePath: 'src/a.py', line: 3, column: 2, endLine: 3, endColumn: 9 },
        startOffset: 40,
        content: 'x = input()',
        locationUrl: 'https://example.test/a#L3',
      },
      { role: 'sink', range: { filePath: 'src/a.py', line: 7 } },
    ]);
    assert.deepEqual(story.codeOwners, [
      { id: '12', name: 'platform-team', isTeam: true },
      { name: 'Sam', isTeam: false },
    ]);
  });

  for (const status of [404, 403, 400]) {
    void it(`a deployment without the call (${status}) is "not available", a state and not an error`, async () => {
      const id = fx.platform.data.sast[0]?.id ?? -1;
      fx.platform.setProduct('issue-v2', status);
      const answer = await fx.client.findingStory(fx.deploymentId(), id);
      assert.equal(answer.kind, 'notAvailable');
      assert.equal(answer.kind === 'notAvailable' && answer.unavailable.status, status);
      assert.doesNotMatch(answer.kind === 'notAvailable' ? answer.unavailable.detail : '', /Web API access/);
      assert.equal(fx.platform.requests.length, 1, 'never retried');
      fx.platform.setProduct('issue-v2', undefined);
      assert.equal((await fx.client.findingStory(fx.deploymentId(), id)).kind, 'story');
    });
  }

  void it('a failure is not "not available": a lasting 503 and a refused token are thrown', async () => {
    const id = fx.platform.data.sast[0]?.id ?? -1;
    fx.platform.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: '/issues/v2/' }, 10);
    await assert.rejects(fx.client.findingStory(fx.deploymentId(), id), (e) => PlatformError.is(e, 'server'));
    fx.platform.faults.clear();
    const stranger = fx.makeClient({ getToken: () => Promise.resolve('not-the-token') });
    await assert.rejects(stranger.findingStory(fx.deploymentId(), id), (e) => PlatformError.is(e, 'unauthorized'));
    await stranger.close();
    await assert.rejects(fx.client.findingStory(fx.deploymentId(), -3), (e) => PlatformError.is(e, 'badRequest'));
  });
});
