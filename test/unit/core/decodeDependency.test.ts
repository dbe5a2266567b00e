// The inventory's decoders: both spellings of every field, lines and ids as strings or numbers,
// both cursor types, the transitivity values, unreadable entries skipped and counted, and an
// answer that is not an object refused with a message that says which list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEPENDENCY_ECOSYSTEMS, ecosystemName } from '../../../src/core/model/dependency';
import { decodeDependenciesPage, decodeDependency, decodeLockfilesPage, decodeRepositoriesPage } from '../../../src/core/model/decodeDependency';
import { PlatformError } from '../../../src/core/model/errors';
import { StringInterner } from '../../../src/core/model/interner';

const camel = {
  repositoryId: '370001',
  ecosystem: 'NPM',
  package: { name: 'lodash', versionSpecifier: '4.17.20' },
  transitivity: 'TRANSITIVE',
  licenses: ['MIT'],
  resolvedUrl: 'https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz',
  definedAt: {
    path: 'package-lock.json',
    startLine: '12',
    endLine: '15',
    startCol: '5',
    endCol: '6',
    url: 'https://github.com/a/b/blob/c/package-lock.json#L12',
    committedAt: '2024-05-01T00:00:00Z',
  },
  manifestDefinition: { path: 'package.json', url: '', committedAt: '2024-05-01T00:00:00Z' },
};
const snake = {
  repository_id: 370001,
  ecosystem: 'npm',
  package: { name: 'lodash', version_specifier: '4.17.20' },
  transitivity: 'transitive',
  licenses: ['MIT'],
  resolved_url: 'https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz',
  defined_at: { path: 'package-lock.json', start_line: 12, end_line: 15, url: 'https://github.com/a/b/blob/c/package-lock.json#L12' },
  manifest_definition: { path: 'package.json' },
};
const expected = {
  repositoryId: '370001',
  ecosystem: 'npm',
  name: 'lodash',
  version: '4.17.20',
  transitivity: 'transitive',
  licenses: ['MIT'],
  resolvedUrl: 'https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz',
  definedAt: { path: 'package-lock.json', line: 12, endLine: 15, url: 'https://github.com/a/b/blob/c/package-lock.json#L12' },
  manifest: { path: 'package.json' },
};

void describe('decodeDependency', () => {
  void it("reads the service's camelCase, lines as strings, and snake_case with numbers, alike", () => {
    assert.deepEqual(decodeDependency(camel), expected);
    assert.deepEqual(decodeDependency(snake), expected);
  });

  void it('keeps no key for an absent field (one compact object per dependency)', () => {
    const d = decodeDependency({ repositoryId: 7, package: { name: 'left-pad' } });
    assert.deepEqual(Object.keys(d ?? {}).sort(), ['ecosystem', 'licenses', 'name', 'repositoryId', 'transitivity', 'version']);
    assert.deepEqual(d, { repositoryId: '7', ecosystem: 'no_package_manager', name: 'left-pad', version: '', transitivity: 'unknown', licenses: [] });
    const place = decodeDependency({ ...camel, definedAt: { path: 'go.mod', startLine: '', url: '' } })?.definedAt;
    assert.deepEqual(place, { path: 'go.mod' });
    assert.ok(!('line' in (place ?? {})) && !('url' in (place ?? {})));
  });

  void it('maps every transitivity spelling, and keeps another value lower-cased', () => {
    const of = (t: unknown): string | undefined => decodeDependency({ ...camel, transitivity: t })?.transitivity;
    assert.deepEqual(['DIRECT', 'TRANSITIVE', 'UNKNOWN_TRANSITIVITY', 'direct', 'transitive', 'unknown', undefined, 'DEV_ONLY'].map(of), [
      'direct',
      'transitive',
      'unknown',
      'direct',
      'transitive',
      'unknown',
      'unknown',
      'dev_only',
    ]);
  });

  void it('takes the older top-level name and version, a single `license`, and refuses what names no package or repository', () => {
    assert.deepEqual(decodeDependency({ repository_id: '9', name: 'six', version: '1.16.0', license: 'MIT' }), {
      repositoryId: '9',
      ecosystem: 'no_package_manager',
      name: 'six',
      version: '1.16.0',
      transitivity: 'unknown',
      licenses: ['MIT'],
    });
    assert.equal(decodeDependency({ ...camel, repositoryId: undefined }), undefined);
    assert.equal(decodeDependency({ ...camel, repositoryId: 2 ** 60 }), undefined, 'an id JSON already rounded names another repository');
    assert.equal(decodeDependency({ ...camel, package: { versionSpecifier: '1' } }), undefined);
    assert.equal(decodeDependency('lodash'), undefined);
  });

  void it('reads lines only as positive integers, and no end before the start', () => {
    const at = (definedAt: unknown): unknown => decodeDependency({ ...camel, definedAt })?.definedAt;
    assert.deepEqual(at({ path: 'p', startLine: '0', endLine: 'x' }), { path: 'p' });
    assert.deepEqual(at({ path: 'p', startLine: 4, endLine: '2' }), { path: 'p', line: 4 });
    assert.deepEqual(at({ path: 'p', startLine: '-3' }), { path: 'p' });
    assert.equal(at({ startLine: '3' }), undefined, 'a place without a path is no place');
  });

  void it('shares repeated strings and each distinct list of licenses through the interner', () => {
    const interner = new StringInterner();
    const page = decodeDependenciesPage(
      { dependencies: [camel, { ...camel, package: { name: 'lodash', versionSpecifier: '4.17.21' } }, { ...camel, licenses: ['MIT', 'Apache-2.0'] }] },
      interner,
    );
    const [a, b, c] = page.items;
    assert.ok(a && b && c);
    assert.equal(a.licenses, b.licenses, 'one frozen list for the same licenses');
    assert.ok(Object.isFrozen(a.licenses));
    assert.notEqual(a.licenses, c.licenses);
    assert.equal(a.manifest, b.manifest, 'one place for the manifest its dependencies share');
    assert.ok(Object.isFrozen(a.manifest));
    assert.notEqual(a.definedAt, b.definedAt);
    assert.ok(interner.size > 0);
  });
});

void describe("the inventory's pages", () => {
  void it('repositories in both spellings, with a numeric cursor kept as text and marked as a number', () => {
    const service = decodeRepositoriesPage({
      repositorySummaries: [
        { id: 370001, name: 'acme/api', numDependencies: 42, hasDependencyPathScan: true },
        { id: '370002', name: 'acme/web' },
      ],
      cursor: 370002,
      hasMore: true,
    });
    assert.deepEqual(service.items, [
      { id: '370001', name: 'acme/api', dependencies: 42, hasDependencyPaths: true },
      { id: '370002', name: 'acme/web', dependencies: 0, hasDependencyPaths: false },
    ]);
    assert.deepEqual(service.cursor, { text: '370002', numeric: true });
    assert.equal(service.hasMore, true);
    const spec = decodeRepositoriesPage({
      repository_summaries: [{ id: '370001', name: 'acme/api', num_dependencies: '42', has_dependency_path_scan: true }],
      cursor: 0,
      has_more: false,
    });
    assert.deepEqual(spec.items[0], service.items[0]);
    assert.deepEqual(spec.cursor, { text: '0', numeric: true }, '"0" is a cursor like any other: hasMore decides');
    assert.equal(spec.hasMore, false);
  });

  void it('lockfiles in both spellings, with a string cursor; an empty or absent cursor is none', () => {
    const page = decodeLockfilesPage({
      lockfileSummaries: [
        { lockfilePath: 'package-lock.json', numDependencies: 3 },
        { lockfile_path: 'tools/go.mod', num_dependencies: 1 },
        { numDependencies: 2 },
      ],
      cursor: 'YWZ0ZXI6eA',
    });
    assert.deepEqual(page.items, [
      { path: 'package-lock.json', dependencies: 3 },
      { path: 'tools/go.mod', dependencies: 1 },
    ]);
    assert.equal(page.skipped, 1);
    assert.equal(page.rawCount, 3);
    assert.deepEqual(page.cursor, { text: 'YWZ0ZXI6eA', numeric: false });
    assert.equal(page.hasMore, undefined, 'left out: the pager decides from the cursor');
    assert.equal(decodeLockfilesPage({ lockfileSummaries: [], cursor: '' }).cursor, undefined);
    assert.equal(decodeLockfilesPage({}).cursor, undefined);
  });

  void it('skips and counts every unreadable dependency, never failing the page for one', () => {
    const page = decodeDependenciesPage({ dependencies: [camel, null, 42, 'x', [], {}, { repositoryId: '1' }, snake], cursor: '8000000000005', hasMore: true });
    assert.equal(page.items.length, 2);
    assert.equal(page.skipped, 6);
    assert.equal(page.rawCount, 8);
    assert.deepEqual(page.cursor, { text: '8000000000005', numeric: false });
  });

  void it('reads a missing list as an empty page, as protobuf-style JSON leaves it out', () => {
    assert.deepEqual(decodeDependenciesPage({}), { items: [], skipped: 0, rawCount: 0, cursor: undefined, hasMore: undefined });
  });

  void it('refuses an answer that is not an object, or whose list is not a list, naming the list', () => {
    for (const body of [null, [], 'text', 3]) {
      assert.throws(
        () => decodeDependenciesPage(body),
        (e: unknown) => PlatformError.is(e, 'invalidResponse') && /dependencies/.test(e.message),
      );
    }
    assert.throws(
      () => decodeRepositoriesPage([]),
      (e: unknown) => PlatformError.is(e, 'invalidResponse') && /repositories with dependencies is a list/.test(e.message),
    );
    assert.throws(
      () => decodeLockfilesPage({ lockfileSummaries: {} }),
      (e: unknown) => PlatformError.is(e, 'invalidResponse') && /"lockfileSummaries" that is not a list/.test(e.message),
    );
  });
});

void it('ecosystems read as their developers name them; an unknown one as the platform sends it', () => {
  assert.equal(ecosystemName('pypi'), 'PyPI');
  assert.equal(ecosystemName('gomod'), 'Go modules');
  assert.equal(ecosystemName('no_package_manager'), 'No package manager');
  assert.equal(ecosystemName('conda'), 'conda');
  for (const e of DEPENDENCY_ECOSYSTEMS) assert.ok(!ecosystemName(e).includes('_'), `${e} is worded`);
});
