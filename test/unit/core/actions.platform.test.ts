// The client's triage, ticket and detail calls against the local platform, and the tolerant
// decoding of their answers (ids as strings, either spelling, nulls, a broken answer).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeTicketLinkResult, decodeTicketResult, decodeTriageResult } from '../../../src/core/model/decodeActions';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from '../services/platform-harness';
import { allFindings } from './helpers/allPages';

void describe('triage, tickets and details through the client', () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 60, scaPerProject: 20, refsPerProject: 2 });
    h = await startHarness({ data });
  });
  after(() => h.close());
  const slug = (): string => data.deployment.slug;

  test('the platform refuses what the spec says it refuses, and the message says why, without the token', async () => {
    const client = h.client();
    const id = data.sast[0].id!;
    for (const [request, why] of [
      [{ issueType: 'sast', ids: [id], reason: 'false_positive', state: 'reviewing' }, /only with new_triage_state ignored/],
      [{ issueType: 'sast', ids: [id] }, /one of new_triage_state or new_note/],
      [{ issueType: 'sast', ids: [id], note: 'n'.repeat(3001) }, /at most 3000/],
    ] as const) {
      await assert.rejects(
        client.triage(slug(), request),
        (e: unknown) => e instanceof PlatformError && why.test(e.message) && !e.message.includes(h.server.token),
      );
    }
  });

  test("a finding's detail: the whole finding, rule lists in the service's snake_case, EPSS for supply chain; none for an unknown id", async () => {
    const client = h.client();
    const wire = data.sast.find((f) => f.ref === 'main' && f.assistant?.autofix && (f.rule?.cweNames?.length ?? 0) > 0)!;
    const compact = (
      await allFindings(() => client.findings(slug(), 'sast', { repos: [wire.repository!.name!], ref: 'main' }, { pageSize: 100 }))
    ).findings.find((f) => f.id === wire.id)!;
    const mark = h.mark();
    const detail = await client.findingDetail(slug(), compact);
    assert.equal(detail?.id, wire.id);
    assert.deepEqual(detail?.rule?.cweNames, wire.rule?.cweNames);
    assert.equal(detail?.assistant?.autofixCode, wire.assistant?.autofix?.fix_code);
    const asked = h.requestsSince(mark, '/findings')[0]?.rawUrl ?? '';
    assert.match(asked, /rules=/, 'narrowed to the rule');
    assert.match(asked, /ref=main/);
    const scaWire = data.sca.find((f) => f.ref === 'main' && f.epss_score)!;
    const scaCompact = (
      await allFindings(() => client.findings(slug(), 'sca', { repos: [scaWire.repository!.name!], ref: 'main' }, { pageSize: 100 }))
    ).findings.find((f) => f.id === scaWire.id)!;
    assert.equal((await client.findingDetail(slug(), scaCompact))?.epss?.score, scaWire.epss_score?.score);
    assert.equal(await client.findingDetail(slug(), { ...compact, id: 987654321 }), undefined);
  });

  test('link refuses a link that is not http(s) before sending; unlink answers the ids it unlinked', async () => {
    const client = h.client();
    const mark = h.mark();
    await assert.rejects(
      client.linkTicket(String(data.deployment.id), 'file:///etc/passwd', [1]),
      (e: unknown) => e instanceof PlatformError && /https/.test(e.message),
    );
    assert.equal(h.requestsSince(mark, '/tickets').length, 0);
    const id = data.sast[2].id!;
    const linked = await client.linkTicket(String(data.deployment.id), 'https://acme.atlassian.net/browse/SEC-5', [id]);
    assert.equal(linked.slug, 'SEC-5');
    assert.deepEqual(await client.unlinkTicket(String(data.deployment.id), [id]), [id]);
  });
});

void describe('decoding the answers', () => {
  test('ids as numbers or strings of digits; either spelling; missing parts empty', () => {
    assert.deepEqual(decodeTriageResult({ num_triaged: 2, triaged_issues: [1, '2', 'x', null] }), { triaged: 2, triagedIds: [1, 2] });
    assert.deepEqual(decodeTriageResult({ triagedIssues: ['7'] }), { triaged: 1, triagedIds: [7] });
    const tickets = decodeTicketResult({
      succeeded: [{ ticket_id: 12, ticketUrl: 'https://j/SEC-12', external_slug: 'SEC-12', issue_ids: ['3'] }],
      failed: [{ issue_ids: [4] }],
      skipped: null,
    });
    assert.deepEqual(tickets, {
      succeeded: [{ ticketId: '12', url: 'https://j/SEC-12', slug: 'SEC-12', ids: [3] }],
      failed: [{ error: 'no reason given', ids: [4] }],
      skipped: [],
    });
    assert.deepEqual(decodeTicketLinkResult({ linked_issue_ids: ['5'], replacedIssueIds: [6] }).replacedIds, [6]);
  });

  test('an answer that is not an object is an error naming the endpoint', () => {
    assert.throws(
      () => decodeTriageResult([]),
      (e: unknown) => e instanceof PlatformError && /triage answer is not an object/.test(e.message),
    );
    assert.throws(() => decodeTicketResult('ok'), PlatformError);
  });
});
