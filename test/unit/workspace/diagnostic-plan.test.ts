// Where findings become diagnostics: 1-based scanner positions to 0-based ranges, paths confined
// to the workspace folder, supply-chain findings placed at their usage or lockfile line, levels.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_MAPPING,
  confinePath,
  firstReportedPath,
  lockfilePathOf,
  reportedLocationsOf,
  planDiagnostics,
  toPlannedRange,
  type PlannedRange,
} from '../../../src/core/workspace/diagnostic-plan';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

const WHOLE = Number.MAX_SAFE_INTEGER;
const wholeLine = (line0: number): PlannedRange => ({ startLine: line0, startCharacter: 0, endLine: line0, endCharacter: WHOLE, wholeLine: true });

void describe('toPlannedRange', () => {
  void test('1-based line and column become 0-based, end exclusive as given', () => {
    assert.deepEqual(toPlannedRange({ line: 10, column: 5, endLine: 10, endColumn: 12 }), {
      startLine: 9,
      startCharacter: 4,
      endLine: 9,
      endCharacter: 11,
      wholeLine: false,
    });
    assert.deepEqual(toPlannedRange({ line: 1, column: 1, endLine: 3, endColumn: 1 }), {
      startLine: 0,
      startCharacter: 0,
      endLine: 2,
      endCharacter: 0,
      wholeLine: false,
    });
  });

  void test('the first line of a file is line 0, never -1', () => {
    assert.equal(toPlannedRange({ line: 1 })?.startLine, 0);
  });

  void test('a missing end (or a missing end column) covers the whole start line', () => {
    assert.deepEqual(toPlannedRange({ line: 7, column: 3 }), wholeLine(6));
    assert.deepEqual(toPlannedRange({ line: 7, column: 3, endLine: 9 }), wholeLine(6));
    assert.deepEqual(toPlannedRange({ line: 7, column: 3, endColumn: 9 }), wholeLine(6));
  });

  void test('an end before the start, or an empty range, covers the whole start line', () => {
    assert.deepEqual(toPlannedRange({ line: 7, column: 3, endLine: 5, endColumn: 9 }), wholeLine(6));
    assert.deepEqual(toPlannedRange({ line: 7, column: 9, endLine: 7, endColumn: 3 }), wholeLine(6));
    assert.deepEqual(toPlannedRange({ line: 7, column: 4, endLine: 7, endColumn: 4 }), wholeLine(6));
  });

  void test('bad end values (0, negative, fractional, NaN) cover the whole start line', () => {
    for (const [endLine, endColumn] of [
      [0, 5],
      [8, 0],
      [-1, 5],
      [8.5, 5],
      [Number.NaN, 5],
      [8, Number.NaN],
    ]) {
      assert.deepEqual(toPlannedRange({ line: 7, column: 1, endLine, endColumn }), wholeLine(6), `${endLine}:${endColumn}`);
    }
  });

  void test('a missing or bad start column starts at the beginning of the line', () => {
    assert.equal(toPlannedRange({ line: 2, endLine: 2, endColumn: 5 })?.startCharacter, 0);
    assert.equal(toPlannedRange({ line: 2, column: 0, endLine: 2, endColumn: 5 })?.startCharacter, 0);
    assert.equal(toPlannedRange({ line: 2, column: -3, endLine: 2, endColumn: 5 })?.startCharacter, 0);
  });

  void test('line 0, a negative, fractional, NaN or infinite line gives no range', () => {
    for (const line of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.equal(toPlannedRange({ line }), undefined, String(line));
    }
  });
});

void describe('confinePath', () => {
  void test('a plain relative path is kept, with `/` separators', () => {
    assert.equal(confinePath('src/a.ts'), 'src/a.ts');
    assert.equal(confinePath('./src/a.ts'), 'src/a.ts');
    assert.equal(confinePath('src/./nested//a.ts'), 'src/nested/a.ts');
    assert.equal(confinePath('src\\win\\a.ts'), 'src/win/a.ts');
    assert.equal(confinePath('a.ts/'), 'a.ts');
  });

  void test('percent-encoded names are decoded', () => {
    assert.equal(confinePath('docs/my%20notes.md'), 'docs/my notes.md');
  });

  void test('dots inside names are not `..` segments', () => {
    assert.equal(confinePath('..foo/bar..'), '..foo/bar..');
    assert.equal(confinePath('.github/workflows/ci.yml'), '.github/workflows/ci.yml');
  });

  const refused: [string, string][] = [
    ['empty', ''],
    ['only dots and slashes', './/.'],
    ['absolute', '/etc/passwd'],
    ['parent', '../secrets.txt'],
    ['parent in the middle', 'src/../../etc/passwd'],
    ['parent even when it stays inside', 'src/../a.ts'],
    ['encoded parent', '%2e%2e/secrets.txt'],
    ['encoded parent, upper case', '%2E%2E%2Fsecrets.txt'],
    ['double-encoded parent', '%252e%252e/secrets.txt'],
    ['triple-encoded parent', '%25252e%25252e%25252fsecrets.txt'],
    ['backslash parent', '..\\secrets.txt'],
    ['encoded absolute', '%2fetc%2fpasswd'],
    ['drive letter with backslash', 'C:\\Windows\\win.ini'],
    ['drive letter with slash', 'c:/Windows/win.ini'],
    ['drive-relative', 'D:secrets.txt'],
    ['UNC path', '\\\\server\\share\\file.txt'],
    ['file URL', 'file:///etc/passwd'],
    ['other URL', 'https://example.com/a.ts'],
    ['NUL byte', 'src/a.ts\0.png'],
    ['encoded NUL byte', 'src/a.ts%00.png'],
    ['malformed escape', 'src/%E0%A4%A.ts'],
  ];
  for (const [what, path] of refused) {
    void test(`refuses ${what}: ${JSON.stringify(path)}`, () => assert.equal(confinePath(path), undefined));
  }
});

void describe('lockfilePathOf', () => {
  void test('the lockfile path of GitHub, GitLab and Bitbucket line links', () => {
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/0123abc/package-lock.json#L12'), 'package-lock.json');
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/0123abc/services/web/yarn.lock#L3'), 'services/web/yarn.lock');
    assert.equal(lockfilePathOf('https://gitlab.com/group/sub/repo/-/blob/0123abc/Gemfile.lock#L40'), 'Gemfile.lock');
    assert.equal(lockfilePathOf('https://bitbucket.org/acme/api/src/0123abc/poetry.lock?at=main#lines-9'), 'poetry.lock');
  });

  void test('no link, or a link of another shape, gives no path', () => {
    assert.equal(lockfilePathOf(undefined), undefined);
    assert.equal(lockfilePathOf(''), undefined);
    assert.equal(lockfilePathOf('https://example.com/package-lock.json#L3'), undefined);
  });

  void test('a link that tries to leave the folder gives no path', () => {
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/abc/../../etc/passwd#L1'), undefined);
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/abc/%2e%2e/x.lock#L1'), undefined);
    // Asked again (each path is checked once and remembered): still refused, never the raw path.
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/abc/../../etc/passwd#L2'), undefined);
    for (let i = 0; i < 300; i++) lockfilePathOf(`https://github.com/acme/api/blob/abc/dir${i}/x.lock#L1`);
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/abc/%2e%2e/x.lock#L9'), undefined);
    assert.equal(lockfilePathOf('https://github.com/acme/api/blob/abc/dir299/x.lock#L9'), 'dir299/x.lock');
  });

  // A repository named `src` or `blob` (chromium/src) must not confuse the path with the ref.
  void test('a repository named "src" or "blob" still gives the lockfile path', () => {
    assert.equal(lockfilePathOf('https://github.com/chromium/src/blob/0123abc/package-lock.json#L5'), 'package-lock.json');
    assert.equal(lockfilePathOf('https://github.com/acme/blob/blob/0123abc/yarn.lock#L5'), 'yarn.lock');
  });
});

void describe('planDiagnostics', () => {
  void test('a code finding goes to its location, 0-based, at the level of its severity', () => {
    const finding = sastFinding({ severity: 'medium', location: { filePath: 'src/app.py', line: 12, column: 5, endLine: 12, endColumn: 20 } });
    const { diagnostics, refused } = planDiagnostics([finding], DEFAULT_MAPPING);
    assert.deepEqual(refused, []);
    assert.equal(diagnostics.length, 1);
    const [d] = diagnostics;
    assert.ok(d);
    assert.equal(d.relativePath, 'src/app.py');
    assert.deepEqual(d.range, { startLine: 11, startCharacter: 4, endLine: 11, endCharacter: 19, wholeLine: false });
    assert.equal(d.level, 'warning');
    assert.equal(d.finding, finding);
    assert.equal(d.related, undefined);
  });

  void test('fixed, ignored and provisionally ignored findings are never problems, whatever the filter asked for', () => {
    const statuses = ['open', 'reviewing', 'fixing', 'fixed', 'ignored', 'provisionally_ignored', 'something_new'];
    const findings = statuses.map((status, i) => sastFinding({ id: i + 1, severity: 'critical', status, file: 'a.py', line: i + 1 }));
    const shown = planDiagnostics(findings, DEFAULT_MAPPING).diagnostics.map((d) => d.finding.status);
    assert.deepEqual(shown, ['open', 'reviewing', 'fixing', 'something_new']);
  });

  void test('a supply-chain finding has one primary place, the same for Problems and for opening it from the tree', () => {
    const withUsage = scaFinding(
      {
        package: 'lodash',
        version: '4.17.20',
        usage: { filePath: 'src/use.js', line: 4 },
        lockfileLineUrl: 'https://github.com/a/b/blob/abc/package-lock.json#L9',
        lockfileLine: 9,
      },
      { location: { filePath: 'package-lock.json', line: 9 } },
    );
    assert.equal(reportedLocationsOf(withUsage)[0]?.path, 'src/use.js');
    const [planned] = planDiagnostics([withUsage], DEFAULT_MAPPING).diagnostics;
    assert.equal(planned?.relativePath, 'src/use.js');
    assert.equal(planned?.related?.relativePath, 'package-lock.json');
    const lockOnly = scaFinding(
      { lockfileLineUrl: 'https://github.com/a/b/blob/abc/package-lock.json#L9', lockfileLine: 9 },
      { location: { filePath: 'package-lock.json', line: 9 } },
    );
    assert.deepEqual([reportedLocationsOf(lockOnly)[0]?.path, reportedLocationsOf(lockOnly)[0]?.line], ['package-lock.json', 9]);
  });

  void test("the first place's path, found without building the places, is always that of reportedLocationsOf", () => {
    const lock = { lockfileLineUrl: 'https://github.com/a/b/blob/abc/package-lock.json#L9', lockfileLine: 9 };
    const cases = [
      sastFinding({ file: 'src/app.py', line: 3 }),
      sastFinding({ file: 'src/app.py', line: 3, location: undefined }),
      scaFinding({ ...lock, usage: { filePath: 'src/use.js', line: 4 } }, { location: { filePath: 'package-lock.json', line: 9 } }),
      scaFinding(lock, { location: { filePath: 'package-lock.json', line: 9 } }),
      // A link the lockfile cannot be read from, or one without its line: the finding's own location.
      scaFinding({ lockfileLineUrl: 'https://example.invalid/x', lockfileLine: 9 }, { location: { filePath: 'yarn.lock', line: 2 } }),
      scaFinding({ lockfileLineUrl: lock.lockfileLineUrl }, { location: { filePath: 'yarn.lock', line: 2 } }),
      scaFinding({ lockfileLineUrl: 'https://github.com/a/b/blob/abc/../../etc/passwd#L1', lockfileLine: 1 }, { location: undefined }),
    ];
    const paths = cases.map(firstReportedPath);
    assert.deepEqual(
      paths,
      cases.map((f) => reportedLocationsOf(f)[0]?.path),
    );
    assert.deepEqual(paths, ['src/app.py', undefined, 'src/use.js', 'package-lock.json', 'yarn.lock', 'yarn.lock', undefined]);
  });

  void test('unreachable supply-chain findings are information when the setting says so, whatever their severity', () => {
    const lock = { lockfileLineUrl: 'https://github.com/a/b/blob/abc/package-lock.json#L9', lockfileLine: 9 };
    const unreachable = scaFinding({ ...lock, reachability: 'unreachable' }, { severity: 'critical' });
    const reachable = scaFinding({ ...lock, reachability: 'reachable' }, { severity: 'critical' });
    const levels = (options?: { unreachableLevel?: 'information' }): (string | undefined)[] =>
      planDiagnostics([unreachable, reachable], DEFAULT_MAPPING, options).diagnostics.map((d) => d.level);
    assert.deepEqual(levels({ unreachableLevel: 'information' }), ['information', 'error']);
    assert.deepEqual(levels(), ['error', 'error'], 'off: the severity mapping decides');
  });

  void test('default levels: critical and high are errors, medium warnings, low information', () => {
    const levels = ['critical', 'high', 'medium', 'low'].map(
      (severity) => planDiagnostics([sastFinding({ severity, file: 'a.py', line: 1 })], DEFAULT_MAPPING).diagnostics[0]?.level,
    );
    assert.deepEqual(levels, ['error', 'error', 'warning', 'information']);
  });

  void test('the user mapping wins; severities it leaves out use the defaults; unknown severities are warnings', () => {
    const mapping = { high: 'hint', low: 'error' } as const;
    const levels = ['critical', 'high', 'medium', 'low', 'info'].map(
      (severity) => planDiagnostics([sastFinding({ severity, file: 'a.py', line: 1 })], mapping).diagnostics[0]?.level,
    );
    assert.deepEqual(levels, ['error', 'hint', 'warning', 'error', 'warning']);
  });

  void test('a finding whose line is 0, negative or NaN gets no diagnostic (and is not a refused path)', () => {
    const findings = [0, -4, Number.NaN].map((line) => sastFinding({ file: 'a.py', line }));
    assert.deepEqual(planDiagnostics(findings, DEFAULT_MAPPING), { diagnostics: [], refused: [] });
  });

  void test('a finding without a location gets no diagnostic', () => {
    assert.deepEqual(planDiagnostics([sastFinding()], DEFAULT_MAPPING), { diagnostics: [], refused: [] });
  });

  void test('paths that leave the folder are refused and reported; the other findings still get diagnostics', () => {
    const findings = [
      sastFinding({ file: '../outside.py', line: 3 }),
      sastFinding({ file: '/etc/passwd', line: 1 }),
      sastFinding({ file: './src/ok.py', line: 2 }),
    ];
    const { diagnostics, refused } = planDiagnostics(findings, DEFAULT_MAPPING);
    assert.deepEqual(
      diagnostics.map((d) => d.relativePath),
      ['src/ok.py'],
    );
    assert.deepEqual(refused, ['../outside.py', '/etc/passwd']);
  });

  const lockUrl = 'https://github.com/acme/api/blob/0123abc/package-lock.json#L88';

  void test('a supply-chain finding with a usage goes to the usage, with the lockfile line as related information', () => {
    const finding = scaFinding(
      {
        package: 'lodash',
        version: '4.17.20',
        lockfileLineUrl: lockUrl,
        lockfileLine: 88,
        usage: { filePath: 'src/util.js', line: 5, column: 10, endLine: 5, endColumn: 18 },
      },
      { location: { filePath: 'package-lock.json', line: 88 } },
    );
    const [d, ...rest] = planDiagnostics([finding], DEFAULT_MAPPING).diagnostics;
    assert.equal(rest.length, 0);
    assert.ok(d);
    assert.equal(d.relativePath, 'src/util.js');
    assert.deepEqual(d.range, { startLine: 4, startCharacter: 9, endLine: 4, endCharacter: 17, wholeLine: false });
    assert.equal(d.level, 'error');
    assert.deepEqual(d.related, { relativePath: 'package-lock.json', range: wholeLine(87), message: 'lodash 4.17.20 is locked here' });
  });

  void test('a supply-chain finding without a usage goes to the whole lockfile line of its `#L<n>` link', () => {
    const finding = scaFinding({ package: 'lodash', version: '4.17.20', lockfileLineUrl: lockUrl, lockfileLine: 88 });
    const [d] = planDiagnostics([finding], DEFAULT_MAPPING).diagnostics;
    assert.ok(d);
    assert.equal(d.relativePath, 'package-lock.json');
    assert.deepEqual(d.range, wholeLine(87));
    assert.equal(d.related, undefined);
  });

  void test('the lockfile place is preferred to the finding location when there is no usage', () => {
    const finding = scaFinding({ package: 'lodash', lockfileLineUrl: lockUrl, lockfileLine: 88 }, { location: { filePath: 'somewhere/else.json', line: 2 } });
    const [d] = planDiagnostics([finding], DEFAULT_MAPPING).diagnostics;
    assert.equal(d?.relativePath, 'package-lock.json');
  });

  void test('a supply-chain finding with neither usage nor lockfile link falls back to its location', () => {
    const finding = scaFinding({ package: 'lodash' }, { location: { filePath: 'requirements.txt', line: 4 } });
    const [d] = planDiagnostics([finding], DEFAULT_MAPPING).diagnostics;
    assert.equal(d?.relativePath, 'requirements.txt');
    assert.deepEqual(d?.range, wholeLine(3));
  });

  void test('without a package name or version the related message still reads well', () => {
    const related = (sca: Parameters<typeof scaFinding>[0]): string | undefined =>
      planDiagnostics([scaFinding({ lockfileLineUrl: lockUrl, lockfileLine: 88, usage: { filePath: 'a.js', line: 1 }, ...sca })], DEFAULT_MAPPING)
        .diagnostics[0]?.related?.message;
    assert.equal(related({}), 'Dependency is locked here');
    assert.equal(related({ package: 'lodash' }), 'lodash is locked here');
    assert.equal(related({ version: '1.2.3' }), 'Dependency 1.2.3 is locked here');
  });

  void test('a supply-chain finding with nothing to place gets no diagnostic', () => {
    assert.deepEqual(planDiagnostics([scaFinding({ package: 'x' })], DEFAULT_MAPPING), { diagnostics: [], refused: [] });
  });

  void test('a lockfile link without a line, or with a path outside the folder, is not used', () => {
    const noLine = scaFinding({ lockfileLineUrl: lockUrl, usage: { filePath: 'a.js', line: 1 } });
    assert.equal(planDiagnostics([noLine], DEFAULT_MAPPING).diagnostics[0]?.related, undefined);
    const outside = scaFinding({ lockfileLineUrl: 'https://github.com/a/b/blob/abc/../../x.lock#L2', lockfileLine: 2, usage: { filePath: 'a.js', line: 1 } });
    const [d] = planDiagnostics([outside], DEFAULT_MAPPING).diagnostics;
    assert.ok(d);
    assert.equal(d.relativePath, 'a.js');
    assert.equal(d.related, undefined);
  });
});
