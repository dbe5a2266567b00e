// The rules every place that shows a project's findings shares: the same query and the same local
// filters (whether a ref falls back is decided in ref-scans.ts: scanned-branch.platform.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import { queryKey } from '../../../src/core/services/findings-query';
import { shownFilter, shownQuery } from '../../../src/core/services/shown-queries';
import type { Finding } from '../../../src/core/model/types';

void describe('shown queries', () => {
  test('the same project, kind, ref and filters give the same query, whoever asks (one answer in the store)', () => {
    const selection = { ...EMPTY_SELECTION, severities: ['high'] };
    const a = shownQuery('acme', selection, 'sast', 'acme/web', 'main');
    const b = shownQuery('acme', { ...selection }, 'sast', 'acme/web', 'main');
    assert.equal(queryKey(a), queryKey(b));
    assert.equal(a.filters.ref, 'main');
    assert.equal(a.filters.dedup, true);
    assert.equal('ref' in shownQuery('acme', selection, 'sast', 'acme/web', undefined).filters, false, "no ref: the platform's default");
  });

  test('"only new" keeps what the novelty says is new, and nothing while it is unknown', () => {
    const finding = (id: number) => ({ id, issueType: 'sast', status: 'open' }) as unknown as Finding;
    const selection = { ...EMPTY_SELECTION, newOnBranch: true };
    const keep = shownFilter(selection, { isNew: (f) => f.id === 1 });
    assert.equal(keep?.(finding(1)), true);
    assert.equal(keep?.(finding(2)), false);
    assert.equal(shownFilter(selection)?.(finding(1)), false, 'novelty unknown: nothing is claimed new');
    assert.equal(shownFilter(EMPTY_SELECTION), undefined, 'no filter set: nothing to apply');
  });
});
