// One rule for the platform's page of a finding, whatever view or command opens it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { platformFindingUrl } from '../../../src/core/model/links';

void describe('platformFindingUrl', () => {
  void it('code findings under findings/, supply-chain ones under supply-chain/, the slug encoded', () => {
    assert.equal(platformFindingUrl('https://semgrep.dev', 'acme', { issueType: 'sast', id: 42 }), 'https://semgrep.dev/orgs/acme/findings/42');
    assert.equal(platformFindingUrl('https://semgrep.dev/', 'acme corp', { issueType: 'sca', id: 7 }), 'https://semgrep.dev/orgs/acme%20corp/supply-chain/7');
  });
});
