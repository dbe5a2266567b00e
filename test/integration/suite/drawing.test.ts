// Drawing tens of thousands of findings: Problems is planned and handed over in slices with the
// extension host free between them, the status bar and badge hear of it once it is drawn, and a
// drawing cut short (signing out, a newer drawing) never lands afterwards.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signedIn, type Fixture } from './fixture';
import { appsecDiagnosticCount, restoreAfterEach, waitFor, windowProblemCount } from './helpers';
import { codeLink } from '../../../src/diagnostics/code-link';

const EXTRA = 20_000;
const EXTRA_FILES = 400;
const FIRST_ID = 700_000;

/** The most any test adds. */
const MOST = 60_000;

/** Adds `extra` open findings of the workspace's project on its primary branch, over `files` files. */
function addMany(f: Fixture, extra = EXTRA, files = EXTRA_FILES): void {
  const template = f.data.sast.find((x) => x.repository?.name === f.project.name && x.ref === f.project.primary_branch && x.status === 'open');
  assert.ok(template, 'the project has an open finding on its primary branch');
  for (let i = 0; i < extra; i++) {
    f.data.sast.push({
      ...template,
      id: FIRST_ID + i,
      syntactic_id: `many-${i}`,
      status: 'open',
      severity: 'medium',
      location: { file_path: `src/many/file_${i % files}.py`, line: 1 + (i % 300), column: 1, end_line: 1 + (i % 300), end_column: 5 },
    });
  }
}

function removeMany(f: Fixture): void {
  f.data.sast = f.data.sast.filter((x) => x.id === undefined || x.id < FIRST_ID || x.id >= FIRST_ID + MOST);
}

/** How many turns of the event loop pass until `done` holds (a drawing goes on a slice per turn). */
async function turnsUntil(done: () => boolean, what: string): Promise<number> {
  let turns = 0;
  while (!done()) {
    if (++turns > 1_000_000) throw new Error(`${what}: not within a million turns`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return turns;
}

describe('a large drawing', () => {
  const undo = restoreAfterEach();
  afterEach(async function () {
    this.timeout(60_000);
    const f = await signedIn();
    removeMany(f);
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });

  it('20 000 more findings: all drawn, the open file first, the host turning meanwhile, the status bar counting them', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const before = appsecDiagnosticCount();
    addMany(f);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const short = Array.from({ length: EXTRA_FILES }, (_, i) => vscode.Uri.joinPath(f.folder.uri, `src/many/file_${i}.py`))
      .filter((u) => vscode.languages.getDiagnostics(u).length !== EXTRA / EXTRA_FILES)
      .map((u) => u.path.split('/').pop());
    assert.equal(appsecDiagnosticCount(), before + EXTRA, `files drawn short: ${short.join(', ')}`);
    const counted = [...f.api.statusBar.text.matchAll(/(\d+) [a-z]+/g)].reduce((n, m) => n + Number(m[1]), 0);
    assert.equal(counted, before + EXTRA, `the status bar counts what Problems shows: ${f.api.statusBar.text}`);
    // What reached the window, not only what the extension host holds: VS Code passes on at most
    // about 1 100 diagnostics of one `set` call and silently drops the rest.
    const held = vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.filter((d) => d.severity !== vscode.DiagnosticSeverity.Hint).length, 0);
    let inWindow = -1;
    await waitFor(
      async () => (inWindow = await windowProblemCount()) === held,
      10_000,
      () => `the window's status bar counts every diagnostic held: ${inWindow} of ${held}`,
    );

    // A change to two findings draws them all again: the open file's at once, the rest in slices.
    const openFile = vscode.Uri.joinPath(f.folder.uri, 'src/many/file_0.py');
    const otherFile = vscode.Uri.joinPath(f.folder.uri, 'src/many/file_1.py');
    await vscode.workspace.fs.writeFile(openFile, Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n')));
    await vscode.window.showTextDocument(openFile);
    const count = (uri: vscode.Uri): number => vscode.languages.getDiagnostics(uri).length;
    const [heldOpen, heldOther] = [count(openFile), count(otherFile)];
    let turns = 0;
    const counting = (): void => {
      turns++;
      if (turns < 10_000) setImmediate(counting);
    };
    setImmediate(counting);
    // When the open file's new drawing is handed to VS Code, what the other file shows then (the
    // hand-over itself, not VS Code's change events, which it gathers over 50 ms).
    let otherWhenOpenDrawn: number | undefined;
    const { collection } = f.api.app.diagnostics;
    const set = collection.set.bind(collection) as (...args: unknown[]) => void;
    // Every file handed over for the change: only the two files whose findings changed.
    const handedFiles = new Set<string>();
    collection.set = (...args: unknown[]) => {
      const entries: [vscode.Uri][] = args[0] instanceof vscode.Uri ? [[args[0]]] : (args[0] as [vscode.Uri][]);
      for (const [uri] of entries) handedFiles.add(vscode.workspace.asRelativePath(uri));
      set(...args);
      if (otherWhenOpenDrawn === undefined && count(openFile) === heldOpen - 1) otherWhenOpenDrawn = count(otherFile);
    };
    const putBack = (): void => {
      delete (collection as { set?: unknown }).set;
    };
    undo(putBack);
    const patch = f.api.app.findings.patch(f.api.app.session.deployment!.slug, 'sast', [FIRST_ID, FIRST_ID + 1], { status: 'ignored' });
    assert.equal(count(otherFile), heldOther, 'not drawn within the change');
    await waitFor(() => otherWhenOpenDrawn !== undefined, 20_000, 'the open file is drawn');
    assert.equal(otherWhenOpenDrawn, heldOther, 'the open file is drawn before the others');
    await waitFor(() => count(otherFile) === heldOther - 1, 20_000, "the other file's ignored finding leaves Problems");
    putBack();
    // The drawing logs what it built and what it left as it was, as it hands over.
    const drawn =
      f.api.app.log
        .recent()
        .filter((line) => line.includes('Diagnostics: '))
        .pop() ?? '';
    // Of the 400 files added, the 398 whose findings did not change are left as they are (the
    // fixture's own files may be planned again: earlier tests in this window edit them).
    const [, kept] = /\((\d+) files as they were\)/.exec(drawn) ?? [];
    assert.ok(Number(kept) >= EXTRA_FILES - 2, `the unchanged files are neither planned nor built: ${drawn}`);
    assert.deepEqual(
      [...handedFiles].filter((path) => path.startsWith('src/many/')).sort(),
      ['src/many/file_0.py', 'src/many/file_1.py'],
      'of the files added, only the two changed ones are handed over again',
    );
    const between = turns;
    turns = 10_000;
    assert.ok(between >= 3, `other work ran between the slices (${between} turns)`);
    patch.rollback();
    await waitFor(() => count(otherFile) === heldOther && count(openFile) === heldOpen, 20_000, 'the findings are back after the undo');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.workspace.fs.delete(openFile);
  });

  it('a redraw that lands while a large drawing is handed over: the refresh resolves once the redraw is drawn whole', async function () {
    this.timeout(90_000);
    const f = await signedIn();
    const before = appsecDiagnosticCount();
    // Enough that the refresh's hand-over (a `set` per turn of the event loop) is still under way
    // when the redraw, planned a slice per turn, hands over its own: it counts turns, not time.
    const [extra, files] = [MOST, 3 * EXTRA_FILES];
    addMany(f, extra, files);
    // The first `set` of the refresh's hand-over is when the settings change (severity mapping,
    // unreachable as information: a redraw of the same findings).
    const { collection } = f.api.app.diagnostics;
    const set = collection.set.bind(collection) as (...args: unknown[]) => void;
    let redrawn = false;
    collection.set = (...args: unknown[]) => {
      set(...args);
      if (!redrawn && appsecDiagnosticCount() > before) {
        redrawn = true;
        f.api.app.diagnostics.redraw();
      }
    };
    undo(() => {
      delete (collection as { set?: unknown }).set;
    });
    const drawingsBefore = f.api.app.log.recent().filter((line) => line.includes('Diagnostics: ')).length;
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const drawings = f.api.app.log.recent().filter((line) => line.includes('Diagnostics: ')).length - drawingsBefore;
    assert.ok(redrawn && drawings >= 2, `the redraw was handed over during the refresh (${drawings} drawings)`);
    const short = Array.from({ length: files }, (_, i) => vscode.Uri.joinPath(f.folder.uri, `src/many/file_${i}.py`)).filter(
      (u) => vscode.languages.getDiagnostics(u).length !== extra / files,
    ).length;
    assert.equal(appsecDiagnosticCount(), before + extra, `all drawn when the refresh resolves (${short} files drawn short)`);
  });

  it('signing out while a large drawing is under way leaves Problems empty', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    addMany(f);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const all = appsecDiagnosticCount();
    assert.ok(all >= EXTRA, `${all} drawn, of ${EXTRA} added and those before`);
    const slug = f.api.app.session.deployment!.slug;
    // The same drawing not cut short: how many turns of the event loop it takes to land (the
    // patched finding's file, in a chunk after the first). A cut-short drawing resolves without a
    // trace, so these turns, passed twice over, are what proves it would have landed by then.
    const control = f.api.app.findings.patch(slug, 'sast', [FIRST_ID + 1], { status: 'ignored' });
    const landing = await turnsUntil(() => appsecDiagnosticCount() === all - 1, 'the patch is drawn');
    control.rollback();
    await waitFor(() => appsecDiagnosticCount() === all, 20_000, 'the undone patch is drawn');
    // The patch starts a drawing of every finding; clearing (what signing out does) comes first.
    const patch = f.api.app.findings.patch(slug, 'sast', [FIRST_ID + 1], { status: 'ignored' });
    f.api.app.diagnostics.clear();
    patch.rollback();
    assert.equal(appsecDiagnosticCount(), 0);
    let turns = 0;
    await turnsUntil(() => appsecDiagnosticCount() > 0 || ++turns > 2 * landing + 10, 'turns passing');
    assert.equal(appsecDiagnosticCount(), 0, `the cut-short drawing never lands (${turns} turns; the same drawing lands in ${landing})`);
  });
});

describe('diagnostic links', () => {
  it('a link built on a shared prefix is the same Uri as the link parsed whole; others are checked as before', () => {
    const links = [
      'https://semgrep.dev/orgs/acme/findings/123',
      'https://semgrep.dev/orgs/acme/findings/124',
      'https://semgrep.dev/orgs/acme%20corp/supply-chain/9',
      'http://127.0.0.1:4100/base/orgs/x/secrets/77',
      'https://semgrep.dev/orgs/acme/findings/123?ref=main',
      'https://host/x?page=/1',
      'https://host/x#/42',
      'https://github.com/o/r/blob/abc/src/a.py#L12',
      'https://semgrep.dev/orgs/acme/findings/0123',
      'https://semgrep.dev/orgs/acme/findings/1234567890123456789',
    ];
    const linkTarget = (link: string | undefined): vscode.Uri | undefined => codeLink('rule', link)?.target;
    for (const link of links) {
      // As shown (decoded) and as opened (encoded): the same either way, and as the cache keeps it.
      assert.equal(linkTarget(link)?.toString(true), vscode.Uri.parse(link, true).toString(true), link);
      assert.equal(linkTarget(link)?.toString(), vscode.Uri.parse(link, true).toString(), link);
      assert.equal(codeLink('rule', link)?.text(), vscode.Uri.parse(link, true).toString(), link);
    }
    assert.equal(linkTarget('javascript:alert(1)//5'), undefined, 'not http(s): no link');
    assert.equal(linkTarget('command:appsecFindings.signOut/5'), undefined);
    assert.equal(linkTarget(undefined), undefined);
  });
});
