// How a project reads in the Projects tree: order, description, menu flags and lazy tooltip.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Project } from '../../../src/core/model/types';
import { projectAccessibilityLabel, projectContextValue, projectDescription, projectTooltip, sortProjects } from '../../../src/views/project-presentation';

const project = (name: string, extra: Partial<Project> = {}): Project => ({ id: 1, name, tags: [], ...extra });

void describe('projectContextValue', () => {
  void test('"project hasUrl github" for an http(s) URL, naming its code host; the flags menus match with \\b…\\b', () => {
    const value = projectContextValue(project('acme/api', { url: 'https://github.com/acme/api' }), false);
    assert.equal(value, 'project hasUrl github');
    assert.equal(projectContextValue(project('g/s/r', { url: 'https://gitlab.com/g/s/r' }), false), 'project hasUrl gitlab');
    assert.equal(projectContextValue(project('g/s/r', { url: 'https://gitlab.acme.internal/g/s/r' }), false), 'project hasUrl gitlab');
    assert.equal(projectContextValue(project('b/r', { url: 'https://bitbucket.org/b/r' }), false), 'project hasUrl otherHost');
    assert.match(value, /\bproject\b/);
    assert.match(value, /\bhasUrl\b/);
  });

  void test('no hasUrl without a URL or with a non-http one; inWorkspace when the workspace holds it', () => {
    assert.equal(projectContextValue(project('a'), false), 'project');
    assert.equal(projectContextValue(project('a', { url: 'command:x' }), true), 'project inWorkspace');
  });
});

void describe('sortProjects', () => {
  void test('the workspace projects first, then by name', () => {
    const sorted = sortProjects([project('b'), project('z/ws'), project('a'), project('c/ws')], new Set(['z/ws', 'c/ws']));
    assert.deepEqual(
      sorted.map((p) => p.name),
      ['c/ws', 'z/ws', 'a', 'b'],
    );
  });
});

void describe('projectDescription', () => {
  void test('ref and tags only: the narrow side bar shows what differs between projects', () => {
    assert.equal(projectDescription(project('a', { tags: ['pci', 'team-payments'] }), 'main'), 'main · pci, team-payments');
    assert.equal(projectDescription(project('a'), undefined), '');
  });

  void test('another branch than the one checked out (Show Findings of Branch…) says which one Problems shows', () => {
    assert.equal(projectDescription(project('a', { tags: ['pci'] }), 'feature/x', 'main'), 'feature/x (checked out: main) · pci', 'first: the view is narrow');
  });

  void test('the accessible label says the same in words', () => {
    assert.equal(
      projectAccessibilityLabel(project('acme/api', { tags: ['pci'] }), true, 'main'),
      'project acme/api, in the open workspace, findings on main, tags pci',
    );
  });
});

void describe('projectTooltip', () => {
  const base = project('acme/api', {
    primaryBranch: 'main',
    tags: ['pci'],
    url: 'https://github.com/acme/api',
    latestScanAt: new Date('2024-05-01T12:00:00Z'),
  });

  void test('before details arrive it says they are loading', () => {
    const text = projectTooltip(base, 'main');
    assert.match(text, /Loading managed scan settings…/);
    assert.match(text, /Last scan: 2024\\-05\\-01 12\\:00/);
  });

  void test('with details, managed diff and full scan settings are shown', () => {
    const text = projectTooltip(base, 'main', { ...base, managedScanConfig: { diffScanEnabled: true, fullScanEnabled: false } });
    assert.match(text, /Managed diff scans: enabled/);
    assert.match(text, /Managed full scans: disabled/);
    assert.match(text, /\[https\\:\\\/\\\/github\\\.com\\\/acme\\\/api\]\(https:\/\/github\.com\/acme\/api\)/);
  });

  void test('details without managed scans, and a failed detail load, each say so', () => {
    assert.match(projectTooltip(base, 'main', base), /No managed scans configured\\\./);
    assert.ok(projectTooltip(base, 'main', { error: 'HTTP 404' }).includes('could not be loaded\\: HTTP 404'));
  });

  void test("the open workspace's project says so, where the row no longer has room to", () => {
    assert.match(projectTooltip(base, 'main', base, true), /Open in this window\\: its findings are in Problems\\\./);
    assert.doesNotMatch(projectTooltip(base, 'main', base), /Open in this window/);
  });

  void test('a project name with markdown is shown as text', () => {
    const text = projectTooltip(project('[x](command:evil)'), undefined);
    assert.doesNotMatch(text, /\]\(command/);
  });
});
