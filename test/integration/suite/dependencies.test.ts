// The supply-chain inventory in the editor: the tree's Dependencies under a project (lockfiles,
// then packages with their findings and license marks), the hover and the inlay hint on
// package.json and requirements.txt lines, the license diagnostic, lines that follow edits,
// "where else is it used" with and without a range, the agent's tool, and a deployment without
// an inventory, which stays calm.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { buildInventory, type DependencySeed } from '../../platform/dependencies';
import { signedIn, type Fixture, type Snap } from './fixture';
import {
  actInWindow,
  appsecDiagnosticCount,
  hoverAt,
  notificationTexts,
  putDocumentBack,
  readWindow,
  restoreAfterEach,
  screenshotsInThemes,
  waitFor,
} from './helpers';
import { snapshotTree } from './tree-snapshot';

const NPM_DIR = 'web';
const PY_DIR = 'service';

/** A file's text and the 1-based line of each name it declares. */
interface Written {
  readonly text: string;
  readonly lines: Map<string, number>;
}

function packageJson(deps: readonly [string, string][]): Written {
  const lines = new Map<string, number>();
  const out = ['{', '  "name": "web",', '  "version": "1.0.0",', '  "dependencies": {'];
  deps.forEach(([name, version], i) => {
    out.push(`    "${name}": "^${version}"${i < deps.length - 1 ? ',' : ''}`);
    lines.set(name, out.length);
  });
  out.push('  }', '}');
  return { text: `${out.join('\n')}\n`, lines };
}

function packageLock(deps: readonly [string, string][]): Written {
  const lines = new Map<string, number>();
  const out = ['{', '  "name": "web",', '  "lockfileVersion": 3,', '  "packages": {', '    "": { "name": "web" },'];
  deps.forEach(([name, version], i) => {
    out.push(`    "node_modules/${name}": {`);
    lines.set(name, out.length);
    out.push(`      "version": "${version}"`, `    }${i < deps.length - 1 ? ',' : ''}`);
  });
  out.push('  }', '}');
  return { text: `${out.join('\n')}\n`, lines };
}

function requirements(deps: readonly [string, string][]): Written {
  const lines = new Map<string, number>();
  const out = ['# service requirements'];
  for (const [name, version] of deps) {
    out.push(`${name}==${version}`);
    lines.set(name, out.length);
  }
  return { text: `${out.join('\n')}\n`, lines };
}

/** Whether a version is below lodash's 4.17.21, part by part. */
function belowFix(version: string): boolean {
  const fix = [4, 17, 21];
  const parts = version.split('.').map(Number);
  for (let i = 0; i < fix.length; i++) if ((parts[i] ?? 0) !== fix[i]) return (parts[i] ?? 0) < (fix[i] ?? 0);
  return false;
}

function ask(name: string, input: object): Thenable<string> {
  return vscode.lm
    .invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token)
    .then((r) => r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''));
}

describe('the supply-chain inventory', () => {
  let f: Fixture;
  let vulnerable: { name: string; version: string; ecosystem: string };
  let npm: [string, string][];
  let pypi: [string, string][];
  let pkg: Written;
  let lock: Written;
  let req: Written;
  const fileUri = (dir: string, name: string): vscode.Uri => vscode.Uri.joinPath(f.folder.uri, dir, name);

  before(async () => {
    f = await signedIn();
    // Open, on the branch the workspace shows, in an ecosystem whose files the test writes.
    const finding = f.data.sca.find(
      (s) =>
        s.repository?.name === f.project.name &&
        s.status === 'open' &&
        s.ref === f.project.primary_branch &&
        (s.found_dependency?.ecosystem === 'npm' || s.found_dependency?.ecosystem === 'pypi'),
    );
    const dep = finding?.found_dependency;
    assert.ok(dep?.package && dep.version && dep.ecosystem, 'the fixture has an open npm or PyPI finding');
    vulnerable = { name: dep.package, version: dep.version, ecosystem: dep.ecosystem };
    npm = [
      ['lodash', '4.17.20'],
      ['left-pad', '1.3.0'],
    ];
    pypi = [['six', '1.16.0']];
    (vulnerable.ecosystem === 'npm' ? npm : pypi).push([vulnerable.name, vulnerable.version]);
    pkg = packageJson(npm);
    lock = packageLock(npm);
    req = requirements(pypi);
    mkdirSync(join(f.folder.uri.fsPath, NPM_DIR), { recursive: true });
    mkdirSync(join(f.folder.uri.fsPath, PY_DIR), { recursive: true });
    writeFileSync(fileUri(NPM_DIR, 'package.json').fsPath, pkg.text);
    writeFileSync(fileUri(NPM_DIR, 'package-lock.json').fsPath, lock.text);
    writeFileSync(fileUri(PY_DIR, 'requirements.txt').fsPath, req.text);
    const other = f.data.projects.find((p) => p.name !== f.project.name);
    assert.ok(other);
    const seed = (
      repositoryId: number,
      ecosystem: string,
      name: string,
      version: string,
      licenses: string[],
      lockfile: string,
      line: number,
      manifest: string,
    ): DependencySeed => ({
      repositoryId,
      ecosystem,
      name,
      version,
      transitivity: 'direct',
      licenses,
      resolvedUrl: '',
      lockfile,
      line,
      endLine: line + 2,
      manifest,
      repoUrl: 'https://github.com/example/repo',
      commit: 'a'.repeat(40),
      committedAt: '2026-11-01T00:00:00Z',
    });
    const license = (name: string): string[] => (name === 'left-pad' ? ['GPL-3.0'] : name === 'six' ? ['LGPL-2.1'] : ['MIT']);
    const ours = [
      ...npm.map(([n, v]) =>
        seed(f.project.repository_id, 'npm', n, v, license(n), `${NPM_DIR}/package-lock.json`, lock.lines.get(n) ?? 0, `${NPM_DIR}/package.json`),
      ),
      ...pypi.map(([n, v]) =>
        seed(f.project.repository_id, 'pypi', n, v, license(n), `${PY_DIR}/requirements.txt`, req.lines.get(n) ?? 0, `${PY_DIR}/requirements.txt`),
      ),
    ];
    const theirs = [
      seed(other.repository_id, 'npm', 'lodash', '4.17.15', ['MIT'], 'package-lock.json', 40, 'package.json'),
      seed(other.repository_id, 'npm', 'lodash', '4.17.21', ['MIT'], 'tools/package-lock.json', 12, 'tools/package.json'),
    ];
    f.data.dependencies = buildInventory(
      f.data,
      new Map([
        [f.project.repository_id, ours],
        [other.repository_id, theirs],
      ]),
    );
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });

  after(async () => {
    delete f.data.dependencies;
    f.server.restoreProducts();
    await vscode.workspace.getConfiguration('appsecFindings').update('dependencies.inlayHints', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(f.folder.uri.fsPath, NPM_DIR), { recursive: true, force: true });
    rmSync(join(f.folder.uri.fsPath, PY_DIR), { recursive: true, force: true });
    // The next suite counts Problems: the deleted files' problems leave it first, as the watcher hears of the deletion.
    const written = (uri: vscode.Uri): boolean => [NPM_DIR, PY_DIR].some((dir) => uri.fsPath.startsWith(join(f.folder.uri.fsPath, dir)));
    await waitFor(
      () => vscode.languages.getDiagnostics().every(([uri, list]) => !written(uri) || list.length === 0),
      15_000,
      "the deleted files' problems leave Problems",
    );
  });
  const undo = restoreAfterEach();

  /** What the platform holds of lodash, one use per repository, lockfile and version: what every answer must agree with. */
  const lodashUses = () => {
    const uses = new Map<string, { repositoryId: number; version: string }>();
    for (const d of f.data.dependencies?.dependencies ?? []) {
      if (d.name === 'lodash' && d.ecosystem === 'npm') uses.set(`${d.repositoryId} ${d.lockfile} ${d.version}`, d);
    }
    return [...uses.values()];
  };

  async function dependenciesNode(): Promise<Snap | undefined> {
    const projects = (await snapshotTree(f.api.trees.projects, 5)) as Snap[];
    return projects.find((p) => p.label === f.project.name)?.children?.find((c) => c.label === 'Dependencies');
  }

  /** The lockfile's blocked license (left-pad's GPL-3.0) as Problems reads it: every file's diagnostics, not one file asked for by name. */
  const blockedInLockfile = (): vscode.Diagnostic[] => {
    const uri = fileUri(NPM_DIR, 'package-lock.json').toString();
    const leftPadLine = (lock.lines.get('left-pad') ?? 0) - 1;
    return vscode.languages
      .getDiagnostics()
      .filter(([u]) => u.toString() === uri)
      .flatMap(([, list]) =>
        list.filter(
          (d) =>
            d.source === 'AppSec' &&
            d.code === 'license-policy' &&
            d.severity === vscode.DiagnosticSeverity.Error &&
            d.range.start.line === leftPadLine &&
            /^left-pad 1\.3\.0: license GPL-3\.0 is blocked by the organization's license policy\.$/.test(d.message),
        ),
      );
  };
  const isOpen = (uri: vscode.Uri): boolean => vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());

  it('Problems lists a blocked license of a lockfile never opened, and keeps it once the file was opened and closed', async () => {
    const uri = fileUri(NPM_DIR, 'package-lock.json');
    assert.ok(!isOpen(uri), 'the lockfile was never opened');
    await waitFor(() => blockedInLockfile().length === 1, 10_000, 'the blocked license of the unopened lockfile is in Problems');
    assert.ok(!isOpen(uri), 'read without opening it as a document');
    const requirementsUri = fileUri(PY_DIR, 'requirements.txt');
    await waitFor(
      () => vscode.languages.getDiagnostics(requirementsUri).some((d) => d.code === 'license-policy' && d.severity === vscode.DiagnosticSeverity.Warning),
      10_000,
      'the commented license of the unopened requirements.txt is in Problems too',
    );
    assert.ok(!isOpen(requirementsUri));

    // Problems, narrowed by its filter box to the license problems, with no editor open.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    undo(() => vscode.commands.executeCommand('problems.action.clearFilterText'));
    await actInWindow('click:.viewpane-filter-container .monaco-inputbox input:visible');
    // The box matches rule ids loosely (`license` alone finds `python.lang.best-practice…`): the words with their space.
    for (const key of 'license policy') await actInWindow(`press:${key === ' ' ? 'Space' : key}`);
    // What the window lists, not only what the extension host holds.
    let listed = '';
    await waitFor(
      async () => {
        listed = (await readWindow('.markers-panel .monaco-list-row')).map((r) => `${r.label} ${r.text}`).join('\n');
        return /package-lock\.json/.test(listed) && /GPL-3\.0 is blocked/.test(listed);
      },
      10_000,
      () => `Problems lists the unopened lockfile's license problem (it lists: ${listed.slice(0, 400)})`,
    );
    await screenshotsInThemes('dependencies-problems-unopened');
    await vscode.commands.executeCommand('problems.action.clearFilterText');

    // Opened and closed as a user does (through the workbench, so closing the editor closes the
    // document): the problem stays, as the file is still in the inventory.
    await vscode.commands.executeCommand('vscode.open', uri);
    await waitFor(() => isOpen(uri), 10_000, 'the lockfile opens');
    await waitFor(() => blockedInLockfile().length === 1, 10_000, 'the open lockfile shows it');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => !isOpen(uri), 30_000, "the lockfile's document is closed");
    assert.equal(blockedInLockfile().length, 1, 'closing the editor left the problem');
    // No event says the closed file was read again (it sets the same diagnostics, and the JSON
    // language server's own clearing also fires the change event): a second is given to it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(blockedInLockfile().length, 1, 'still there a second later (read from disk again)');
  });

  it('a lockfile deleted on disk leaves Problems, and is back once written again', async () => {
    const uri = fileUri(NPM_DIR, 'package-lock.json');
    assert.ok(!isOpen(uri));
    await waitFor(() => blockedInLockfile().length === 1, 10_000, "the unopened lockfile's blocked license is in Problems");
    undo(() => {
      if (!existsSync(uri.fsPath)) writeFileSync(uri.fsPath, lock.text);
    });
    rmSync(uri.fsPath);
    await waitFor(() => blockedInLockfile().length === 0, 10_000, "the deleted lockfile's problem leaves Problems");
    writeFileSync(uri.fsPath, lock.text);
    await waitFor(() => blockedInLockfile().length === 1, 10_000, 'the lockfile written again shows it again');
    assert.ok(!isOpen(uri));
  });

  it("the tree lists the project's lockfiles, then its packages with their open findings and license marks", async () => {
    const node = await dependenciesNode();
    assert.deepEqual(
      node?.children?.map((c) => c.label),
      [`${PY_DIR}/requirements.txt`, `${NPM_DIR}/package-lock.json`],
    );
    const packages = node?.children?.flatMap((l) => l.children ?? []) ?? [];
    const row = (name: string): Snap | undefined => packages.find((p) => p.label.startsWith(`${name} `));
    assert.equal(row('lodash')?.description, 'direct · MIT');
    assert.match(row('left-pad')?.description ?? '', /GPL-3\.0 · license blocked$/);
    assert.match(row('six')?.description ?? '', /license flagged$/);
    assert.match(row(vulnerable.name)?.description ?? '', /\b\d+ vulnerabilit(y|ies) \(\w+\)/);
    assert.match(row(vulnerable.name)?.contextValue ?? '', /\bvulnerable\b/);
    // As the user sees it: the project's Dependencies open, each lockfile open.
    const tree = f.api.trees.projects;
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const project = tree.getChildren().find((n) => n.kind === 'project' && n.project.name === f.project.name);
    const dependencies = project && tree.getChildren(project).find((n) => n.kind === 'dependencies');
    assert.ok(dependencies);
    await f.api.trees.projectsView.reveal(dependencies, { expand: true, select: true, focus: false });
    for (const lockfile of tree.getChildren(dependencies)) await f.api.trees.projectsView.reveal(lockfile, { expand: true, select: false, focus: false });
    await screenshotsInThemes('dependencies-tree');
  });

  it("the tree's filter keeps only vulnerable packages, and clears", async () => {
    undo(() => vscode.commands.executeCommand('appsecFindings.filterDependencies', {}));
    await vscode.commands.executeCommand('appsecFindings.filterDependencies', { vulnerableOnly: true });
    const packages = (await dependenciesNode())?.children?.flatMap((l) => l.children ?? []) ?? [];
    assert.ok(packages.some((p) => p.label.startsWith(`${vulnerable.name} `)));
    assert.ok(!packages.some((p) => p.label.startsWith('lodash ')));
    assert.ok(
      packages.some((p) => /No dependency here matches vulnerable/.test(p.label)),
      'the lockfile without a vulnerable package says why it is empty',
    );
    await vscode.commands.executeCommand('appsecFindings.filterDependencies', {});
    const all = (await dependenciesNode())?.children?.flatMap((l) => l.children ?? []) ?? [];
    assert.ok(all.some((p) => p.label.startsWith('lodash ')));
  });

  it('package.json: the hover says version, transitivity, licenses and the other repositories; the hint and the license diagnostic are on their lines', async () => {
    const uri = fileUri(NPM_DIR, 'package.json');
    const editor = await vscode.window.showTextDocument(uri);
    undo(async () => {
      await vscode.workspace.getConfiguration('appsecFindings').update('dependencies.inlayHints', undefined, vscode.ConfigurationTarget.Global);
      if (editor.document.isDirty) {
        await vscode.window.showTextDocument(editor.document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    });
    const lodashLine = (pkg.lines.get('lodash') ?? 0) - 1;
    const hover = await hoverAt(uri, new vscode.Position(lodashLine, 6));
    assert.match(hover, /lodash/);
    assert.match(hover, /4\.17\.20/);
    assert.match(hover, /direct/);
    assert.match(hover, /MIT/);
    const others = new Set(
      lodashUses()
        .map((d) => d.repositoryId)
        .filter((id) => id !== f.project.repository_id),
    ).size;
    assert.ok(others >= 1);
    assert.match(hover, new RegExp(`Used by ${others} other repositor`));
    const hints = async (): Promise<string[]> => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        uri,
        new vscode.Range(0, 0, editor.document.lineCount, 0),
      );
      return found.map((h) => `${h.position.line}:${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}`);
    };
    assert.ok(
      (await hints()).some((h) => h === `${lodashLine}:MIT`),
      JSON.stringify(await hints()),
    );
    const leftPadLine = (pkg.lines.get('left-pad') ?? 0) - 1;
    await waitFor(
      () =>
        vscode.languages
          .getDiagnostics(uri)
          .some((d) => d.range.start.line === leftPadLine && d.severity === vscode.DiagnosticSeverity.Error && /GPL-3\.0 is blocked/.test(d.message)),
      10_000,
      'the blocked license as an error on its line',
    );
    editor.selection = new vscode.Selection(lodashLine, 6, lodashLine, 6);
    await vscode.commands.executeCommand('editor.action.showHover');
    await screenshotsInThemes('dependencies-package-json');
    // Lines follow edits: two lines above move the hint, the hover and the diagnostic down.
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), '  "private": true,\n  "description": "web",\n'));
    assert.match(await hoverAt(uri, new vscode.Position(lodashLine + 2, 6)), /4\.17\.20/);
    assert.ok((await hints()).some((h) => h === `${lodashLine + 2}:MIT`));
    await waitFor(
      () => vscode.languages.getDiagnostics(uri).some((d) => d.range.start.line === leftPadLine + 2),
      10_000,
      'the license diagnostic follows the edit',
    );
    await vscode.workspace.getConfiguration('appsecFindings').update('dependencies.inlayHints', false, vscode.ConfigurationTarget.Global);
    assert.deepEqual(await hints(), [], 'the setting turns the hints off');
    await vscode.workspace.getConfiguration('appsecFindings').update('dependencies.inlayHints', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('after the upgrade, the manifest line says it was upgraded here while the lockfile still has the old version, instead of its vulnerabilities', async function () {
    this.timeout(60_000);
    const npmSide = vulnerable.ecosystem === 'npm';
    const uri = npmSide ? fileUri(NPM_DIR, 'package.json') : fileUri(PY_DIR, 'requirements.txt');
    const line = ((npmSide ? pkg : req).lines.get(vulnerable.name) ?? 0) - 1;
    const fix = f.api.app.diagnostics.current[0]?.findings.find((x) => x.sca?.package === vulnerable.name && x.sca.version === vulnerable.version)?.sca
      ?.fixVersions?.[0];
    assert.ok(fix, `the finding of ${vulnerable.name} ${vulnerable.version} names a version that fixes it`);
    const editor = await vscode.window.showTextDocument(uri);
    const original = editor.document.getText();
    undo(() => putDocumentBack(editor.document, original));
    const hintOf = async (): Promise<string> => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        uri,
        new vscode.Range(0, 0, editor.document.lineCount, 0),
      );
      const hint = found.find((h) => h.position.line === line);
      return hint ? (typeof hint.label === 'string' ? hint.label : hint.label.map((p) => p.value).join('')) : '';
    };
    assert.match(await hintOf(), /vulnerabilit/, 'before: its vulnerabilities');
    // What the upgrade quick fix writes: the fixing version on the line, the lockfile unchanged.
    const text = editor.document.lineAt(line).text;
    const at = text.lastIndexOf(vulnerable.version);
    await editor.edit((e) => e.replace(new vscode.Range(line, at, line, at + vulnerable.version.length), fix));
    let said = '';
    await waitFor(
      async () => (said = await hintOf()) === `upgraded here; lockfile still has ${vulnerable.version}`,
      10_000,
      () => `the hint says so (it says "${said}")`,
    );
    assert.doesNotMatch(said, /vulnerabilit/);
    await screenshotsInThemes('dependency-upgraded-here', ['light']);
  });

  it("requirements.txt: the hover and the hint of a PyPI line, the license policy's comment as a warning", async () => {
    const uri = fileUri(PY_DIR, 'requirements.txt');
    await vscode.window.showTextDocument(uri);
    const sixLine = 1;
    assert.match(await hoverAt(uri, new vscode.Position(sixLine, 1)), /six[\s\S]*1\.16\.0[\s\S]*LGPL-2\.1/);
    await waitFor(
      () => vscode.languages.getDiagnostics(uri).some((d) => d.range.start.line === sixLine && d.severity === vscode.DiagnosticSeverity.Warning),
      10_000,
      'the commented license as a warning',
    );
    await screenshotsInThemes('dependencies-requirements');
  });

  it("the vulnerable package's line hints its open findings, in package.json or requirements.txt", async () => {
    const uri = vulnerable.ecosystem === 'npm' ? fileUri(NPM_DIR, 'package.json') : fileUri(PY_DIR, 'requirements.txt');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l.includes(vulnerable.name));
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
      'vscode.executeInlayHintProvider',
      uri,
      new vscode.Range(0, 0, document.lineCount, 0),
    );
    const label = hints.find((h) => h.position.line === line)?.label;
    assert.match(typeof label === 'string' ? label : '', /^\d+ vulnerab/, JSON.stringify(hints.map((h) => h.label)));
    assert.match(await hoverAt(uri, new vscode.Position(line, 6)), /open finding|vulnerab/i);
  });

  it('where else is lodash used: every repository and lockfile, with the range marked; without a range, all in range', async () => {
    type Row = { repository: string; lockfilePath: string; version: string; transitivity: string; inRange: boolean };
    const ranged = await vscode.commands.executeCommand<Row[]>('appsecFindings.whereUsed', { package: 'lodash', upper: '<4.17.21' });
    assert.deepEqual(
      ranged.map((r) => `${r.version} ${r.inRange}`).sort(),
      lodashUses()
        .map((d) => `${d.version} ${belowFix(d.version)}`)
        .sort(),
    );
    assert.ok(ranged.some((r) => r.version === '4.17.15' && r.inRange) && ranged.some((r) => r.version === '4.17.21' && !r.inRange));
    assert.deepEqual(
      ranged.slice(0, ranged.filter((r) => r.inRange).length).map((r) => r.inRange),
      ranged.filter((r) => r.inRange).map(() => true),
      'in range first',
    );
    assert.ok(ranged.every((r) => r.transitivity === 'direct' && r.lockfilePath !== ''));
    assert.ok(ranged.some((r) => r.repository === f.project.name && r.lockfilePath === `${NPM_DIR}/package-lock.json`));
    await screenshotsInThemes('dependencies-where-used');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const all = await vscode.commands.executeCommand<Row[]>('appsecFindings.whereUsed', { package: 'lodash' });
    assert.equal(all.length, lodashUses().length);
    assert.ok(all.every((r) => r.inRange));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // A wrong bound is refused before any request, with a sentence naming it (and no list).
    const requests = f.server.requests.length;
    assert.equal(await vscode.commands.executeCommand('appsecFindings.whereUsed', { package: 'lodash', upper: '4.17.21' }), undefined);
    assert.equal(f.server.requests.length, requests, 'nothing was sent');
    const texts = await notificationTexts();
    assert.ok(
      texts.some((t) => /must start with <= or </.test(t)),
      JSON.stringify(texts),
    );
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('a name and a range typed in the first box are split, never searched for as one name; automation must give them apart', async () => {
    type Row = { repository: string; version: string; inRange: boolean };
    const asked = Promise.resolve(vscode.commands.executeCommand<Row[]>('appsecFindings.whereUsed'));
    await waitFor(async () => (await readWindow('.quick-input-widget:visible .quick-input-box input')).length > 0, 10_000, 'the name box opens');
    await actInWindow('type:lodash <4.17.21');
    await actInWindow('press:Enter');
    // The range typed after the name answers the second question: the list comes at once.
    const rows = await asked;
    assert.deepEqual(
      rows.map((r) => `${r.version} ${r.inRange}`).sort(),
      lodashUses()
        .map((d) => `${d.version} ${belowFix(d.version)}`)
        .sort(),
    );
    assert.ok(rows.length > 0 && rows.some((r) => r.inRange), 'not a false "used in 0 repositories"');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const requests = f.server.requests.length;
    assert.equal(await vscode.commands.executeCommand('appsecFindings.whereUsed', { package: 'lodash <4.17.21' }), undefined);
    assert.equal(f.server.requests.length, requests, 'nothing was sent');
    const texts = await notificationTexts();
    assert.ok(
      texts.some((t) => t.includes('is not a package name')),
      JSON.stringify(texts),
    );
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('picking a use in the list opens its lockfile at the line when its repository is in the workspace', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const rows = await vscode.commands.executeCommand<{ repository: string }[]>('appsecFindings.whereUsed', { package: 'left-pad' });
    assert.deepEqual(
      rows.map((r) => r.repository),
      [f.project.name],
      "only the workspace's project uses it",
    );
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.endsWith(`${NPM_DIR}/package-lock.json`) ?? false, 10_000, 'the lockfile opens');
    const line = vscode.window.activeTextEditor?.selection.active.line ?? -1;
    assert.match(vscode.window.activeTextEditor?.document.lineAt(line).text ?? '', /node_modules\/left-pad/);
  });

  it('the agent\'s tool answers "does any repository use lodash below 4.17.21?"', async () => {
    const answer = await ask('appsecFindings_dependencies', { package: 'lodash', upper: '<4.17.21' });
    assert.match(answer, /IN RANGE/);
    const uses = lodashUses();
    const inRange = uses.filter((d) => belowFix(d.version)).length;
    assert.match(answer, new RegExp(`${uses.length} uses in ${new Set(uses.map((d) => d.repositoryId)).size} repositories, ${inRange} in range`));
    assert.match(await ask('appsecFindings_dependencies', { upper: '<1' }), /package/);
  });

  it('a deployment without the inventory: the tree says so calmly, the editor shows nothing, no toast', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    f.server.setProduct('dependencies', 404);
    undo(async () => {
      f.server.restoreProducts();
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const node = await dependenciesNode();
    assert.deepEqual(
      node?.children?.map((c) => c.label),
      ['Dependencies — the inventory is not available for this deployment (404)'],
    );
    const uri = fileUri(NPM_DIR, 'package.json');
    await vscode.window.showTextDocument(uri);
    assert.doesNotMatch(await hoverAt(uri, new vscode.Position((pkg.lines.get('lodash') ?? 0) - 1, 6)), /Used by/);
    assert.deepEqual(await vscode.commands.executeCommand('appsecFindings.whereUsed', { package: 'lodash' }), []);
    const texts = await notificationTexts();
    assert.deepEqual(
      texts.filter((t) => /fail|could not|error/i.test(t)),
      [],
    );
    assert.ok(appsecDiagnosticCount() > 0, 'the findings stay');
  });
});
