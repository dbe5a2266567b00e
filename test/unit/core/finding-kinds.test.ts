// Each kind of finding is described once; the links, queries and abilities other modules read
// come from that description, so a kind is the same everywhere it is read.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isIssueType, KINDS, kindOf, kindsWhere, perKind } from '../../../src/core/model/finding-kinds';
import { parseFindingUrl, platformFindingUrl } from '../../../src/core/model/links';
import { ISSUE_TYPES } from '../../../src/core/model/types';

void describe('the kinds of finding', () => {
  test('every kind is described, under its own section of the web UI, and its link reads back as it', () => {
    assert.deepEqual(Object.keys(KINDS), [...ISSUE_TYPES]);
    assert.equal(new Set(ISSUE_TYPES.map((type) => KINDS[type].webSection)).size, ISSUE_TYPES.length);
    for (const issueType of ISSUE_TYPES) {
      const url = platformFindingUrl('https://semgrep.dev/', 'acme', { issueType, id: 42 });
      assert.deepEqual(parseFindingUrl(url), { issueType, id: 42 }, url);
    }
  });

  test('what each kind can do: a trace for code, packages for supply chain, no fix pull request for a secret', () => {
    assert.deepEqual(
      kindsWhere((k) => k.traced),
      ['sast'],
    );
    assert.deepEqual(
      kindsWhere((k) => k.packages),
      ['sca'],
    );
    assert.deepEqual(
      kindsWhere((k) => k.fixPullRequests),
      ['sast', 'sca'],
    );
    assert.deepEqual(
      kindsWhere((k) => k.list === 'secrets'),
      ['secrets'],
    );
    assert.equal(kindOf({ issueType: 'sca' }), KINDS.sca);
  });

  test('rules are documented where the kind says: the registry for code, OSV for an advisory, nowhere for a secret', () => {
    assert.equal(KINDS.sast.helpUri('python/lang/eval'), 'https://semgrep.dev/r/python/lang/eval');
    assert.equal(KINDS.sca.helpUri('GHSA-abcd-1234'), 'https://osv.dev/vulnerability/GHSA-abcd-1234');
    assert.equal(KINDS.sca.helpUri('ssc-1234'), undefined);
    assert.equal(KINDS.secrets.helpUri('generic.secrets.aws'), undefined);
  });

  test("one value per kind, and only the kinds' names are kinds", () => {
    assert.deepEqual(
      perKind((type) => type.length),
      { sast: 4, sca: 3, secrets: 7 },
    );
    assert.ok(ISSUE_TYPES.every(isIssueType));
    for (const other of ['ai_sast', 'SAST', '', 'toString', 7, undefined]) assert.equal(isIssueType(other), false, String(other));
  });
});
