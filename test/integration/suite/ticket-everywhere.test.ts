// Unlinking a ticket from all its findings, in the editor: through the automation arguments the
// findings lose the ticket in the tree's store and on the platform; refused (a role that may not
// write), the findings keep it and the notification names the role.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Finding } from '../../../src/core/model/types';
import { signedIn, type Fixture } from './fixture';
import { notificationTexts, waitFor } from './helpers';

describe('unlinking a ticket from all its findings', () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  /** Tickets a test linked: unlinked after it, whether it unlinked them itself or failed first. */
  const linked = new Set<string>();
  afterEach(async () => {
    f.server.restoreProducts();
    for (const ticketId of linked) {
      const stillLinked = f.data.sast.some((x) => x.external_ticket?.id === Number(ticketId));
      if (stillLinked) await vscode.commands.executeCommand('appsecFindings.unlinkTicketEverywhere', { ticketId });
    }
    linked.clear();
  });

  const slug = (): string => f.data.deployment.slug;
  const stored = (id: number): Finding | undefined => f.api.app.findings.finding(slug(), 'sast', id);

  /** Two open code findings the extension shows, linked to one new ticket; the ticket's id. */
  async function linkTwo(): Promise<{ ticketId: string; ids: number[] }> {
    const shown = f.api.app.findings
      .shownResults()
      .flatMap((r) => r.findings)
      .filter((x) => x.issueType === 'sast' && x.status === 'open' && !x.ticket);
    const ids = [...new Set(shown.map((x) => x.id))].slice(0, 2);
    assert.equal(ids.length, 2, 'two open code findings are shown');
    const results = await vscode.commands.executeCommand<{ ticketId?: string }[]>(
      'appsecFindings.linkTicket',
      { finding: stored(ids[0]) },
      [{ finding: stored(ids[0]) }, { finding: stored(ids[1]) }],
      'https://acme.atlassian.net/browse/SEC-4242',
    );
    const ticketId = results?.[0]?.ticketId;
    assert.ok(ticketId, 'the platform named the ticket');
    linked.add(ticketId);
    await waitFor(() => ids.every((id) => stored(id)?.ticket?.id === Number(ticketId)), 5_000, 'both findings show the ticket');
    return { ticketId, ids };
  }

  it('with { ticketId }: every finding loses the ticket, here and on the platform, without a prompt', async () => {
    const { ticketId, ids } = await linkTwo();
    const unlinked = await vscode.commands.executeCommand<number[]>('appsecFindings.unlinkTicketEverywhere', { ticketId });
    assert.deepEqual(
      [...(unlinked ?? [])].sort((a, b) => a - b),
      [...ids].sort((a, b) => a - b),
    );
    for (const id of ids) {
      assert.equal(stored(id)?.ticket, undefined, `finding ${id} shows no ticket`);
      assert.equal(f.data.sast.find((x) => x.id === id)?.external_ticket, undefined, `the platform unlinked ${id}`);
    }
  });

  it('refused by a role that may not write: the findings keep the ticket, and the message names the role', async () => {
    const { ticketId, ids } = await linkTwo();
    const before = ids.map(stored);
    f.server.setReadOnly(true);
    const outcome = await vscode.commands.executeCommand('appsecFindings.unlinkTicketEverywhere', { ticketId });
    assert.equal(outcome, undefined, 'refused: reported, not thrown');
    ids.forEach((id, i) => assert.equal(stored(id), before[i], 'the very same finding as before'));
    assert.ok(
      ids.every((id) => f.data.sast.find((x) => x.id === id)?.external_ticket),
      'the platform still links them',
    );
    const texts = await notificationTexts();
    assert.ok(
      texts.some((t) => /role does not allow unlinking ticket/.test(t)),
      `the role is named: ${texts.join(' | ')}`,
    );
  });

  it('a ticket id that is not one is refused before any request', async () => {
    const mark = f.server.requests.length;
    const outcome = await vscode.commands.executeCommand('appsecFindings.unlinkTicketEverywhere', { ticketId: 'SEC-1' });
    assert.equal(outcome, undefined);
    assert.equal(f.server.requests.slice(mark).filter((r) => r.path.includes('/ticketing/')).length, 0);
  });
});
