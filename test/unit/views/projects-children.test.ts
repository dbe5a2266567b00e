// The root of the Projects view for each session and project-list state, and a project's children.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Project } from '../../../src/core/model/types';
import type { ProjectsState } from '../../../src/core/services/projects-service';
import type { SessionState } from '../../../src/core/services/session';
import { issueTypeNodes, projectsRoot, type ProjectsRootContext } from '../../../src/views/projects-children';
import type { Node } from '../../../src/views/tree-nodes';

const signedIn: SessionState = { kind: 'signedIn', deployment: { id: '1', name: 'Acme', slug: 'acme' } };
const project = (name: string, extra: Partial<Project> = {}): Project => ({ id: name.length, name, tags: [], ...extra });
const context: ProjectsRootContext = {
  workspaceProjects: new Set(['acme/web']),
  refOf: (p) => (p.name === 'acme/web' ? 'feature-x' : (p.primaryBranch ?? p.defaultBranch)),
  errorMessage: (e) => (e instanceof Error ? e.message : String(e)),
};
const texts = (nodes: Node[]): string[] => nodes.map((n) => (n.kind === 'message' ? `message: ${n.text}` : n.kind === 'project' ? n.project.name : n.kind));

void describe('projectsRoot', () => {
  void test('signed out: nothing, so the view shows its welcome content', () => {
    assert.deepEqual(projectsRoot({ kind: 'signedOut' }, { kind: 'idle' }, context), []);
  });

  void test('no deployment: the reason', () => {
    const nodes = projectsRoot({ kind: 'noDeployment', message: 'The token reaches no deployment.' }, { kind: 'idle' }, context);
    assert.deepEqual(texts(nodes), ['message: The token reaches no deployment.']);
  });

  void test('loading for the first time, and failing', () => {
    assert.deepEqual(texts(projectsRoot(signedIn, { kind: 'idle' }, context)), ['message: Loading projects…']);
    assert.deepEqual(texts(projectsRoot(signedIn, { kind: 'loading' }, context)), ['message: Loading projects…']);
    assert.deepEqual(texts(projectsRoot(signedIn, { kind: 'failed', error: new Error('HTTP 401') }, context)), ['message: Could not load projects: HTTP 401']);
  });

  void test('loaded: workspace projects first, marked, with the ref whose findings are shown', () => {
    const state: ProjectsState = {
      kind: 'loaded',
      projects: [project('acme/zeta', { primaryBranch: 'main' }), project('acme/alpha'), project('acme/web', { primaryBranch: 'main' })],
    };
    const nodes = projectsRoot(signedIn, state, context);
    assert.deepEqual(texts(nodes), ['acme/web', 'acme/alpha', 'acme/zeta']);
    const [web, alpha, zeta] = nodes;
    assert.ok(web?.kind === 'project' && web.inWorkspace && web.ref === 'feature-x');
    assert.ok(alpha?.kind === 'project' && !alpha.inWorkspace && alpha.ref === undefined);
    assert.ok(zeta?.kind === 'project' && zeta.ref === 'main' && zeta.id === 'project/acme/acme%2Fzeta');
  });

  void test('a refresh keeps the previous list in place', () => {
    assert.deepEqual(texts(projectsRoot(signedIn, { kind: 'loading', previous: [project('a')] }, context)), ['a']);
  });

  void test('stale: a warning above the last list', () => {
    const nodes = projectsRoot(signedIn, { kind: 'loaded', projects: [project('a')], staleBecause: new Error('HTTP 500') }, context);
    assert.deepEqual(texts(nodes), ['message: Showing the last project list — the refresh failed: HTTP 500', 'a']);
  });

  void test('no projects: says so and why', () => {
    assert.deepEqual(texts(projectsRoot(signedIn, { kind: 'loaded', projects: [] }, context)), ['message: No projects in Acme yet']);
  });
});

void describe('issueTypeNodes', () => {
  void test('code, supply chain, then secrets, each with its slot', () => {
    const [node] = projectsRoot(signedIn, { kind: 'loaded', projects: [project('g/s/repo')] }, context);
    if (node?.kind !== 'project') return assert.fail('expected a project');
    const children = issueTypeNodes(node);
    assert.deepEqual(
      children.map((c) => [c.issueType, c.slot, c.id]),
      [
        ['sast', 'tree:g/s/repo:sast', 'project/acme/g%2Fs%2Frepo/sast'],
        ['sca', 'tree:g/s/repo:sca', 'project/acme/g%2Fs%2Frepo/sca'],
        ['secrets', 'tree:g/s/repo:secrets', 'project/acme/g%2Fs%2Frepo/secrets'],
      ],
    );
    assert.ok(children.every((c) => c.parent === node));
  });
});
