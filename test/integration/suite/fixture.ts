// One platform server and workspace for the whole suite, set up on first use. The local
// platform runs inside the extension host, so tests can change its data between steps and see
// the extension pick the change up over real HTTP.
import * as vscode from 'vscode';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateDeployment } from '../../platform/generator';
import { startPlatformServer, type RunningPlatform } from '../../platform/server';
import type { PlatformData, StoredProject } from '../../platform/types';
import type { ExtensionApi } from '../../../src/extension';
import { waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

export const EXTENSION_ID = 'appsec-findings.appsec-findings';

export interface Fixture {
  readonly server: RunningPlatform;
  readonly data: PlatformData;
  /** The project the workspace folder is a clone of. */
  readonly project: StoredProject;
  readonly folder: vscode.WorkspaceFolder;
  readonly api: ExtensionApi;
  /** A branch of the project that has its own scan (findings on that ref). */
  readonly featureRef: string;
}

let shared: Promise<Fixture> | undefined;

export function fixture(): Promise<Fixture> {
  shared ??= setUp();
  return shared;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function setUp(): Promise<Fixture> {
  const data = generateDeployment({ seed: 11, projects: 4, sastPerProject: 80, scaPerProject: 20, refsPerProject: 2, policies: 2, rulesPerPolicy: 12 });
  const server = await startPlatformServer({ data, sbomPollsUntilDone: 1 });
  await vscode.workspace.getConfiguration('appsecFindings').update('baseUrl', server.url, vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration('appsecFindings').update('autoRefreshMinutes', 0, vscode.ConfigurationTarget.Global);

  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the launcher must open a workspace folder');
  const project = data.projects.find((p) => !/[\s#+%]/.test(p.name) && p.name.split('/').length === 2) ?? data.projects[0];
  const featureRef = [...new Set(data.sast.filter((f) => f.repository?.name === project.name).map((f) => f.ref))].find(
    (r): r is string => !!r && r !== project.primary_branch,
  );
  if (!featureRef) throw new Error('the generated project has no feature branch with findings');
  makeClone(folder.uri.fsPath, project, data);

  const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  return { server, data, project, folder, api, featureRef };
}

/** Turns the workspace folder into a clone of `project` with every file its findings point at. */
function makeClone(root: string, project: StoredProject, data: PlatformData): void {
  const paths = new Set<string>();
  for (const f of [...data.sast, ...data.sca]) {
    if (f.repository?.name !== project.name) continue;
    const path = f.location?.filePath ?? f.location?.file_path;
    if (path && !path.startsWith('/') && !path.includes('..')) paths.add(path);
  }
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), Array.from({ length: 500 }, (_, i) => `line ${i + 1} of ${path}`).join('\n') + '\n');
  }
  try {
    git(root, 'rev-parse', '--git-dir');
  } catch {
    git(root, 'init', '-q');
  }
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'checkout', '-q', '-B', project.primary_branch);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'clone of the project');
  try {
    git(root, 'remote', 'remove', 'origin');
  } catch {
    /* no remote yet */
  }
  git(root, 'remote', 'add', 'origin', `git@github.com:${project.name}.git`);
  pinScannedCommit(data, project.name, git(root, 'rev-parse', 'HEAD'));
}

/**
 * The generated findings name made-up commits; this copy's commit is the one "scanned", so its
 * findings map onto it (the drift suite moves the copy on from there).
 */
export function pinScannedCommit(data: PlatformData, projectName: string, commit: string): void {
  const pin = (url: string | undefined): string | undefined =>
    url?.replace(/\/(-\/)?blob\/[0-9a-f]{7,40}\//, (_m, gitlab: string | undefined) => `/${gitlab ?? ''}blob/${commit}/`);
  for (const finding of [...data.sast, ...data.sca]) {
    if (finding.repository?.name !== projectName) continue;
    finding.line_of_code_url = pin(finding.line_of_code_url);
    const dependency = 'found_dependency' in finding ? finding.found_dependency : undefined;
    if (dependency) dependency.lockfile_line_url = pin(dependency.lockfile_line_url);
  }
}

/** Everything the extension keeps outside SecretStorage, for tests that prove the token is not there. */
export function storedState(api: ExtensionApi): string {
  const { globalState, workspaceState } = api.context;
  return JSON.stringify([globalState.keys().map((k) => [k, globalState.get(k)]), workspaceState.keys().map((k) => [k, workspaceState.get(k)])]);
}

/** Signs in through the command, as a user would (token as argument instead of the input box). */
export async function signIn(f: Fixture): Promise<void> {
  await vscode.commands.executeCommand('appsecFindings.signIn', f.server.token);
  await waitFor(() => f.api.app.session.state.kind === 'signedIn', 10_000, 'sign-in');
}

/**
 * The fixture, signed in, with the workspace folder matched to its project and Problems filled:
 * every file that needs a session starts from here, whatever ran before it (or nothing did).
 */
export async function signedIn(): Promise<Fixture> {
  const f = await fixture();
  if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
  await waitFor(() => f.api.app.repos.repos().length > 0, 15_000, 'the workspace folder is matched to its project through its git remote');
  // A load's first pages drawn as they arrive are not the whole answer a test counts on.
  if (f.api.app.diagnostics.current.length === 0 || f.api.app.diagnostics.currentCause === 'arriving')
    await vscode.commands.executeCommand('appsecFindings.refresh');
  return f;
}

/** The fixture, signed out (for the files that test what a signed-out user sees). */
export async function signedOut(): Promise<Fixture> {
  const f = await fixture();
  if (f.api.app.session.state.kind !== 'signedOut') await vscode.commands.executeCommand('appsecFindings.signOut');
  return f;
}

/** What the platform itself answers for a findings query (read straight from the local server). */
export async function serverFindings(
  f: Fixture,
  issueType: 'sast' | 'sca',
  query: Record<string, string | string[]>,
): Promise<{ id: number; line?: number; path?: string }[]> {
  const params = new URLSearchParams({ issue_type: issueType, page_size: '3000' });
  for (const [key, value] of Object.entries(query)) for (const v of [value].flat()) params.append(key, v);
  const response = await fetch(`${f.server.url}/api/v1/deployments/${f.data.deployment.slug}/findings?${params.toString()}`, {
    headers: { Authorization: `Bearer ${f.server.token}` },
  });
  // The service's flat list, or the spec's envelope when the platform is switched to it.
  const body = (await response.json()) as { findings?: WireLike[]; sastFindings?: { findings: WireLike[] }; scaFindings?: { findings: WireLike[] } };
  const list = body.findings ?? (issueType === 'sast' ? body.sastFindings?.findings : body.scaFindings?.findings) ?? [];
  return list.map((x) => ({ id: x.id, line: x.location?.line, path: x.location?.filePath ?? x.location?.file_path }));
}

interface WireLike {
  id: number;
  location?: { line?: number; filePath?: string; file_path?: string };
}

/** A tree node as `snapshot()` returns it. */
export interface Snap {
  label: string;
  description?: string;
  contextValue?: string;
  children?: Snap[];
}

/** Every finding node below `node` (through groups and pages, skipping message nodes). */
export function findingNodes(node: Snap | undefined): Snap[] {
  if (!node) return [];
  return (node.children ?? []).flatMap((c) => (/\bfinding\b/.test(c.contextValue ?? '') ? [c] : findingNodes(c)));
}

/** The group nodes directly under an issue-type node. */
export function groupNodes(node: Snap | undefined): Snap[] {
  return (node?.children ?? []).filter((c) => /\bfindingGroup\b/.test(c.contextValue ?? ''));
}

/** The workspace project's "Code findings" or "Supply-chain findings" node, loaded `depth` deep. */
export async function issueTypeNode(f: Fixture, kind: RegExp, depth = 5): Promise<Snap | undefined> {
  const projects = (await snapshotTree(f.api.trees.projects, depth)) as Snap[];
  return projects.find((p) => p.label === f.project.name)?.children?.find((c) => kind.test(c.label));
}
