// Pointed at a platform that answers as the real service documents (the local platform's default
// shape: a flat "findings" list, snake_case rule lists, nulls, omitted defaults, refs/heads/
// branches on projects, no deprecated rule_name on every third finding), with pages capped at
// 100 whatever the page size asked: every finding reaches the tree, Problems and the status bar,
// on the right line, and the branch reads as "main".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findingNodes, fixture, issueTypeNode, serverFindings, type Fixture, signedIn } from './fixture';
import { restoreAfterEach } from './helpers';
import { snapshotTree } from './tree-snapshot';

const EXTRA = 240;
const FIRST_EXTRA_ID = 991_000;

async function raw(f: Fixture, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${f.server.url}/api/v1/deployments/${f.data.deployment.slug}${path}`, {
    headers: { Authorization: `Bearer ${f.server.token}` },
  });
  return (await response.json()) as Record<string, unknown>;
}

describe("the real service's answer shapes", () => {
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  const undo = restoreAfterEach();

  it('the local platform answers in them (the premise of this file)', async () => {
    const f = await fixture();
    const findings = await raw(f, `/findings?issue_type=sast&repos=${encodeURIComponent(f.project.name)}&page_size=100`);
    assert.deepEqual(Object.keys(findings), ['findings']);
    const list = findings.findings as Record<string, unknown>[];
    assert.ok(
      list.some((x) => !('rule_name' in x)),
      'some findings come without the deprecated rule_name',
    );
    const project = await raw(f, `/projects/${f.project.name}`);
    assert.equal((project.project as Record<string, unknown>).primary_branch, `refs/heads/${f.project.primary_branch}`);
  });

  it('shows every finding of a branch whose pages the server caps at 100, on its line, in the tree, Problems and the status bar', async () => {
    const f = await fixture();
    const template = f.data.sast.find((x) => x.repository?.name === f.project.name && x.ref === f.project.primary_branch && x.status === 'open')!;
    const files = [
      ...new Set(
        f.data.sast
          .filter((x) => x.repository?.name === f.project.name)
          .map((x) => x.location?.file_path ?? x.location?.filePath)
          .filter((p): p is string => !!p && !p.includes('..')),
      ),
    ];
    const now = Date.now();
    undo(async () => {
      f.server.setMaxPageSize(undefined);
      f.data.sast = f.data.sast.filter((x) => (x.id ?? 0) < FIRST_EXTRA_ID || (x.id ?? 0) >= FIRST_EXTRA_ID + EXTRA);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    for (let i = 0; i < EXTRA; i++) {
      const line = 20 + i;
      f.data.sast.push({
        ...template,
        id: FIRST_EXTRA_ID + i,
        syntactic_id: `shape-${i}`,
        match_based_id: `shape-${i}`,
        status: 'open',
        relevant_since: new Date(now - i * 1000).toISOString(),
        location: { file_path: files[i % files.length], line, column: 1, end_line: line, end_column: 5 },
      });
    }
    const query = { repos: f.project.name, ref: f.project.primary_branch, status: 'open', dedup: 'true' };
    const expectedSast = await serverFindings(f, 'sast', query);
    const expectedSca = await serverFindings(f, 'sca', query);
    assert.ok(expectedSast.length > 250, `${expectedSast.length} code findings: more than two capped pages`);
    f.server.setMaxPageSize(100);
    await vscode.commands.executeCommand('appsecFindings.refresh');

    const folder = f.api.app.diagnostics.current[0];
    assert.equal(folder?.ref, f.project.primary_branch, 'the branch by its name, not refs/heads/…');
    const shownSast = folder?.findings.filter((x) => x.issueType === 'sast') ?? [];
    assert.deepEqual(
      shownSast.map((x) => x.id).sort((a, b) => a - b),
      expectedSast.map((x) => x.id).sort((a, b) => a - b),
      'every code finding, none twice',
    );
    assert.equal(folder?.findings.filter((x) => x.issueType === 'sca').length, expectedSca.length);
    assert.ok(
      shownSast.some((x) => x.id % 3 === 0 && x.ruleName === template.rule?.name),
      'a finding without rule_name is named by rule.name',
    );

    for (const finding of expectedSast) {
      if (!finding.path || !finding.line) continue;
      const lines = vscode.languages
        .getDiagnostics(vscode.Uri.joinPath(f.folder.uri, finding.path))
        .filter((d) => d.source === 'AppSec')
        .map((d) => d.range.start.line);
      assert.ok(lines.includes(finding.line - 1), `${finding.path}:${finding.line} is in Problems at line index ${finding.line - 1}`);
    }
    const total = expectedSast.length + expectedSca.length;
    // The count says the filters it is under (the default: open findings).
    assert.match(
      f.api.statusBar.tooltip,
      new RegExp(`^AppSec: ${total} findings matching the filters \\(open\\) of ${f.project.name.replace(/[/.]/g, '\\$&')} on ${f.project.primary_branch}\\.`),
    );

    const treeSast = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    assert.equal(treeSast.length, expectedSast.length, 'the tree lists every code finding too');
    const projects = (await snapshotTree(f.api.trees.projects, 1)) as { label: string; description?: string }[];
    assert.ok(
      projects.every((p) => !(p.description ?? '').includes('refs/heads/')),
      'projects show branches by their name',
    );
  });
});
