// Triage and tickets as the user sees them: the change shows in every answer at once (one store
// event), stays when the platform accepts, is put back exactly when it refuses, reaches the same
// finding on other branches, and input the platform would refuse is refused before any request.
// Real client, real local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { TriageInputError, TriageRefusedError, TriageService, undoneText } from '../../../src/core/services/triage-service';
import { MAX_NOTE_LENGTH, TRIAGE_BATCH } from '../../../src/core/services/triage-rules';
import { PlatformError } from '../../../src/core/model/errors';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('the triage service (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;

  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 5000, scaPerProject: 60, refsPerProject: 2 });
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
  });
  after(() => h.close());

  const setup = () => {
    const client = h.client();
    const store = new FindingsStore(() => client, { pageSize: 3000 });
    const service = new TriageService({ api: () => client, store, deploymentSlug: () => SLUG, deploymentId: () => String(data.deployment.id) });
    return { store, service };
  };
  /** Every status: an earlier test may have triaged many findings of main. */
  const allOnMain = (): FindingsQuery => ({ deploymentSlug: SLUG, issueType: 'sast', filters: { repos: [project], ref: 'main', dedup: true } });
  const openOnMain = (issueType: 'sast' | 'sca' = 'sast'): FindingsQuery => ({
    deploymentSlug: SLUG,
    issueType,
    filters: { repos: [project], ref: 'main', status: 'open', dedup: true },
  });
  const requests = (mark: number, part: string): number => h.requestsSince(mark, part).length;

  test('ignored with a reason and a note: shown at once (an open view drops it), kept after the platform accepts, and the platform agrees', async () => {
    const { store, service } = setup();
    const open = await store.load('problems', openOnMain());
    const target = open.findings[0];
    let events = 0;
    store.onDidChange(() => events++);
    const pending = service.triage('sast', [target.id], { state: 'ignored', reason: 'false_positive', note: 'test data only' });
    const during = store.state('problems');
    assert.ok(during.kind === 'loaded' && !during.result.findings.some((f) => f.id === target.id), 'gone from the open view before the answer');
    assert.equal(store.finding(SLUG, 'sast', target.id)?.status, 'ignored');
    assert.equal(events, 1, 'one change event');
    const outcome = await pending;
    assert.ok(outcome.ids.includes(target.id));
    assert.equal(outcome.before[0], target, 'Undo knows the finding as it was');
    const fresh = await store.load('problems', openOnMain(), { force: true });
    assert.ok(!fresh.findings.some((f) => f.id === target.id), 'the platform no longer lists it as open');
    const ignored = await store.load('ignored', { ...openOnMain(), filters: { ...openOnMain().filters, status: 'ignored' } });
    const back = ignored.findings.find((f) => f.id === target.id);
    assert.equal(back?.triageReason, 'false_positive');
    assert.equal(back?.triageComment, 'test data only');
    store.dispose();
  });

  test('refused by the platform: every answer holds the very objects it held before, and the note comes back in the error', async () => {
    const { store, service } = setup();
    const open = await store.load('problems', openOnMain());
    const target = open.findings[1];
    h.server.faults.inject({ kind: 'status', status: 400, body: '{"error":"refused for the test"}' }, { pathIncludes: '/triage' }, 1);
    await assert.rejects(service.triage('sast', [target.id], { state: 'reviewing', note: 'my careful note' }), (error: unknown) => {
      assert.ok(error instanceof TriageRefusedError);
      assert.equal(error.note, 'my careful note');
      assert.match(error.message, /refused/);
      return true;
    });
    const now = store.state('problems');
    assert.ok(now.kind === 'loaded');
    assert.equal(now.result, open, 'the same answer object');
    assert.equal(store.finding(SLUG, 'sast', target.id), target, 'the same finding object');
    store.dispose();
  });

  test('input the platform would refuse is refused before any request, saying what to change', async () => {
    const { service } = setup();
    const mark = h.mark();
    const cases: [Parameters<TriageService['triage']>, RegExp][] = [
      [['sast', [], { state: 'ignored' }], /at least one/],
      [['sast', [1], {}], /state or a note/],
      [['sast', [1], { state: 'reviewing', reason: 'false_positive' }], /only with "ignored"/],
      [['sast', [1], { note: 'x'.repeat(MAX_NOTE_LENGTH + 1) }], /at most 3,000/],
      [['sast', [1], { state: 'closed' as never }], /not a triage state/],
    ];
    for (const [args, message] of cases) {
      await assert.rejects(service.triage(...args), (e: unknown) => e instanceof TriageInputError && message.test(e.message));
    }
    const long = 'y'.repeat(MAX_NOTE_LENGTH + 5);
    await assert.rejects(
      service.triage('sast', [1], { note: long }),
      (e: unknown) => e instanceof TriageInputError && e.note === long,
      'what the user typed is kept',
    );
    assert.equal(requests(mark, '/triage'), 0);
  });

  test('more than 3 000 findings go in batches; the same finding on another branch is triaged too and shown where loaded', async () => {
    const { store, service } = setup();
    const all = await store.load('all-main', { deploymentSlug: SLUG, issueType: 'sast', filters: { repos: [project], ref: 'main', dedup: true } });
    const ids = all.findings.map((f) => f.id);
    assert.ok(ids.length > TRIAGE_BATCH, `${ids.length} findings on main`);
    const feature = [...new Set(data.sast.map((f) => f.ref))].find((r) => r !== 'main')!;
    const onFeature = await store.load('feature', { deploymentSlug: SLUG, issueType: 'sast', filters: { repos: [project], ref: feature, dedup: true } });
    const mark = h.mark();
    const outcome = await service.triage('sast', ids, { state: 'fixing' });
    assert.equal(requests(mark, '/triage'), 2, 'two batches');
    const twins = onFeature.findings.filter((f) => outcome.ids.includes(f.id));
    assert.ok(twins.length > 0, 'the platform triaged copies on the feature branch');
    assert.ok(
      twins.every((f) => store.finding(SLUG, 'sast', f.id)?.status === 'fixing'),
      'and they show as fixing without a reload',
    );
    store.dispose();
  });

  test('Undo after a triage with a note puts the earlier note back, and says so when there was none to put back', async () => {
    const { store, service } = setup();
    const open = await store.load('problems', openOnMain('sca'));
    const [noted, bare] = open.findings.filter((f) => f.triageComment === undefined).slice(0, 2);
    assert.ok(noted && bare);
    await service.triage('sca', [noted.id], { state: 'reviewing', note: 'first look' });
    await service.triage('sca', [noted.id], { state: 'reopened' });
    const withNote = store.finding(SLUG, 'sca', noted.id);
    assert.equal(withNote?.triageComment, 'first look');
    const outcome = await service.triage('sca', [withNote.id, bare.id], { state: 'ignored', reason: 'no_time', note: 'test data only' });
    const undone = await service.undo('sca', outcome.before, 'test data only');
    assert.equal(undone.notesLeft, 1, "the finding that had no note keeps the triage's: the platform cannot remove it");
    const fresh = await store.load('check', openOnMain('sca'), { force: true });
    const back = fresh.findings.find((f) => f.id === noted.id);
    assert.equal(back?.status, 'open');
    assert.equal(back?.triageComment, 'first look', 'its earlier note is back');
    assert.equal(fresh.findings.find((f) => f.id === bare.id)?.status, 'open');
    assert.equal(undoneText(2, undone.notesLeft), 'Undone: 2 findings as before; the platform keeps the note on 1 finding.');
    assert.equal(undoneText(1, 0), 'Undone: 1 finding as before.');
    assert.equal(undoneText(1, 1), 'Undone: 1 finding as before; the platform keeps the note on it.');
    store.dispose();
  });

  test('Undo puts each finding back to its own state', async () => {
    const { store, service } = setup();
    const open = await store.load('problems', openOnMain('sca'));
    const target = open.findings[0];
    const outcome = await service.triage('sca', [target.id], { state: 'ignored', reason: 'no_time' });
    assert.equal(store.finding(SLUG, 'sca', target.id)?.status, 'ignored');
    const position = open.findings.indexOf(target);
    const during = store.state('problems');
    assert.ok(during.kind === 'loaded' && !during.result.findings.some((f) => f.id === target.id), 'ignored: out of the open view');
    await service.undo('sca', outcome.before);
    assert.equal(store.finding(SLUG, 'sca', target.id)?.status, 'open');
    const after = store.state('problems');
    assert.ok(after.kind === 'loaded');
    assert.equal(
      after.result.findings.findIndex((f) => f.id === target.id),
      position,
      'back in the open view where it was, without a reload',
    );
    assert.equal(after.result.findings.length, open.findings.length);
    const fresh = await store.load('problems', openOnMain('sca'), { force: true });
    assert.ok(
      fresh.findings.some((f) => f.id === target.id),
      'open again on the platform',
    );
    store.dispose();
  });

  test('tickets: 20 per request, the ticket shown on each finding; with no ticketing integration, a clear error and nothing changed', async () => {
    const { store, service } = setup();
    const open = await store.load('problems', allOnMain());
    const ids = open.findings
      .filter((f) => !f.ticket)
      .slice(0, 25)
      .map((f) => f.id);
    const mark = h.mark();
    const result = await service.createTickets('sast', ids);
    assert.equal(requests(mark, '/tickets'), 2, '20 + 5');
    const ticketed = result.succeeded.flatMap((t) => t.ids);
    assert.ok(ticketed.length > 0);
    assert.ok(
      ticketed.every((id) => store.finding(SLUG, 'sast', id)?.ticket?.url),
      'each created ticket is on its finding',
    );

    h.server.setTicketing(false);
    try {
      const other = open.findings.find((f) => !ticketed.includes(f.id) && !f.ticket)!;
      await assert.rejects(service.createTickets('sast', [other.id]), (e: unknown) => e instanceof PlatformError && /ticket/i.test(e.message));
      assert.equal(store.finding(SLUG, 'sast', other.id)?.ticket, undefined);
    } finally {
      h.server.setTicketing(true);
    }
    store.dispose();
  });

  test('link shows the ticket at once and names it after the answer; unlink refused puts it back', async () => {
    const { store, service } = setup();
    const open = await store.load('problems', allOnMain());
    const target = open.findings.find((f) => !f.ticket)!;
    const linked = await service.linkTicket('sast', [target.id], 'https://acme.atlassian.net/browse/SEC-777');
    assert.deepEqual(linked.linkedIds, [target.id]);
    assert.equal(store.finding(SLUG, 'sast', target.id)?.ticket?.url, 'https://acme.atlassian.net/browse/SEC-777');
    await assert.rejects(service.linkTicket('sast', [target.id], 'javascript:alert(1)'), TriageInputError);
    const withTicket = store.finding(SLUG, 'sast', target.id);
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/tickets/unlink' }, 1);
    await assert.rejects(service.unlinkTicket('sast', [target.id]));
    assert.equal(store.finding(SLUG, 'sast', target.id), withTicket, 'the ticket is back, same object');
    await service.unlinkTicket('sast', [target.id]);
    assert.equal(store.finding(SLUG, 'sast', target.id)?.ticket, undefined);
    store.dispose();
  });

  // Unlinking a ticket from every finding it is linked to (by the ticket's id).
  /** Links one new ticket to the first `n` findings of main without one; its id, and the findings' ids. */
  const linked = async (store: FindingsStore, service: TriageService, n: number) => {
    const shown = await store.load('all', allOnMain(), { force: true });
    const ids = shown.findings
      .filter((f) => !f.ticket)
      .slice(0, n)
      .map((f) => f.id);
    assert.equal(ids.length, n, `${n} findings without a ticket`);
    const answer = await service.linkTicket('sast', ids, 'https://acme.atlassian.net/browse/SEC-77');
    assert.ok(answer.ticketId && /^\d+$/.test(answer.ticketId), "the platform names the ticket's id");
    for (const id of ids) assert.equal(store.finding(SLUG, 'sast', id)?.ticket?.id, Number(answer.ticketId), "the finding keeps the ticket's id");
    return { ticketId: answer.ticketId, ids };
  };

  test('unlinking a ticket everywhere: every loaded finding holding the ticket loses it at once, and the platform agrees', async () => {
    const { store, service } = setup();
    const { ticketId, ids } = await linked(store, service, 3);
    let events = 0;
    store.onDidChange(() => events++);
    const pending = service.unlinkTicketEverywhere(ticketId);
    for (const id of ids) assert.equal(store.finding(SLUG, 'sast', id)?.ticket, undefined, 'gone before the answer');
    assert.equal(events, 1, 'one change event');
    const unlinked = await pending;
    assert.deepEqual(
      [...unlinked].sort((a, b) => a - b),
      [...ids].sort((a, b) => a - b),
      'the platform names the same findings',
    );
    const fresh = await store.load('all', allOnMain(), { force: true });
    assert.ok(
      fresh.findings.filter((f) => ids.includes(f.id)).every((f) => f.ticket === undefined),
      'the platform no longer links them',
    );
  });

  test('unlinking a ticket everywhere refused (a role that may not write): the very same findings come back, with the role named', async () => {
    const { store, service } = setup();
    const { ticketId, ids } = await linked(store, service, 2);
    const before = ids.map((id) => store.finding(SLUG, 'sast', id));
    h.server.setReadOnly(true);
    try {
      let events = 0;
      store.onDidChange(() => events++);
      await assert.rejects(service.unlinkTicketEverywhere(ticketId), (e: unknown) => PlatformError.is(e) && e.status === 403 && /role/.test(e.message));
      assert.equal(events, 2, 'one event to apply, one to put back');
      ids.forEach((id, i) => assert.equal(store.finding(SLUG, 'sast', id), before[i], 'the same object as before'));
    } finally {
      h.server.setReadOnly(false);
    }
    await service.unlinkTicketEverywhere(ticketId);
  });

  test("unlinking a ticket everywhere: an id that is not digits is refused before any request; an unknown ticket is the platform's 404", async () => {
    const { service } = setup();
    const mark = h.mark();
    await assert.rejects(service.unlinkTicketEverywhere('SEC-1'), TriageInputError);
    assert.equal(h.requestsSince(mark, '/ticketing/').length, 0);
    await assert.rejects(service.unlinkTicketEverywhere('424242'), (e: unknown) => PlatformError.is(e) && e.status === 404);
  });
});
