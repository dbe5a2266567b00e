// The supply-chain inventory's dependencies placed on the lines of today's lockfiles and manifests:
// found by name in the current text, the platform's line only telling several mentions apart.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dependency } from '../../../src/core/model/dependency';
import { locateDependencies } from '../../../src/core/workspace/manifest-lines';
import { pep503Name } from '../../../src/core/workspace/name-mentions';

interface Item {
  readonly dependency: Dependency;
  readonly tag: string;
}

/** A dependency of `file` at 1-based `line`; `manifest` for direct ones declared in a manifest. */
function lock(name: string, version: string, file: string, line: number | undefined, more: Partial<Dependency> = {}): Item {
  const dependency: Dependency = {
    repositoryId: '7',
    ecosystem: 'npm',
    name,
    version,
    transitivity: 'transitive',
    licenses: ['MIT'],
    definedAt: { path: file, ...(line === undefined ? {} : { line }) },
    ...more,
  };
  return { dependency, tag: `${name}@${version}` };
}

function declared(name: string, manifest: string, more: Partial<Dependency> = {}): Item {
  return lock(name, '1.0.0', 'package-lock.json', 1, { transitivity: 'direct', manifest: { path: manifest }, ...more });
}

/** `tag line:start-end`, the name's text checked against the range. */
function where(text: string, located: readonly { line: number; start: number; end: number; item: Item }[]): string[] {
  const lines = text.split('\n');
  return located.map(({ line, start, end, item }) => `${item.tag} ${line}:${start}-${end} ${lines[line]?.slice(start, end)}`);
}

/** The 1-based line of the first line containing `needle` (after `after` lines). */
function lineOf(text: string, needle: string, after = 0): number {
  const index = text.split('\n').findIndex((line, i) => i >= after && line.includes(needle));
  assert.ok(index >= 0, `no line with ${needle}`);
  return index + 1;
}

const PACKAGE_LOCK = `{
  "name": "shop",
  "version": "1.0.0",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "name": "shop",
      "version": "1.0.0",
      "dependencies": {
        "lodash": "^4.17.20",
        "react": "^18.2.0",
        "react-dom": "^18.2.0"
      }
    },
    "node_modules/@babel/core": {
      "version": "7.24.0",
      "resolved": "https://registry.npmjs.org/@babel/core/-/core-7.24.0.tgz"
    },
    "node_modules/lodash": {
      "version": "4.17.21",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="
    },
    "node_modules/react": {
      "version": "18.2.0",
      "resolved": "https://registry.npmjs.org/react/-/react-18.2.0.tgz",
      "dependencies": {
        "loose-envify": "^1.1.0"
      }
    },
    "node_modules/react-dom": {
      "version": "18.2.0",
      "resolved": "https://registry.npmjs.org/react-dom/-/react-dom-18.2.0.tgz",
      "dependencies": {
        "loose-envify": "^1.1.0",
        "scheduler": "^0.23.0"
      },
      "peerDependencies": {
        "react": "^18.2.0"
      }
    },
    "node_modules/some-lib/node_modules/lodash": {
      "version": "3.10.1",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-3.10.1.tgz"
    }
  }
}
`;

/** The platform's lines, as of the scan of PACKAGE_LOCK. */
const LOCK_ITEMS: readonly Item[] = [
  lock('lodash', '4.17.21', 'package-lock.json', lineOf(PACKAGE_LOCK, '"node_modules/lodash"')),
  lock('lodash', '3.10.1', 'package-lock.json', lineOf(PACKAGE_LOCK, '"node_modules/some-lib/node_modules/lodash"')),
  lock('react', '18.2.0', 'package-lock.json', lineOf(PACKAGE_LOCK, '"node_modules/react"')),
  lock('react-dom', '18.2.0', 'package-lock.json', lineOf(PACKAGE_LOCK, '"node_modules/react-dom"')),
  lock('@babel/core', '7.24.0', 'package-lock.json', lineOf(PACKAGE_LOCK, '"node_modules/@babel/core"')),
];

const AT_SCAN = [
  '@babel/core@7.24.0 15:18-29 @babel/core',
  'lodash@4.17.21 19:18-24 lodash',
  'react@18.2.0 24:18-23 react',
  'react-dom@18.2.0 31:18-27 react-dom',
  'lodash@3.10.1 42:40-46 lodash',
];

void describe('lockfiles', () => {
  void test('package-lock.json v3: each package on its platform line, the range on its name, in line order', () => {
    assert.deepEqual(where(PACKAGE_LOCK, locateDependencies('package-lock.json', PACKAGE_LOCK, LOCK_ITEMS)), AT_SCAN);
  });

  void test('lines inserted above: each package follows its entry, not the line the platform saw', () => {
    const edited = PACKAGE_LOCK.replace(
      '        "lodash": "^4.17.20",\n',
      '        "axios": "^1.6.0",\n        "chalk": "^5.3.0",\n        "lodash": "^4.17.20",\n        "zod": "^3.22.0",\n',
    );
    const moved = AT_SCAN.map((line) => line.replace(/ (\d+):/, (_m, n: string) => ` ${Number(n) + 3}:`));
    assert.deepEqual(where(edited, locateDependencies('package-lock.json', edited, LOCK_ITEMS)), moved);
    // A line removed above: the platform's line is now each entry's version line.
    const shorter = PACKAGE_LOCK.replace('      "version": "1.0.0",\n', '');
    const back = AT_SCAN.map((line) => line.replace(/ (\d+):/, (_m, n: string) => ` ${Number(n) - 1}:`));
    assert.deepEqual(where(shorter, locateDependencies('package-lock.json', shorter, LOCK_ITEMS)), back);
  });

  void test('two versions of one package: the version tells the entries apart when the platform gave no line', () => {
    const items = [lock('lodash', '3.10.1', 'package-lock.json', undefined), lock('lodash', '4.17.21', 'package-lock.json', undefined)];
    assert.deepEqual(where(PACKAGE_LOCK, locateDependencies('package-lock.json', PACKAGE_LOCK, items)), [
      'lodash@4.17.21 19:18-24 lodash',
      'lodash@3.10.1 42:40-46 lodash',
    ]);
  });

  void test('react is not react-dom, and core is not @babel/core', () => {
    // The platform's line is react-dom's: that line does not name react as a whole word.
    const items = [
      lock('react', '18.2.0', 'package-lock.json', lineOf(PACKAGE_LOCK, '"node_modules/react-dom"')),
      lock('core', '7.24.0', 'package-lock.json', 16),
    ];
    assert.deepEqual(where(PACKAGE_LOCK, locateDependencies('package-lock.json', PACKAGE_LOCK, items)), ['react@18.2.0 24:18-23 react']);
  });

  void test('the same name and version never twice on one line: a duplicate is dropped, a second copy takes the next line', () => {
    const lodash = LOCK_ITEMS[0];
    const copy = lock('lodash', '4.17.21', 'package-lock.json', (lodash.dependency.definedAt?.line ?? 0) + 100);
    const located = locateDependencies('package-lock.json', PACKAGE_LOCK, [lodash, { ...lodash, tag: 'duplicate' }, copy]);
    assert.deepEqual(where(PACKAGE_LOCK, located), ['lodash@4.17.21 19:18-24 lodash', 'lodash@4.17.21 21:46-52 lodash']);
    assert.equal(located[0]?.item, lodash);
  });

  void test("a package today's text no longer names is left out; other files' and transitive manifest items are not ours", () => {
    const items = [
      lock('left-pad', '1.3.0', 'package-lock.json', 20),
      lock('lodash', '4.17.21', 'web/package-lock.json', 20),
      lock('react', '18.2.0', 'yarn.lock', 24, { manifest: { path: 'package-lock.json' } }),
    ];
    assert.deepEqual(locateDependencies('package-lock.json', PACKAGE_LOCK, items), []);
    assert.deepEqual(locateDependencies('package-lock.json', '', LOCK_ITEMS), []);
  });

  void test('yarn.lock v1: keys with several ranges, scoped names, an exact pin among the requirements', () => {
    const yarn = [
      '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.',
      '# yarn lockfile v1',
      '',
      '',
      '"@babel/core@^7.24.0":',
      '  version "7.24.0"',
      '  dependencies:',
      '    debug "^4.1.0"',
      '',
      'debug@^4.1.0, debug@^4.3.1:',
      '  version "4.3.4"',
      '  dependencies:',
      '    ms "2.1.2"',
      '',
      'ms@2.1.2:',
      '  version "2.1.2"',
      '',
      'ms@^2.1.1:',
      '  version "2.1.3"',
      '',
    ].join('\n');
    const items = [
      lock('@babel/core', '7.24.0', 'yarn.lock', 5),
      lock('debug', '4.3.4', 'yarn.lock', 10),
      lock('ms', '2.1.3', 'yarn.lock', undefined),
      lock('ms', '2.1.2', 'yarn.lock', undefined),
    ];
    assert.deepEqual(where(yarn, locateDependencies('yarn.lock', yarn, items)), [
      '@babel/core@7.24.0 4:1-12 @babel/core',
      'debug@4.3.4 9:0-5 debug',
      'ms@2.1.2 14:0-2 ms',
      'ms@2.1.3 17:0-2 ms',
    ]);
  });

  void test('other lockfiles: poetry.lock compares PyPI names the PEP 503 way; Gemfile.lock reads a version from its line', () => {
    const poetry =
      '[[package]]\nname = "Flask-Login"\nversion = "0.6.3"\n\n[package.dependencies]\nflask = ">=1.0.4"\n\n[[package]]\nname = "flask"\nversion = "3.0.2"\n';
    const items = [lock('flask_login', '0.6.3', 'poetry.lock', 2, { ecosystem: 'pypi' }), lock('Flask', '3.0.2', 'poetry.lock', 3, { ecosystem: 'pypi' })];
    assert.deepEqual(where(poetry, locateDependencies('poetry.lock', poetry, items)), ['flask_login@0.6.3 1:8-19 Flask-Login', 'Flask@3.0.2 8:8-13 flask']);
    const gems = 'GEM\n  specs:\n    actionpack (7.1.3)\n      rack (>= 2.2.4)\n    rack (2.2.8)\n';
    assert.deepEqual(where(gems, locateDependencies('Gemfile.lock', gems, [lock('rack', '2.2.8', 'Gemfile.lock', 1, { ecosystem: 'gem' })])), [
      'rack@2.2.8 4:4-8 rack',
    ]);
  });

  void test('Windows line ends and a path written with ./ still match', () => {
    const crlf = PACKAGE_LOCK.replace(/\n/g, '\r\n');
    assert.deepEqual(where(PACKAGE_LOCK, locateDependencies('./package-lock.json', crlf, LOCK_ITEMS)), AT_SCAN);
  });
});

void describe('manifests', () => {
  const PACKAGE_JSON = `{
  "name": "shop",
  "scripts": { "react": "react-scripts start", "lodash": "node x" },
  "dependencies": {
    "react": "^18.2.0",
    "react-dom": "^18.2.0",
    "@babel/core": "7.24.0"
  },
  "devDependencies": {
    "typescript": "~5.4.0",
    "nested": { "lodash": "4.17.21" }
  },
  "peerDependencies": { "core": "^1.0.0" },
  "optionalDependencies": {
    "fsevents": "^2.3.3"
  }
}
`;

  void test('package.json: keys of the four dependency blocks only, whatever the order of the file', () => {
    const items = ['fsevents', 'core', 'typescript', '@babel/core', 'react-dom', 'react', 'lodash', 'name'].map((name) => declared(name, 'package.json'));
    assert.deepEqual(where(PACKAGE_JSON, locateDependencies('package.json', PACKAGE_JSON, items)), [
      'react@1.0.0 4:5-10 react',
      'react-dom@1.0.0 5:5-14 react-dom',
      '@babel/core@1.0.0 6:5-16 @babel/core',
      'typescript@1.0.0 9:5-15 typescript',
      'core@1.0.0 12:25-29 core',
      'fsevents@1.0.0 14:5-13 fsevents',
    ]);
  });

  void test('package.json: a transitive dependency is not declared there; a half-typed file keeps its entries', () => {
    assert.deepEqual(locateDependencies('package.json', PACKAGE_JSON, [declared('react', 'package.json', { transitivity: 'transitive' })]), []);
    const typing = PACKAGE_JSON.replace('"react-dom": "^18.2.0",', '"react-dom": "^18.2.');
    assert.deepEqual(where(typing, locateDependencies('package.json', typing, [declared('@babel/core', 'package.json')])), [
      '@babel/core@1.0.0 6:5-16 @babel/core',
    ]);
  });

  void test('requirements.txt: comments, options, URLs, extras, markers and continuations; names compared the PEP 503 way', () => {
    const requirements = [
      '# Production dependencies',
      '-r base.txt',
      '-e git+https://github.com/org/tool.git#egg=tool',
      '# requests==2.0.0 was too old',
      'Django==4.2.11  # LTS',
      'requests[security,socks]>=2.31.0 ; python_version >= "3.8"',
      'zope.interface ~= 6.2',
      'https://example.com/pkgs/tool-2.0.tar.gz',
      '    # via requests',
      'PyYAML==6.0.1 \\',
      '    --hash=sha256:d858aa552c999bc8a8d57426ed01e40bef403cd8ccdd0fc5f6f04a00414cac2a',
      'urllib3>=2,<3',
    ].join('\n');
    const items = ['django', 'Requests', 'Zope_Interface', 'pyyaml', 'tool', 'https', 'urllib3', 'sha256'].map((name) =>
      declared(name, 'requirements.txt', { ecosystem: 'pypi' }),
    );
    assert.deepEqual(where(requirements, locateDependencies('requirements.txt', requirements, items)), [
      'django@1.0.0 4:0-6 Django',
      'Requests@1.0.0 5:0-8 requests',
      'Zope_Interface@1.0.0 6:0-14 zope.interface',
      'pyyaml@1.0.0 9:0-6 PyYAML',
      'urllib3@1.0.0 11:0-7 urllib3',
    ]);
    // As a lockfile (pinned requirements): a stale line goes to the requirement, not to a comment naming it.
    const pinned = lock('requests', '2.31.0', 'requirements/prod.txt', 9, { ecosystem: 'pypi' });
    assert.deepEqual(where(requirements, locateDependencies('requirements/prod.txt', requirements, [pinned])), ['requests@2.31.0 5:0-8 requests']);
  });

  void test("other manifests: the first line naming it as a whole word, or the one at the platform's line", () => {
    const pyproject = '[project]\nname = "shop"\ndependencies = [\n  "requests-toolbelt>=1.0",\n  "requests>=2.31",\n]\n\n[tool.ruff]\n# requests is fine\n';
    const requests = declared('requests', 'pyproject.toml', { ecosystem: 'pypi' });
    assert.deepEqual(where(pyproject, locateDependencies('pyproject.toml', pyproject, [requests])), ['requests@1.0.0 4:3-11 requests']);
    const hinted = declared('requests', 'pyproject.toml', { ecosystem: 'pypi', manifest: { path: 'pyproject.toml', line: 9 } });
    assert.deepEqual(where(pyproject, locateDependencies('pyproject.toml', pyproject, [hinted])), ['requests@1.0.0 8:2-10 requests']);
    const pom = '<dependency>\n  <groupId>com.fasterxml.jackson.core</groupId>\n  <artifactId>jackson-databind</artifactId>\n</dependency>\n';
    const jackson = declared('com.fasterxml.jackson.core:jackson-databind', 'pom.xml', { ecosystem: 'maven' });
    assert.deepEqual(where(pom, locateDependencies('pom.xml', pom, [jackson])), ['com.fasterxml.jackson.core:jackson-databind@1.0.0 2:14-30 jackson-databind']);
    const gradle = 'com.fasterxml.jackson.core:jackson-databind:2.16.1=compileClasspath\n';
    const locked = lock('com.fasterxml.jackson.core:jackson-databind', '2.16.1', 'gradle.lockfile', 1, { ecosystem: 'maven' });
    assert.deepEqual(where(gradle, locateDependencies('gradle.lockfile', gradle, [locked])), [
      'com.fasterxml.jackson.core:jackson-databind@2.16.1 0:0-43 com.fasterxml.jackson.core:jackson-databind',
    ]);
  });
});

void test('PEP 503 names', () => {
  assert.equal(pep503Name('Zope__Interface.Foo-bar'), 'zope-interface-foo-bar');
});

void test('a 2 000-line lockfile of 1 000 packages: every one on its line', () => {
  const lines = ['{', '  "packages": {'];
  const items: Item[] = [];
  for (let i = 0; i < 1000; i++) {
    items.push(lock(`pkg-${i}`, `1.${i}.0`, 'package-lock.json', lines.length + 1));
    lines.push(`    "node_modules/pkg-${i}": {`, `      "version": "1.${i}.0" },`);
  }
  const text = `${lines.join('\n')}\n  }\n}\n`;
  const located = locateDependencies('package-lock.json', text, items);
  assert.equal(located.length, 1000);
  assert.ok(located.every(({ line, item }) => (item.dependency.definedAt?.line ?? 0) === line + 1));
});
