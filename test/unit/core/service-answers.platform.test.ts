// The client against the local platform in both of its shapes (the real service's and the
// spec's) and behind servers that cap page sizes: every finding and project arrives, once, with
// the facts each shape carries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding } from '../../../src/core/model/types';
import { usePlatform } from './helpers/platformFixture';
import { allFindings } from './helpers/allPages';

const fx = usePlatform();

const ids = (list: readonly { id: number }[]): number[] => list.map((f) => f.id).sort((a, b) => a - b);
const storedIds = (list: readonly { id?: number }[]): number[] => list.map((f) => f.id ?? -1).sort((a, b) => a - b);
/** The fields both shapes must decode to alike (the service's omits nothing a view shows). */
const essence = (f: Finding): unknown => [
  f.id,
  f.ruleName,
  f.message,
  f.severity,
  f.status,
  f.ref,
  f.location?.filePath,
  f.location?.line,
  f.sca?.package,
  f.sca?.isMalicious,
  f.sca?.usage?.line,
  f.sca?.lockfileLine,
];

void describe('both answer shapes decode to the same findings', () => {
  for (const issueType of ['sast', 'sca'] as const) {
    void it(`${issueType}: the service's flat, snake_case answer and the spec's envelope give the same findings`, async () => {
      const service = await allFindings(() => fx.client.findings(fx.slug(), issueType, {}, { pageSize: 100 }));
      fx.platform.setShape('spec');
      try {
        const spec = await allFindings(() => fx.client.findings(fx.slug(), issueType, {}, { pageSize: 100 }));
        assert.equal(service.skipped, 0, 'no finding of the service shape is dropped as malformed');
        assert.equal(service.findings.length, (issueType === 'sast' ? fx.platform.data.sast : fx.platform.data.sca).length);
        assert.deepEqual(service.findings.map(essence), spec.findings.map(essence));
        assert.ok(
          service.findings.some((f) => f.id % 3 === 0),
          'findings without rule_name are among them',
        );
      } finally {
        fx.platform.setShape('service');
      }
    });
  }

  void it('projects: refs/heads/ branches read as names, omitted scan flags as off', async () => {
    const projects = await fx.client.listProjects(fx.slug());
    assert.ok(projects.every((p) => p.primaryBranch === 'main'));
    const stored = fx.platform.data.projects[0];
    assert.ok(stored);
    stored.managed_scan_config = { diff_scan: { enabled: false }, full_scan: { enabled: true } };
    const one = await fx.client.getProject(fx.slug(), stored.name);
    assert.deepEqual(one.managedScanConfig, { diffScanEnabled: false, fullScanEnabled: true });
  });
});

void describe('servers that cap page sizes', () => {
  for (const cap of [100, 2]) {
    void it(`a cap of ${cap}: every finding and project arrives exactly once, whatever page size was asked`, async () => {
      fx.platform.setMaxPageSize(cap);
      try {
        const sca = await allFindings(() => fx.client.findings(fx.slug(), 'sca', {}, { pageSize: 1000, concurrency: 4 }));
        assert.deepEqual(ids(sca.findings), storedIds(fx.platform.data.sca));
        assert.equal(new Set(sca.findings.map((f) => f.id)).size, sca.findings.length);
        const projects = await fx.client.listProjects(fx.slug(), { pageSize: 100 });
        assert.deepEqual(ids(projects), storedIds(fx.platform.data.projects));
        if (cap === 100) {
          const sast = await allFindings(() => fx.client.findings(fx.slug(), 'sast', {}, { pageSize: 3000 }));
          assert.deepEqual(ids(sast.findings), storedIds(fx.platform.data.sast));
        }
      } finally {
        fx.platform.setMaxPageSize(undefined);
      }
    });
  }
});
