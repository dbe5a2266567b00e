// The "Upgrade <package>" quick fix: the edit that pins a direct dependency to its fixed version,
// and no edit whenever the manifest does not say it plainly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manifestKindOf, upgradeReplacement, type ManifestKind } from '../../../src/core/workspace/dependency-upgrade';

const apply = (kind: ManifestKind, text: string, pkg: string, version: string): string | undefined => {
  const r = upgradeReplacement(kind, text, pkg, version);
  return r && text.slice(0, r.start) + r.text + text.slice(r.end);
};

void test('package.json: the version is replaced, its range prefix kept, in any dependency block', () => {
  const text =
    '{\n  "name": "app",\n  "dependencies": {\n    "lodash": "^4.17.20",\n    "lodash.merge": "4.6.1"\n  },\n  "devDependencies": { "jest": "~29.0.0" }\n}\n';
  assert.equal(apply('package.json', text, 'lodash', '4.17.21'), text.replace('"^4.17.20"', '"^4.17.21"'));
  assert.equal(apply('package.json', text, 'lodash.merge', '4.6.2'), text.replace('"4.6.1"', '"4.6.2"'), 'a name with a dot is not a pattern');
  assert.equal(apply('package.json', text, 'jest', '29.7.0'), text.replace('~29.0.0', '~29.7.0'));
  assert.equal(upgradeReplacement('package.json', text, 'lodash', '4.17.21')?.line, 3);
});

void test('package.json: no edit for what is not a plain pinned direct dependency', () => {
  assert.equal(apply('package.json', '{"dependencies":{"a":"github:o/a"}}', 'a', '2.0.0'), undefined, 'a git dependency');
  assert.equal(apply('package.json', '{"dependencies":{"a":"*"}}', 'a', '2.0.0'), undefined);
  assert.equal(apply('package.json', '{"dependencies":{"b":"1.0.0"}}', 'a', '2.0.0'), undefined, 'transitive: not in the manifest');
  assert.equal(apply('package.json', '{ broken', 'a', '2.0.0'), undefined);
  assert.equal(apply('package.json', '{"dependencies":{"a":"1.0.0"}}', 'a', '2.0.0"; rm -rf'), undefined, 'a version that is not one');
});

void test('requirements.txt: ==, ~= and >= pins, names compared the PEP 503 way, extras and comments kept', () => {
  const text = '# web\nDjango==3.2.1\nrequests[socks] == 2.19.0 ; python_version > "3"\nPyYAML>=5.3.1\n';
  assert.equal(apply('requirements.txt', text, 'django', '3.2.25'), text.replace('3.2.1', '3.2.25'));
  assert.equal(apply('requirements.txt', text, 'requests', '2.31.0'), text.replace('2.19.0', '2.31.0'));
  assert.equal(apply('requirements.txt', text, 'pyyaml', '5.4'), text.replace('5.3.1', '5.4'));
  assert.equal(apply('requirements.txt', text, 'flask', '2.0'), undefined);
  assert.equal(upgradeReplacement('requirements.txt', text, 'requests', '2.31.0')?.line, 2);
});

void test('which manifests are understood', () => {
  assert.equal(manifestKindOf('web/package.json'), 'package.json');
  assert.equal(manifestKindOf('requirements.txt'), 'requirements.txt');
  assert.equal(manifestKindOf('poetry.lock'), undefined);
});
