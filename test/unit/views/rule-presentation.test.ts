// How policies and rules read in the Policy Rules tree, including modes the spec does not list.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyRule } from '../../../src/core/model/policy';
import {
  groupRulesByMode,
  policyDescription,
  policyTooltip,
  productLabel,
  ruleAccessibilityLabel,
  ruleContextValue,
  ruleDescription,
  enumWord,
  ruleLabel,
  ruleModeIcon,
  ruleModeTitle,
  ruleTooltip,
} from '../../../src/views/rule-presentation';

const rule = (path: string, mode: string, extra: Partial<PolicyRule> = {}): PolicyRule => ({
  id: path,
  path,
  mode,
  languages: [],
  cweCategories: [],
  owaspCategories: [],
  ...extra,
});

void describe('rule modes', () => {
  void test('each known mode has its icon; anything else a question mark', () => {
    assert.equal(ruleModeIcon('MODE_BLOCK').id, 'circle-slash');
    assert.equal(ruleModeIcon('MODE_COMMENT').id, 'comment');
    assert.equal(ruleModeIcon('MODE_MONITOR').id, 'eye');
    assert.equal(ruleModeIcon('MODE_DISABLED').id, 'circle-outline');
    assert.equal(ruleModeIcon('MODE_SHADOW').id, 'question');
  });

  void test('titles read as words; an unknown mode keeps its raw value', () => {
    assert.deepEqual(['MODE_BLOCK', 'MODE_COMMENT', 'MODE_MONITOR', 'MODE_DISABLED', 'MODE_SHADOW', ''].map(ruleModeTitle), [
      'Block',
      'Comment',
      'Monitor',
      'Disabled',
      'MODE_SHADOW',
      'unknown mode',
    ]);
  });

  void test('groups: strictest first, unknown modes after, by name; rules by path within', () => {
    const groups = groupRulesByMode([
      rule('b.x', 'MODE_MONITOR'),
      rule('z', 'MODE_ZETA'),
      rule('a.x', 'MODE_MONITOR'),
      rule('c', 'MODE_BLOCK'),
      rule('d', 'MODE_ALPHA'),
      rule('e', 'MODE_DISABLED'),
      rule('f', 'MODE_COMMENT'),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.mode, g.rules.map((r) => r.path)]),
      [
        ['MODE_BLOCK', ['c']],
        ['MODE_COMMENT', ['f']],
        ['MODE_MONITOR', ['a.x', 'b.x']],
        ['MODE_DISABLED', ['e']],
        ['MODE_ALPHA', ['d']],
        ['MODE_ZETA', ['z']],
      ],
    );
  });
});

void describe('rule nodes', () => {
  void test('label is the last path segment; description mode and severity', () => {
    const r = rule('python.lang.security.eval', 'MODE_BLOCK', { severity: 'high' });
    assert.equal(ruleLabel(r), 'eval');
    assert.equal(ruleDescription(r), 'block · high');
    assert.equal(ruleDescription(rule('x', 'MODE_SHADOW')), 'MODE_SHADOW');
    assert.equal(ruleAccessibilityLabel(r), 'rule python.lang.security.eval, mode block, high severity');
  });

  void test('severities, confidences and sources read as words, as the service spells them (SEVERITY_HIGH → high)', () => {
    const r = rule('python.lang.security.eval', 'MODE_MONITOR', { severity: 'SEVERITY_HIGH', confidence: 'CONFIDENCE_MEDIUM', source: 'SOURCE_PRO' });
    assert.equal(ruleDescription(r), 'monitor · high');
    assert.equal(ruleAccessibilityLabel(r), 'rule python.lang.security.eval, mode monitor, high severity');
    const tip = ruleTooltip(r, 'Default');
    assert.match(tip, /Severity: high/);
    assert.match(tip, /Confidence: medium/);
    assert.match(tip, /Source: pro/);
    assert.doesNotMatch(tip, /SEVERITY|CONFIDENCE|SOURCE_/);
    // New values still read; text that is not an identifier is left as sent.
    assert.deepEqual(['SEVERITY_CRITICAL', 'SEVERITY_VERY_HIGH', 'high', 'Mixed Case', undefined, ''].map(enumWord), [
      'critical',
      'very high',
      'high',
      'Mixed Case',
      undefined,
      undefined,
    ]);
  });

  void test('"rule hasUrl" only for an http(s) URL', () => {
    assert.equal(ruleContextValue(rule('x', 'MODE_BLOCK', { url: 'https://semgrep.dev/r/x' })), 'rule MODE_BLOCK hasUrl');
    assert.equal(ruleContextValue(rule('x', 'MODE_BLOCK', { url: 'javascript:alert(1)' })), 'rule MODE_BLOCK');
    assert.equal(ruleContextValue(rule('x', 'MODE_COMMENT')), 'rule MODE_COMMENT');
    // A mode the spec does not name (or no mode) greys out nothing in the Set Mode submenu.
    assert.equal(ruleContextValue(rule('x', 'mode comment')), 'rule');
  });

  void test('tooltip lists the details, escaped, with the rule page as the only link', () => {
    const text = ruleTooltip(
      rule('a.b', 'MODE_COMMENT', {
        severity: 'medium',
        languages: ['python', 'go'],
        cweCategories: ['CWE-94: <b>Code</b>'],
        url: 'https://semgrep.dev/r/a.b',
      }),
      'Default [policy](command:x)',
    );
    assert.match(text, /Mode: comment/);
    assert.ok(text.includes('Languages: python\\, go'));
    assert.ok(text.includes('CWE: CWE\\-94\\: \\<b\\>Code\\<\\/b\\>'));
    assert.ok(text.includes('Policy: Default \\[policy\\]\\(command\\:x\\)'));
    assert.deepEqual(
      [...text.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]),
      ['https://semgrep.dev/r/a.b'],
    );
  });
});

void describe('policies', () => {
  void test('description: default, product, and where it came from when the platform did not list it', () => {
    const policy = { id: '7', name: 'Default', slug: 'default', isDefault: true, productType: 'PRODUCT_TYPE_SAST' };
    assert.equal(policyDescription({ policy, origin: 'platform' }), 'default · SAST');
    assert.equal(policyDescription({ policy: { ...policy, isDefault: false, productType: undefined }, origin: 'findings' }), 'named by findings');
    assert.match(policyTooltip({ policy, origin: 'settings' }), /Source: from the appsecFindings\\\.policyIds setting/);
    assert.equal(productLabel(undefined), undefined);
  });
});
