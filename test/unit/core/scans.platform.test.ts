/**
 * Which commit was scanned, from `scans/search` at the local platform: the newest completed
 * scan of the branch that names a commit, across cursor pages; failed and other branches'
 * scans are not it; a bad answer is a clear error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeScansPage, latestWithCommit } from '../../../src/core/model/decodeScan';
import { usePlatform } from './helpers/platformFixture';

const fx = usePlatform();

void describe('scans', () => {
  void it('latestScan gives the newest completed scan of the branch, as one POST with the filters', async () => {
    const project = fx.platform.data.projects[0];
    const branch = project.primary_branch;
    const expected = fx.platform.data.scans
      .filter((s) => s.repository_id === project.repository_id && s.branch === branch && s.status === 'SCAN_STATUS_COMPLETED')
      .at(-1);
    assert.ok(expected?.commit);
    const scan = await fx.client.latestScan(fx.deploymentId(), project.repository_id, branch);
    assert.equal(scan?.commit, expected.commit);
    assert.equal(scan?.branch, branch);
    const request = fx.platform.requests.at(-1);
    assert.equal(request?.method, 'POST');
    assert.deepEqual(JSON.parse(request?.body ?? '{}'), { repository_id: project.repository_id, branch, statuses: ['SCAN_STATUS_COMPLETED'], limit: 100 });
  });

  void it('follows the cursor when the newest scan is on a later page', async () => {
    const project = fx.platform.data.projects[0];
    const newest = '1234567890abcdef1234567890abcdef12345678';
    // The server lists newest first; put many newer scans without a commit in front.
    for (let i = 0; i < 120; i++)
      fx.platform.data.scans.push({
        id: 990_000 + i,
        repository_id: project.repository_id,
        branch: 'busy',
        status: 'SCAN_STATUS_COMPLETED',
        completed_at: '2024-01-01T00:00:00Z',
      });
    fx.platform.data.scans.unshift({
      id: 980_000,
      repository_id: project.repository_id,
      branch: 'busy',
      status: 'SCAN_STATUS_COMPLETED',
      commit: newest,
      completed_at: '2023-12-01T00:00:00Z',
    });
    const scan = await fx.client.latestScan(fx.deploymentId(), project.repository_id, 'busy');
    assert.equal(scan?.commit, newest);
    assert.equal(fx.platform.requests.filter((r) => r.path.endsWith('/scans/search')).length >= 2, true);
  });

  void it('a branch without a completed scan has none', async () => {
    const project = fx.platform.data.projects[0];
    assert.equal(await fx.client.latestScan(fx.deploymentId(), project.repository_id, 'never-scanned'), undefined);
  });

  void it('decoding: skips scans without an id, drops a commit that is not a SHA, refuses a body without a list', () => {
    const page = decodeScansPage({
      scans: [{ commit: 'abcdef1' }, { id: 3, commit: 'main; rm -rf /' }, { id: 4, commit: 'ABCDEF1234', completed_at: '2024-02-02T00:00:00Z' }],
      cursor: 'c',
    });
    assert.deepEqual(
      page.scans.map((s) => [s.id, s.commit]),
      [
        [3, undefined],
        [4, 'abcdef1234'],
      ],
    );
    assert.equal(page.nextCursor, 'c');
    assert.equal(latestWithCommit(page.scans)?.id, 4);
    assert.throws(
      () => decodeScansPage({ scans: {} }),
      (e: unknown) => PlatformError.is(e, 'invalidResponse'),
    );
  });
});
