import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  encodeCursorQuery,
  encodeFindingsQuery,
  encodeOffsetQuery,
  encodePathSegment,
  encodeProjectName,
  encodeSbomExportRequest,
} from '../../../src/core/api/encoding';
import { PlatformError } from '../../../src/core/model/errors';
import type { FindingFilters } from '../../../src/core/model/types';

const every: FindingFilters = {
  since: 1714564800.5,
  dedup: true,
  repos: ['acme/api', 'acme/web app'],
  repositoryIds: [1, 2],
  status: 'ignored',
  triageReasons: ['false_positive', 'no_time'],
  severities: ['high', 'critical'],
  ref: 'main',
  policies: ['rule-board-block'],
  rules: ['a.b.c'],
  categories: ['security'],
  confidence: 'high',
  autotriageVerdict: 'true_positive',
  componentTags: ['payments'],
  exposures: ['reachable', 'unknown'],
  transitivities: ['direct'],
  isMalicious: false,
  clickToFixPrState: ['open', 'merged'],
};

function params(query: string): [string, string][] {
  return [...new URLSearchParams(query)];
}

void describe('encodeFindingsQuery', () => {
  void it('sends sast filters with repeated keys and leaves out sca-only ones', () => {
    assert.deepEqual(params(encodeFindingsQuery('sast', every, 2, 500)), [
      ['issue_type', 'sast'],
      ['page', '2'],
      ['page_size', '500'],
      ['since', '1714564800.5'],
      ['dedup', 'true'],
      ['repos', 'acme/api'],
      ['repos', 'acme/web app'],
      ['repository_ids', '1'],
      ['repository_ids', '2'],
      ['status', 'ignored'],
      ['triage_reasons', 'false_positive'],
      ['triage_reasons', 'no_time'],
      ['severities', 'high'],
      ['severities', 'critical'],
      ['ref', 'main'],
      ['component_tags', 'payments'],
      ['click_to_fix_pr_state', 'open'],
      ['click_to_fix_pr_state', 'merged'],
      ['policies', 'rule-board-block'],
      ['rules', 'a.b.c'],
      ['categories', 'security'],
      ['confidence', 'high'],
      ['autotriage_verdict', 'true_positive'],
    ]);
  });

  void it('sends sca filters, booleans as false/true, and leaves out sast-only ones', () => {
    const keys = params(encodeFindingsQuery('sca', every, 0, 100));
    const names = new Set(keys.map(([k]) => k));
    for (const sastOnly of ['policies', 'rules', 'categories', 'confidence', 'autotriage_verdict']) {
      assert.ok(!names.has(sastOnly), sastOnly);
    }
    assert.deepEqual(
      keys.filter(([k]) => ['exposures', 'transitivities', 'is_malicious'].includes(k)),
      [
        ['exposures', 'reachable'],
        ['exposures', 'unknown'],
        ['transitivities', 'direct'],
        ['is_malicious', 'false'],
      ],
    );
  });

  void it('omits undefined values, empty arrays and an empty ref; encodes with %20', () => {
    const query = encodeFindingsQuery('sast', { repos: [], severities: [], ref: '', dedup: false, rules: ['a b&c'] }, 0, 100);
    assert.equal(query, 'issue_type=sast&page=0&page_size=100&dedup=false&rules=a%20b%26c');
  });

  void it('refuses a non-finite since and a bad repository id before sending', () => {
    assert.throws(
      () => encodeFindingsQuery('sast', { since: Number.NaN }, 0, 100),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    assert.throws(
      () => encodeFindingsQuery('sast', { repositoryIds: [1.5] }, 0, 100),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    assert.throws(
      () => encodeFindingsQuery('sast', { repositoryIds: [-1] }, 0, 100),
      (e) => PlatformError.is(e, 'badRequest'),
    );
  });
});

void describe('paths', () => {
  void it('keeps the slashes of a project name and encodes each segment', () => {
    assert.equal(encodeProjectName('group/sub group/repo#1'), 'group/sub%20group/repo%231');
    assert.equal(encodeProjectName('100%/ä?'), '100%25/%C3%A4%3F');
  });

  void it('refuses empty, dot and dot-dot segments', () => {
    for (const bad of ['', 'a//b', '/a', 'a/', 'a/../b', './a']) {
      assert.throws(
        () => encodeProjectName(bad),
        (e) => PlatformError.is(e, 'badRequest'),
        bad,
      );
    }
  });

  void it('encodes a single segment including slashes', () => {
    assert.equal(encodePathSegment('acme/x y', 'deployment'), 'acme%2Fx%20y');
    assert.throws(
      () => encodePathSegment('..', 'deployment'),
      (e) => PlatformError.is(e, 'badRequest'),
    );
  });
});

void describe('paging queries', () => {
  void it('offset and cursor', () => {
    assert.equal(encodeOffsetQuery(3, 100), 'page=3&page_size=100');
    assert.equal(encodeCursorQuery(undefined, 500), 'limit=500');
    assert.equal(encodeCursorQuery('', 500), 'limit=500');
    assert.equal(encodeCursorQuery('a+b/c=', 2), 'cursor=a%2Bb%2Fc%3D&limit=2');
  });
});

void describe('encodeSbomExportRequest', () => {
  void it('writes ids as text and the full component type', () => {
    const body = encodeSbomExportRequest('42', {
      repositoryId: 77,
      ref: 'main',
      outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
      cycloneDxVersion: '1.6',
      componentType: 'LIBRARY',
      supplier: { name: 'Acme', url: 'https://acme', contact: { email: 'sec@acme' } },
    });
    assert.deepEqual(body, {
      deploymentId: '42',
      formatVersion: { format: 'SBOM_FORMAT_CYCLONEDX', version: '1.6' },
      metadataComponentType: 'SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_LIBRARY',
      ref: 'main',
      repositoryId: '77',
      sbomOutputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
      metadataSupplier: { name: 'Acme', url: 'https://acme', contact: { email: 'sec@acme' } },
    });
  });

  void it('leaves the supplier out when none is set', () => {
    const body = encodeSbomExportRequest('42', {
      repositoryId: 1,
      ref: 'r',
      outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
      cycloneDxVersion: '1.5',
      componentType: 'APPLICATION',
    });
    assert.equal('metadataSupplier' in body, false);
  });
});
