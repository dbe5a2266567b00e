// Handing many diagnostics to VS Code: the open file's first, in chunks with the event loop
// turning between them, a newer publication replacing an older one, and a file redrawn on its
// own (an edit) never overwritten by a chunk of an older drawing. A real DiagnosticCollection.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DiagnosticsPublisher } from '../../../src/diagnostics/diagnostics-publisher';
import { fixture } from './fixture';

const range = new vscode.Range(0, 0, 0, 1);
const diagnostic = (n: number): vscode.Diagnostic => new vscode.Diagnostic(range, `finding ${n}`);

describe('diagnostics publisher', () => {
  let collection: vscode.DiagnosticCollection;
  let files: vscode.Uri[];
  beforeEach(async () => {
    const f = await fixture();
    collection = vscode.languages.createDiagnosticCollection('publisher-test');
    files = Array.from({ length: 12 }, (_, i) => vscode.Uri.joinPath(f.folder.uri, `publisher-${i}.txt`));
  });
  afterEach(() => collection.dispose());

  /** The collection, with each `set` call recorded (its files, its size, the turn it came in), and made to take `setMs`. */
  const recording = (setMs = 0) => {
    const calls = { files: [] as string[][], sizes: [] as number[], turns: [] as number[] };
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const spy = new Proxy(collection, {
      get(target, prop, receiver) {
        if (prop === 'set') {
          return (entries: [vscode.Uri, unknown[] | undefined][]) => {
            calls.files.push(entries.map(([u]) => u.toString()));
            calls.sizes.push(entries.reduce((n, [, list]) => n + (list?.length ?? 0), 0));
            calls.turns.push(turns);
            const until = performance.now() + setMs;
            while (performance.now() < until) {
              /* VS Code busy serializing */
            }
            target.set(entries as never);
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    return { spy, calls, stop: () => clearInterval(ticking) };
  };
  const thousandEach = (): [vscode.Uri, number[]][] => files.map((uri, i) => [uri, Array.from({ length: 1000 }, (_, k) => i * 1000 + k)]);

  it('many diagnostics: the visible file first, in chunks, the host free between them', async () => {
    const visible = files[11];
    await vscode.workspace.fs.writeFile(visible, Buffer.from('x\n'));
    await vscode.window.showTextDocument(visible);
    const { spy, calls, stop } = recording();
    // No time budget here: the chunk alone decides.
    await new DiagnosticsPublisher(spy, 3000, Number.POSITIVE_INFINITY).publish(thousandEach(), diagnostic);
    stop();
    assert.equal(new Set(calls.turns).size, 4, '12 000 diagnostics in chunks of at most 3 000: four turns');
    // VS Code passes on to the window only about 1 100 diagnostics of one set call.
    assert.ok(
      calls.sizes.every((n) => n <= 1000),
      `each set carries at most 1 000: ${calls.sizes.join(', ')}`,
    );
    assert.equal(calls.files[0]?.[0], visible.toString(), 'the visible file comes first');
    for (const [i, uri] of files.entries())
      assert.equal(vscode.languages.getDiagnostics(uri).filter((d) => d.message.startsWith('finding')).length, 1000, `file ${i}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('when VS Code is slow to take a set, the turn is given away after it, whatever the chunk allows', async () => {
    const { spy, calls, stop } = recording(15);
    await new DiagnosticsPublisher(spy, 3000).publish(thousandEach(), diagnostic);
    stop();
    assert.equal(calls.sizes.length, 12);
    assert.equal(new Set(calls.turns).size, 12, `one set per turn: turns ${calls.turns.join(', ')}`);
    for (const uri of files) assert.equal(vscode.languages.getDiagnostics(uri).length, 1000);
  });

  it('a newer publication replaces one under way; a file redrawn meanwhile keeps its own drawing', async () => {
    const publisher = new DiagnosticsPublisher(collection, 1000);
    const many: [vscode.Uri, number[]][] = files.map((uri) => [uri, Array.from({ length: 900 }, (_, k) => k)]);
    const first = publisher.publish(many, diagnostic);
    const second = publisher.publish(
      files.slice(0, 2).map((uri) => [uri, [7]] as const),
      diagnostic,
    );
    await Promise.all([first, second]);
    assert.deepEqual(
      vscode.languages.getDiagnostics(files[0]).map((d) => d.message),
      ['finding 7'],
    );

    const third = publisher.publish(
      files.map((uri) => [uri, Array.from({ length: 600 }, (_, k) => k)] as const),
      diagnostic,
    );
    const edited = files[10];
    collection.set(edited, [new vscode.Diagnostic(range, 'redrawn after an edit')]);
    publisher.redrew(edited);
    await third;
    assert.deepEqual(
      vscode.languages.getDiagnostics(edited).map((d) => d.message),
      ['redrawn after an edit'],
    );
    assert.equal(vscode.languages.getDiagnostics(files[9]).length, 600);
  });

  it('a few diagnostics go in one hand-over; an entry without diagnostics clears its file', async () => {
    const publisher = new DiagnosticsPublisher(collection, 2500);
    await publisher.publish(
      [
        [files[0], [1, 2]],
        [files[1], [3]],
      ],
      diagnostic,
    );
    assert.equal(vscode.languages.getDiagnostics(files[0]).length, 2);
    await publisher.publish(
      [
        [files[0], undefined],
        [files[1], [3]],
      ],
      diagnostic,
    );
    assert.equal(vscode.languages.getDiagnostics(files[0]).length, 0);
    assert.equal(vscode.languages.getDiagnostics(files[1]).length, 1);
  });
});
