// Which platform project a workspace folder is: from its git remotes (every URL shape git allows)
// or from the folderProjects setting.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { matchProject, repositoryPathOf } from '../../../src/core/workspace/remote-matching';

void describe('repositoryPathOf', () => {
  const cases: [string, string | undefined][] = [
    ['https://github.com/acme/api.git', 'acme/api'],
    ['https://github.com/acme/api', 'acme/api'],
    ['https://github.com/acme/api/', 'acme/api'],
    ['https://github.com/acme/api.git/', 'acme/api'],
    ['http://localhost:8080/acme/api.git', 'acme/api'],
    ['git@github.com:acme/api.git', 'acme/api'],
    ['git@github.com:acme/api', 'acme/api'],
    ['git@gitlab.com:group/sub/deeper/repo.git', 'group/sub/deeper/repo'],
    ['ssh://git@github.com/acme/api.git', 'acme/api'],
    ['ssh://git@gitlab.example.com:2222/group/sub/repo.git', 'group/sub/repo'],
    ['git+ssh://git@github.com/acme/api.git', 'acme/api'],
    ['git://github.com/acme/api.git', 'acme/api'],
    ['https://user:s3cret@github.com/acme/api.git', 'acme/api'],
    ['https://x-access-token:ghp_abc@github.com/acme/api', 'acme/api'],
    ['https://gitlab.com/group/sub/repo.git', 'group/sub/repo'],
    ['https://GitHub.com/Acme/API.GIT', 'acme/api'],
    ['https://bitbucket.example.com/scm/proj/repo.git', 'proj/repo'],
    ['https://dev.example.com/my%20org/my%20repo.git', 'my org/my repo'],
    ['  https://github.com/acme/api.git\n', 'acme/api'],
  ];
  for (const [url, expected] of cases) {
    void test(`${JSON.stringify(url)} → ${String(expected)}`, () => assert.equal(repositoryPathOf(url), expected));
  }

  void test('no repository path: empty, a bare host, one segment, or not a URL at all', () => {
    for (const url of [
      '',
      '   ',
      'https://github.com',
      'https://github.com/',
      'https://github.com/api.git',
      'git@github.com:api.git',
      'not a url',
      '/local/path/../repo',
    ]) {
      assert.equal(repositoryPathOf(url), undefined, url);
    }
  });

  void test('credentials in a remote never appear in the path', () => {
    const path = repositoryPathOf('https://alice:hunter2@github.com/acme/api.git');
    assert.ok(path !== undefined && !path.includes('hunter2') && !path.includes('alice'));
  });

  void test('a malformed percent escape is kept rather than failing', () => {
    assert.equal(repositoryPathOf('https://github.com/acme/100%zz.git'), 'acme/100%zz');
  });
});

void describe('matchProject', () => {
  const projects = ['acme/api', 'acme/web', 'group/sub/repo', 'sub/repo', 'Acme/Billing'];

  void test('a remote that names a project exactly finds it', () => {
    assert.equal(matchProject(['git@github.com:acme/web.git'], projects), 'acme/web');
  });

  void test('case does not matter, and the project name is returned as the platform spells it', () => {
    assert.equal(matchProject(['https://github.com/acme/billing'], projects), 'Acme/Billing');
  });

  void test('an exact match beats a suffix match, whichever remote comes first', () => {
    assert.equal(matchProject(['https://gitlab.com/top/sub/repo.git', 'https://gitlab.com/group/sub/repo.git'], projects), 'group/sub/repo');
  });

  void test('a platform name without the host group prefix matches by suffix, the longest name winning', () => {
    assert.equal(matchProject(['https://gitlab.com/top/group/sub/repo.git'], projects), 'group/sub/repo');
    assert.equal(matchProject(['https://gitlab.com/other/sub/repo.git'], projects), 'sub/repo');
  });

  void test('a remote shorter than the platform name matches by suffix too', () => {
    assert.equal(matchProject(['git@host:sub/repo.git'], ['mirror/group/sub/repo']), 'mirror/group/sub/repo');
  });

  void test('a suffix match needs a whole path segment: "xapi" is not "api"', () => {
    assert.equal(matchProject(['https://github.com/acme/xapi'], ['acme/api', 'cme/xapi']), undefined);
    assert.equal(matchProject(['https://github.com/org/acme/api-v2'], ['acme/api']), undefined);
  });

  void test('no remote, or no matching project, gives no project', () => {
    assert.equal(matchProject([], projects), undefined);
    assert.equal(matchProject(['https://github.com/other/thing'], projects), undefined);
    assert.equal(matchProject(['garbage'], projects), undefined);
  });

  void test('several remotes: the one that matches is used', () => {
    assert.equal(matchProject(['https://github.com/me/fork.git', 'git@github.com:acme/api.git'], projects), 'acme/api');
  });

  void test('an explicit mapping wins over the remotes', () => {
    assert.equal(matchProject(['git@github.com:acme/api.git'], projects, 'acme/web'), 'acme/web');
  });

  void test('an explicit mapping to a project not (yet) listed is kept as given', () => {
    assert.equal(matchProject([], projects, 'acme/new-service'), 'acme/new-service');
  });

  void test('an empty mapping falls back to the remotes', () => {
    assert.equal(matchProject(['git@github.com:acme/api.git'], projects, ''), 'acme/api');
  });
});
