// The next start shows the last session's findings before the platform answers: the findings of
// the workspace's projects are kept on disk after a refresh, come back as diagnostics at once
// (marked as of their time) while every answer is slow, and are replaced when the answer comes.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KeptOnDisk } from '../../../src/diagnostics/cache-keeping';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { signedIn, type Fixture } from './fixture';
import { appsecDiagnosticCount, restoreAfterEach, waitFor } from './helpers';

// The extension's diagnostics carry their finding (the suite's bundle has its own copy of the class, so no instanceof).
const withFinding = (d: vscode.Diagnostic): d is KnownFindingDiagnostic => (d as { finding?: unknown }).finding !== undefined;

/** Refreshes and waits until the cache keeps its answers (written, or the same as written); resolves with what it came to. */
async function refreshKept(f: Fixture): Promise<KeptOnDisk> {
  let kept: KeptOnDisk | undefined;
  const listening = f.api.app.onDidKeepFindings((k) => {
    kept = k;
  });
  try {
    await vscode.commands.executeCommand('appsecFindings.refresh');
    await waitFor(() => kept !== undefined, 10_000, 'the findings are kept on disk after the refresh');
    return kept!;
  } finally {
    listening.dispose();
  }
}

/** Refreshes and waits until the findings are kept on disk; resolves with the diagnostics shown. */
async function refreshedAndKept(f: Fixture): Promise<number> {
  await refreshKept(f);
  return appsecDiagnosticCount();
}

describe('the findings cache', () => {
  afterEach(async () => {
    const f = await signedIn();
    f.server.setLatency(0);
  });
  const undo = restoreAfterEach();

  it('a start with a slow platform shows the cached diagnostics at once, then the fresh ones', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const shownBefore = await refreshedAndKept(f);
    assert.ok(shownBefore > 0);

    // A new session: nothing in memory, and the platform takes 5 s to answer anything.
    f.api.app.findings.clear();
    f.api.app.diagnostics.clear();
    assert.equal(appsecDiagnosticCount(), 0);
    f.server.setLatency(5_000);
    const mark = f.server.requests.length;
    assert.equal(await f.api.app.startFromCache(), true);
    const shownFromCache = appsecDiagnosticCount();
    assert.equal(shownFromCache, shownBefore, 'the same diagnostics, before any answer');
    assert.equal(f.server.requests.length, mark, 'without a request');
    assert.match(f.api.statusBar.text, /^\$\(history\)/);
    assert.match(f.api.statusBar.tooltip, /As of .* \(from the last session; refreshing\)/);

    f.server.setLatency(0);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.match(f.api.statusBar.text, /^\$\(shield\)/, "replaced by the platform's answer");
    assert.doesNotMatch(f.api.statusBar.tooltip, /As of/);
  });

  it('a refresh already waiting for a slow platform does not keep the cached diagnostics from showing', async function () {
    // As at a start where git reports the branch (which starts a refresh) before the cache is read.
    this.timeout(60_000);
    const f = await signedIn();
    const shownBefore = await refreshedAndKept(f);

    f.api.app.findings.clear();
    f.api.app.diagnostics.clear();
    f.server.setLatency(5_000);
    const mark = f.server.requests.length;
    const refreshing = Promise.resolve(vscode.commands.executeCommand('appsecFindings.refresh'));
    await waitFor(() => f.server.requests.slice(mark).some((r) => r.path.endsWith('/findings')), 10_000, 'the refresh asked for findings');
    assert.equal(await f.api.app.startFromCache(), true, 'the cache is shown though a refresh is under way');
    assert.equal(appsecDiagnosticCount(), shownBefore, 'every cached diagnostic, before any answer');
    assert.match(f.api.statusBar.tooltip, /As of .* \(from the last session; refreshing\)/);

    await refreshing;
    assert.match(f.api.statusBar.text, /^\$\(shield\)/, "replaced by the platform's answer");
    assert.doesNotMatch(f.api.statusBar.tooltip, /As of/);
    assert.equal(appsecDiagnosticCount(), shownBefore);
  });

  it('a start draws what Problems showed before the findings are read, then gives each diagnostic its finding', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    // A start knows no finding's trace yet (an earlier test may have read some in this window):
    // the session kept on disk is one that read none, so its diagnostics are what the start draws.
    f.api.app.stories.clear();
    const cacheDir = join(f.api.context.globalStorageUri.fsPath, 'findings-cache');
    const shownFile = (): string | undefined => (existsSync(cacheDir) ? readdirSync(cacheDir).find((n) => n.endsWith('.shown.json')) : undefined);
    await refreshedAndKept(f);
    assert.ok(shownFile(), 'what Problems shows is kept');
    const ours = (): (vscode.Diagnostic & { finding?: unknown })[] =>
      vscode.languages.getDiagnostics().flatMap(([, list]) => list.filter((d) => d.source === 'AppSec'));
    const described = (): string[] =>
      vscode.languages
        .getDiagnostics()
        .flatMap(([uri, list]) =>
          list
            .filter((d) => d.source === 'AppSec')
            .map(
              (d) =>
                `${uri.toString()}:${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}:${d.severity}:${d.message}`,
            ),
        )
        .sort();
    const before = described();
    // Writing the links down leaves the shown ones unformatted (see the check below).
    const linksOf = (): Record<string, unknown>[] =>
      ours().flatMap((d) => (typeof d.code === 'object' ? [JSON.parse(JSON.stringify(d.code.target)) as Record<string, unknown>] : []));
    assert.ok(linksOf().length > 0, 'the diagnostics link to their findings');
    assert.deepEqual(
      linksOf().filter((link) => 'external' in link),
      [],
      'no shown link formatted by writing it down',
    );
    const shownText = readFileSync(join(cacheDir, shownFile() ?? ''), 'utf8');
    assert.ok(!shownText.includes(f.server.token), 'the token is never written');

    // The last session showed one message that the findings no longer draw: that file is drawn again.
    const newline = shownText.indexOf('\n');
    // A head line with the string table, then a line per segment of files.
    const [headLine, ...segmentLines] = shownText.slice(newline + 1).split('\n');
    const head = JSON.parse(headLine) as { strings: string[] };
    const body = { strings: head.strings, files: segmentLines.flatMap((line) => JSON.parse(line) as [number, number[]][]) };
    const firstMessage = ours()[0].message;
    const at = body.strings.indexOf(firstMessage);
    assert.ok(at >= 0, 'messages are kept as shown');
    body.strings[at] = 'A message of the last session';
    const path = join(cacheDir, shownFile() ?? '');
    writeFileSync(path, [`${shownText.slice(0, newline + 1)}${JSON.stringify(head)}`, ...segmentLines].join('\n'));

    f.api.app.findings.clear();
    f.api.app.diagnostics.clear();
    f.server.setLatency(5_000);
    const mark = f.server.requests.length;
    // Every file handed to VS Code during the start, with whether its diagnostics knew their findings.
    const { collection } = f.api.app.diagnostics;
    const handed: { uri: string; withFindings: boolean }[] = [];
    const set = collection.set.bind(collection) as (...args: unknown[]) => void;
    // Until the findings' drawing is announced: a redraw after it (the mapping onto today's code,
    // known already when an earlier test in this window mapped it) is another matter.
    let recording = true;
    const announced = f.api.app.diagnostics.onDidChange(() => {
      recording = false;
    });
    const note = (uri: vscode.Uri, list: readonly (vscode.Diagnostic & { finding?: unknown })[] | undefined): void => {
      if (recording && list && list.length > 0) handed.push({ uri: uri.toString(), withFindings: list.every((d) => d.finding !== undefined) });
    };
    const putBack = (): void => {
      collection.set = set;
      announced.dispose();
    };
    undo(putBack);
    collection.set = ((first: vscode.Uri | readonly [vscode.Uri, vscode.Diagnostic[] | undefined][], list?: vscode.Diagnostic[]) => {
      if (first instanceof vscode.Uri) note(first, list);
      else for (const [uri, diagnostics] of first) note(uri, diagnostics);
      set(first, list);
    }) as typeof collection.set;
    assert.equal(await f.api.app.startFromCache(), true);
    putBack();
    // The files the kept drawing shows otherwise than the findings now draw them: the one with the
    // stale message, and any the mapping onto today's code moved after it was kept (earlier tests
    // in this window edit files).
    const keptOf = (file: [number, number[]]): string[] => {
      const uri = body.strings[file[0]];
      const out: string[] = [];
      for (let at = 0; at < file[1].length; at += 15) {
        const [sl, sc, el, ec, severity, message] = file[1].slice(at, at + 6);
        out.push(`${uri}:${sl}:${sc}-${el}:${ec}:${severity}:${body.strings[message]}`);
      }
      return out.sort();
    };
    const now = described();
    const otherwise = body.files
      .filter((file) => JSON.stringify(keptOf(file)) !== JSON.stringify(now.filter((line) => line.startsWith(`${body.strings[file[0]]}:`))))
      .map((file) => body.strings[file[0]]);
    // Files open in editors (earlier tests leave documents open) are drawn first from their own part, with findings.
    const openDocuments = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    const open = body.files.map((file) => body.strings[file[0]]).filter((uri) => openDocuments.has(uri));
    const drawnFirst = new Set(handed.filter((h) => !h.withFindings).map((h) => h.uri));
    assert.equal(drawnFirst.size, body.files.length - open.length, 'every other file drawn first as the last session showed it');
    assert.ok(
      otherwise.length > 0 && otherwise.length + open.length < body.files.length,
      `${otherwise.length} of ${body.files.length} files shown otherwise, ${open.length} open`,
    );
    assert.deepEqual(
      [...new Set(handed.filter((h) => h.withFindings).map((h) => h.uri))].sort(),
      [...new Set([...otherwise, ...open])].sort(),
      'then only the files it showed otherwise are handed over again; the others are given their findings',
    );
    assert.deepEqual(described(), before, 'the same diagnostics, the stale message drawn again from the findings');
    assert.equal(ours().filter((d) => d.finding === undefined).length, 0, 'each diagnostic knows its finding (hover, quick fixes)');
    assert.equal(f.server.requests.length, mark, 'without a request');
    // The check compares links by their parts: formatting them would make every kept link keep
    // its text for as long as it is shown (VS Code's Uri caches it).
    assert.deepEqual(
      linksOf().filter((link) => 'external' in link),
      [],
      'no link formatted by the check',
    );

    f.server.setLatency(0);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.deepEqual(described(), before);
  });

  it("the open files' findings are kept apart and drawn from that part before the rest is read", async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const appsec = (uri: vscode.Uri): string[] =>
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.source === 'AppSec')
        .map((d) => `${d.range.start.line}:${d.message}`);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    // Two files with findings that no earlier test left open (a document stays open a while after its editor closes).
    const alreadyOpen = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    const drawn = vscode.languages
      .getDiagnostics()
      .filter(([uri, list]) => uri.scheme === 'file' && !alreadyOpen.has(uri.toString()) && existsSync(uri.fsPath) && list.some((d) => d.source === 'AppSec'))
      .map(([uri]) => uri);
    assert.ok(drawn.length >= 2, 'findings in two files at least');
    const [open, other] = drawn;
    const openDiagnostics = appsec(open);
    await vscode.window.showTextDocument(open);
    // The part is written a moment after the editors change (it may be before showTextDocument
    // resolves, and an earlier write may land meanwhile): waited for until it holds the open file.
    const cacheDir = join(f.api.context.globalStorageUri.fsPath, 'findings-cache');
    const partFile = (): string | undefined => (existsSync(cacheDir) ? readdirSync(cacheDir).find((n) => n.endsWith('.open.json')) : undefined);
    const relative = (uri: vscode.Uri): string => vscode.workspace.asRelativePath(uri, false);
    const partText = (): string => {
      const name = partFile();
      return name === undefined ? '' : readFileSync(join(cacheDir, name), 'utf8');
    };
    await waitFor(() => partText().includes(JSON.stringify(relative(open))), 10_000, "the open file's part is written, with its findings");
    assert.ok(!partText().includes(JSON.stringify(relative(other))), "no other file's");

    // Drawn from that part alone: the open file as before, nothing else, nothing announced.
    const part = f.api.app.cachedStart.openAnswers(5000);
    const statusBefore = f.api.statusBar.text;
    f.api.app.findings.clear();
    f.api.app.diagnostics.clear();
    const statusCleared = f.api.statusBar.text;
    assert.equal(f.api.app.cachedStart.previewCached(part), true);
    assert.deepEqual(appsec(open), openDiagnostics);
    assert.deepEqual(appsec(other), []);
    assert.equal(f.api.statusBar.text, statusCleared, 'the status bar waits for the whole');
    // When the whole cannot be used, the part does not stay on its own.
    f.api.app.cachedStart.dropPreview();
    assert.deepEqual(appsec(open), []);

    // A start draws the part, then the whole over it.
    f.server.setLatency(5_000);
    assert.equal(await f.api.app.startFromCache(), true);
    assert.deepEqual(appsec(open), openDiagnostics);
    assert.ok(appsec(other).length > 0);
    f.server.setLatency(0);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(f.api.statusBar.text, statusBefore);
  });

  it('a refresh that changes nothing hands nothing to VS Code and writes nothing to disk; a changed finding is drawn and kept', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    await refreshKept(f);
    const cacheDir = join(f.api.context.globalStorageUri.fsPath, 'findings-cache');
    const onDisk = (): string[] =>
      readdirSync(cacheDir)
        .map((name) => `${name} written at ${statSync(join(cacheDir, name)).mtimeMs}`)
        .sort();
    const before = onDisk();
    assert.ok(
      before.some((line) => line.includes('.shown.json')),
      `the findings and what Problems shows are on disk: ${before.join(', ')}`,
    );
    // Every file handed to VS Code from here on.
    const { collection } = f.api.app.diagnostics;
    const handed: string[] = [];
    const set = collection.set.bind(collection) as (...args: unknown[]) => void;
    const remove = collection.delete.bind(collection);
    undo(() => {
      collection.set = set;
      collection.delete = remove;
    });
    collection.set = (first: vscode.Uri | readonly [vscode.Uri, unknown][], list?: vscode.Diagnostic[]) => {
      for (const uri of first instanceof vscode.Uri ? [first] : first.map(([u]) => u)) handed.push(vscode.workspace.asRelativePath(uri));
      set(first, list);
    };
    collection.delete = (uri) => {
      handed.push(vscode.workspace.asRelativePath(uri));
      remove(uri);
    };
    const shown = appsecDiagnosticCount();

    assert.equal(await refreshKept(f), 'unchanged', 'the cache is found the same as written');
    assert.deepEqual(handed, [], 'no file is handed to VS Code');
    assert.deepEqual(onDisk(), before, 'no cache file is written');
    assert.equal(appsecDiagnosticCount(), shown, 'Problems shows what it showed');

    // One finding moves a line down on the platform (a new scan): its file alone is drawn again, and kept.
    const [uri, diagnostic] =
      vscode.languages.getDiagnostics().flatMap(([u, list]) =>
        list
          .filter(withFinding)
          .filter((d) => d.finding.issueType === 'sast')
          .map((d) => [u, d] as const),
      )[0] ?? [];
    assert.ok(uri && diagnostic, 'a code finding is shown');
    const stored = f.data.sast.find((x) => x.id === diagnostic.finding.id);
    const location = stored?.location;
    assert.ok(stored && location && typeof location.line === 'number', "the shown finding is the platform's, with its line");
    undo(() => {
      stored.location = location;
    });
    stored.location = { ...location, line: location.line + 1, ...(location.end_line !== undefined ? { end_line: location.end_line + 1 } : {}) };
    const lineOf = (): number | undefined =>
      vscode.languages
        .getDiagnostics(uri)
        .filter(withFinding)
        .find((d) => d.finding.id === diagnostic.finding.id)?.range.start.line;
    const kept = await refreshKept(f);
    assert.equal(lineOf(), diagnostic.range.start.line + 1, 'Problems shows the finding a line down');
    assert.deepEqual([...new Set(handed)], [vscode.workspace.asRelativePath(uri)], "only the changed finding's file is handed over");
    assert.equal(kept, 'written', 'the changed answer is written');
    assert.notDeepEqual(onDisk(), before, 'the cache is written');
  });
});
