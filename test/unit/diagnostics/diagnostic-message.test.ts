// What a finding's diagnostic says in Problems: what the tree says of it beyond its rule (an AI
// finding, a secret's validation), in the tree's and the hover's words, so that the Problems
// filter box, which matches a diagnostic's message (as a contiguous, case-insensitive substring),
// its source and its code, finds those findings by those words.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AI_PREFIX, CHANGED_SUFFIX, DIAGNOSTIC_SOURCE, diagnosticMessage, messageOf } from '../../../src/diagnostics/diagnostic-message';
import { aboutFindingLines } from '../../../src/editor/hover-text';
import { findingDescription } from '../../../src/views/finding-presentation';
import type { Finding, SecretValidation } from '../../../src/core/model/types';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

const secretOf = (validation: SecretValidation): Finding =>
  sastFinding({
    issueType: 'secrets',
    ruleName: 'AWS',
    message: 'AWS secret committed in the repository',
    file: 'src/config.js',
    line: 3,
    secret: { service: 'AWS', validation },
  });
const ai = sastFinding({
  ruleName: 'ai.authorization.missing-ownership-check',
  message: "The route returns any user's record.",
  file: 'src/server.js',
  line: 12,
  ai: { impact: 'Records of others can be read.' },
});
const code = sastFinding({ message: 'Avoid eval', file: 'src/app.py', line: 4 });
const lodash = scaFinding(
  { package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337', reachability: 'unreachable', fixVersions: ['4.17.21'] },
  { message: 'Command injection in template' },
);

/** What the tree's description of a finding says first (before its place). */
const treeWord = (finding: Finding): string => findingDescription(finding).split(' · ')[0] ?? '';
/** The Problems filter box on the message: a contiguous, case-insensitive match. */
const filterFinds = (text: string, findings: readonly Finding[]): Finding[] =>
  findings.filter((finding) => diagnosticMessage(finding).toLowerCase().includes(text.toLowerCase()));

describe('diagnostic messages', () => {
  test('an AI finding is marked "AI" first, the word the tree\'s description starts with; other findings are not', () => {
    assert.equal(messageOf(ai), "AI: The route returns any user's record.");
    assert.equal(treeWord(ai), AI_PREFIX.slice(0, -2), 'the tree says "AI" too');
    // The hover's markdown escapes the parentheses: "**missing-ownership-check (AI)**" as shown.
    assert.match(aboutFindingLines(ai, undefined)[0] ?? '', /^\*\*.+ \\\(AI\\\)\*\*/, 'and so does the hover');
    assert.equal(messageOf(code), 'Avoid eval');
    assert.equal(messageOf({ ...ai, message: '' }), 'AI: ai.authorization.missing-ownership-check', 'without a message: the rule, still marked');
  });

  test('a secret names its validation in the words of the tree and the hover', () => {
    const words: Record<string, string> = {
      confirmed_valid: 'valid secret',
      confirmed_invalid: 'invalid secret',
      validation_error: 'validation failed',
      no_validator: 'not validated',
    };
    for (const [validation, word] of Object.entries(words)) {
      const secret = secretOf(validation);
      assert.equal(messageOf(secret), `AWS secret committed in the repository (${word})`, validation);
      assert.equal(treeWord(secret), word, `the tree says ${word}`);
      assert.ok(aboutFindingLines(secret, undefined)[0]?.endsWith(` · ${word}`), `the hover says ${word}`);
    }
  });

  test('the filter box finds each kind by its words, and nothing else', () => {
    const secrets = (['confirmed_valid', 'confirmed_invalid', 'validation_error', 'no_validator'] as const).map(secretOf);
    const all = [ai, code, lodash, ...secrets];
    assert.deepEqual(filterFinds('AI:', all), [ai]);
    assert.deepEqual(filterFinds('ai:', all), [ai], 'the filter box ignores case');
    // "valid secret" is also inside "invalid secret": the opening parenthesis tells them apart.
    assert.deepEqual(filterFinds('(valid secret', all), [secrets[0]]);
    assert.deepEqual(filterFinds('invalid secret', all), [secrets[1]]);
    assert.deepEqual(filterFinds('validation failed', all), [secrets[2]]);
    assert.deepEqual(filterFinds('not validated', all), [secrets[3]]);
  });

  test('the note that the code changed since the scan comes last, after the marks', () => {
    assert.equal(diagnosticMessage(secretOf('confirmed_valid'), true), `AWS secret committed in the repository (valid secret)${CHANGED_SUFFIX}`);
    assert.equal(diagnosticMessage(ai, true), `AI: The route returns any user's record.${CHANGED_SUFFIX}`);
    assert.equal(diagnosticMessage(ai, false), messageOf(ai));
  });

  test('a supply-chain finding is named by package and advisory, its reachability said up front and its fix after', () => {
    assert.equal(messageOf(lodash), 'lodash 4.17.20 — CVE-2021-23337 (unreachable from your code): Command injection in template Fixed in 4.17.21.');
    assert.equal(
      messageOf({ ...lodash, sca: { advisory: 'CVE-2021-23337', isMalicious: true } }),
      'CVE-2021-23337 (malicious package): Command injection in template',
    );
  });

  test('every diagnostic of ours has the one source, AI findings and secrets too', () => {
    // The marks are in the message: a source of their own would not survive a cached start, whose records keep no source.
    assert.equal(DIAGNOSTIC_SOURCE, 'AppSec');
  });
});
