// One rule for the platform's page of a finding, whatever view or command opens it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeHostOf, parseFindingUrl, platformFindingUrl, platformProjectUrl, splitTrailingId } from '../../../src/core/model/links';
import { ISSUE_TYPES } from '../../../src/core/model/types';

void describe('parseFindingUrl', () => {
  void it('reads back the link of every kind it builds (round trip), secrets included', () => {
    for (const issueType of ISSUE_TYPES) {
      const finding = { issueType, id: 600000000001 };
      assert.deepEqual(parseFindingUrl(platformFindingUrl('https://semgrep.dev', 'acme', finding)), finding, issueType);
    }
    assert.equal(parseFindingUrl('https://semgrep.dev/orgs/acme/projects/4'), undefined);
    assert.equal(parseFindingUrl('https://semgrep.dev/orgs/acme/findings/1234567890123456'), undefined, 'an id of 16 digits could not stay exact');
  });
});

void describe('splitTrailingId', () => {
  void it("cuts a finding's page into a shared prefix and its id, which put together are the link again", () => {
    for (const issueType of ISSUE_TYPES) {
      const link = platformFindingUrl('https://semgrep.dev', 'acme', { issueType, id: 600000000001 });
      const split = splitTrailingId(link);
      assert.equal(split?.id, 600000000001);
      assert.equal(`${split?.prefix}${split?.id}`, link);
    }
    assert.deepEqual(splitTrailingId('https://x/findings/0'), { prefix: 'https://x/findings/', id: 0 });
  });

  void it('leaves whole a link whose end would not read back as written, or is no id', () => {
    for (const link of ['https://x/findings/007', 'https://x/findings/1234567890123456', 'https://x/f?id=5', 'https://x/findings/5/', '42', 'https://x/a5']) {
      assert.equal(splitTrailingId(link), undefined, link);
    }
  });
});

void describe('platformFindingUrl', () => {
  void it('code findings under findings/, supply-chain ones under supply-chain/, the slug encoded', () => {
    assert.equal(platformFindingUrl('https://semgrep.dev', 'acme', { issueType: 'sast', id: 42 }), 'https://semgrep.dev/orgs/acme/findings/42');
    assert.equal(platformFindingUrl('https://semgrep.dev/', 'acme corp', { issueType: 'sca', id: 7 }), 'https://semgrep.dev/orgs/acme%20corp/supply-chain/7');
  });
});

void describe('platformProjectUrl and codeHostOf', () => {
  void it("a project's platform page is not its repository's", () => {
    assert.equal(platformProjectUrl('https://semgrep.dev', 'acme', { id: 370001 }), 'https://semgrep.dev/orgs/acme/projects/370001');
  });

  void it('names the code host a link goes to', () => {
    assert.equal(codeHostOf('https://github.com/acme/api/blob/abc/a.py#L1'), 'github');
    assert.equal(codeHostOf('https://gitlab.com/g/s/r/-/blob/abc/a.go#L2'), 'gitlab');
    assert.equal(codeHostOf('https://gitlab.acme.internal/g/r'), 'gitlab');
    assert.equal(codeHostOf('https://dev.azure.com/acme/_git/api'), 'other');
    assert.deepEqual([codeHostOf(undefined), codeHostOf('javascript:alert(1)'), codeHostOf('not a url')], [undefined, undefined, undefined]);
  });
});
