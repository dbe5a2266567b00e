// One order of severities for every list, count and message: most severe first, and a severity
// the platform adds later (or none) after every known one, so it never hides a critical finding.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isKnownSeverity, SEVERITY_ORDER, severityRank } from '../../../src/core/model/severity';

void describe('severity order', () => {
  void test('known severities rank in order, unknown ones after them', () => {
    assert.deepEqual(['critical', 'high', 'medium', 'low'].map(severityRank), [0, 1, 2, 3]);
    assert.ok(severityRank('whatever') > severityRank('low'));
    assert.equal(severityRank(''), SEVERITY_ORDER.length, 'no severity sorts last too');
    const sorted = ['low', 'experimental', 'critical', 'medium'].sort((a, b) => severityRank(a) - severityRank(b));
    assert.deepEqual(sorted, ['critical', 'medium', 'low', 'experimental']);
  });

  void test('knows only the documented severities, whatever else a string is', () => {
    assert.deepEqual(['critical', 'high', 'medium', 'low', 'experimental', 'constructor', 'CRITICAL', ''].map(isKnownSeverity), [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
