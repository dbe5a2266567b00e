/**
 * Draws the workspace view's snapshots into the one DiagnosticCollection. It decides nothing
 * about what is shown: it places each finding in today's code (drift through commits and edits),
 * builds its diagnostic and hands them over without freezing the host (in chunks when there are
 * many: `diagnostics-publisher.ts`). Each drawing names every file, those that dropped to zero
 * findings with no diagnostics, so nothing stale stays. Listeners (the badge, the status bar,
 * the cache writer) hear each snapshot once, when it is handed over.
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import { nextTurn } from '../core/slices';
import { DiagnosticsPublisher } from './diagnostics-publisher';
import { DIAGNOSTIC_SOURCE, toDiagnostic, type FindingDiagnostic } from './finding-diagnostic';
import { EarlyFiles, findingDiagnosticsOf } from './early-files';
import { keepWhatIsShown } from './shown-diagnostics';
import { KeptDrawing } from './kept-drawing';
import { planSettings, type RendererDeps, type ShownSnapshot, type WorkspaceFolderFindings } from './renderer-deps';
import { SnapshotAnnouncer } from './snapshot-announcer';
import { describePlanned, placeSources, planDrawing, PLAN_SLICE, type FileSource, type Placed, type Planned, type Preview } from './drawing-plan';

export class ProblemsRenderer implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly publisher = new DiagnosticsPublisher(this.collection);
  /** The files given diagnostics (their URIs as strings), so the next drawing empties those it leaves out. */
  private readonly shownUris = new Set<string>();
  /** Files drawn at a start before any snapshot (`drawEarly`, `drawRemembered`), until a drawing replaces them. */
  private readonly early = new EarlyFiles();
  /** By today's file: the diagnostics drawn there, kept to redraw one document as it is edited. */
  private sources = new Map<string, FileSource[]>();
  /** The snapshot handed over last. */
  private drawn: ShownSnapshot = { version: 0, cause: 'cleared', folders: [] };
  /** The drawing asked for last: one still planning gives up when another is asked for. */
  private request: object = {};
  /** The drawing still planning or handing over in turns of its own, if any. */
  private underWay: object | undefined;
  /** Counts changes of what a drawing is placed and built with (where findings are today, the settings). */
  private inputs = 0;
  /** What the last drawing planned per scanned file, for the next one to keep what is the same. */
  private readonly kept = new KeptDrawing();
  /** The latest drawing: what a superseded one resolves with. */
  private showing: Promise<void> = Promise.resolve();
  private readonly announcer = new SnapshotAnnouncer();
  /** Fires once per snapshot, when Problems shows it. */
  readonly onDidChange = this.announcer.event;
  private readonly following: vscode.Disposable[];

  constructor(private readonly deps: RendererDeps) {
    this.following = [
      deps.view.attach((snapshot) => this.draw(snapshot)),
      deps.places.drift.onDidChangePlaces(() => this.redraw()),
      deps.places.onDidResolveCommit(() => this.redraw()),
      deps.places.drift.onDidEditDocument((uri) => this.redrawDocument(uri)),
    ];
  }

  /** What Problems shows, per folder. */
  get current(): readonly WorkspaceFolderFindings[] {
    return this.drawn.folders;
  }

  /** Why Problems shows what it shows: a refresh's whole answer, a load's first pages, the cache, … */
  get currentCause(): ShownSnapshot['cause'] {
    return this.drawn.cause;
  }

  /** The diagnostics of one file, as drawn (a document edited is drawn again from them). */
  sourcesOf(key: string): readonly FileSource[] {
    return this.sources.get(key) ?? [];
  }

  /** Where findings are today, or the settings they are drawn with, changed: the same snapshot is drawn again (nothing is loaded). */
  redraw(): void {
    this.inputs++;
    this.drawLatest();
  }

  /**
   * Draws the latest snapshot, unless what is under way will: while the view loads, what it
   * publishes is drawn with today's inputs; a drawing under way draws again when it ends if its
   * inputs changed meanwhile (restarting it would throw its slices away).
   */
  private drawLatest(): void {
    if (this.deps.view.loading || this.underWay) return;
    const snapshot = this.deps.view.snapshot;
    if (snapshot.folders.length > 0 || this.drawn.folders.length > 0) void this.draw(snapshot);
  }

  /** One document was edited (or a finding's trace was read): only its diagnostics are built again, work per finding of that file. */
  redrawDocument(uri: vscode.Uri): void {
    const sources = this.sources.get(uri.toString());
    if (!sources) return;
    const { mapping, options } = planSettings(this.deps);
    const diagnostics = placeSources(this.deps.places, sources, mapping, options).map((p) => this.diagnosticOf(p));
    this.collection.set(uri, diagnostics);
    this.publisher.redrew(uri);
    this.kept.drewAlone(uri.toString());
  }

  /**
   * Plans a drawing with today's settings (see drawing-plan.ts); with the drawing's `inputs`, the
   * files the last drawing drew the same are kept rather than planned.
   */
  plan(folders: readonly WorkspaceFolderFindings[], inputs?: number): Generator<Preview | undefined, Planned, void> {
    const traced = (finding: Finding): boolean => this.deps.traceRelated?.(finding) !== undefined;
    return planDrawing(folders, {
      places: this.deps.places,
      log: this.deps.log,
      ...planSettings(this.deps),
      traced,
      ...(inputs === undefined ? {} : this.kept.previousFor(inputs)),
    });
  }

  /**
   * Draws a snapshot; resolves when every diagnostic is handed to VS Code (the open files'
   * first). Findings are planned and placed in slices with a turn of the event loop between
   * them, so tens of thousands never hold the extension host for long. A later drawing
   * supersedes one still planning or handing over: the earlier one then resolves with the later
   * one, so what waits on a refresh never reads Problems while the rest is on its way.
   */
  private draw(snapshot: ShownSnapshot): Promise<void> {
    if (snapshot.folders.length === 0) return (this.showing = this.clearDrawn(snapshot));
    const request = (this.request = {});
    const inputs = this.inputs;
    const steps = this.plan(snapshot.folders, inputs);
    // A drawing of one slice (a triage, a small project) is done at once, as the user acted. A
    // bigger one starts on a turn of its own: it is asked for in the turn a load's last page was
    // decoded and indexed, and planning in that turn makes the refresh's longest stall
    // (docs/performance.md, "Drawing diagnostics").
    const big = snapshot.folders.reduce((n, folder) => n + folder.findings.length, 0) > PLAN_SLICE;
    let step = big ? undefined : steps.next();
    if (step?.done) {
      this.underWay = undefined;
      this.requestPlaces(step.value);
      const published = this.handOver(snapshot, step.value, inputs, request);
      this.announcer.announce(snapshot);
      return (this.showing = published);
    }
    const superseded = (): boolean => request !== this.request;
    this.underWay = request;
    const drawing = (async (): Promise<void> => {
      if (!step) {
        await nextTurn();
        if (superseded()) return this.showing;
        step = steps.next();
      }
      while (!step.done) {
        if (step.value) this.preview(step.value);
        await nextTurn();
        if (superseded()) return this.showing;
        step = steps.next();
      }
      // With tens of thousands of findings, the hand-over, the mapping onto today's code (it
      // starts git) and each listener take milliseconds each: each gets a turn of its own.
      const planned = step.value;
      await nextTurn();
      if (superseded()) return this.showing;
      const published = this.handOver(snapshot, planned, inputs, request);
      await nextTurn();
      if (superseded()) return this.showing;
      this.requestPlaces(planned);
      const announcing = this.announcer.announceInTurns(snapshot);
      if (announcing) await announcing;
      if (this.underWay === request) this.underWay = undefined;
      if (this.inputs !== inputs) this.drawLatest();
      return published;
    })();
    this.showing = drawing;
    return drawing;
  }

  /** Hands a planned drawing to VS Code (the first chunk now) and makes it the one shown (see `draw`; a start's remembered files have no request). */
  private handOver(snapshot: ShownSnapshot, planned: Planned, inputs: number, request: object): Promise<void> {
    this.sources = planned.sources;
    const entries: [vscode.Uri, Placed[] | undefined][] = [...planned.byUri.values()];
    for (const old of this.shownUris) if (!planned.byUri.has(old) && !planned.kept.has(old)) entries.push([vscode.Uri.parse(old), undefined]);
    this.early.clear();
    // What this drawing keeps is what VS Code has only once every file of it is handed over.
    this.kept.handingOver(planned.byUri.keys());
    const published = this.publisher
      .publish(entries, (p) => this.diagnosticOf(p), keepWhatIsShown(this.collection))
      .then((whole) => {
        if (whole && this.sources === planned.sources) this.kept.handedOver(planned.paths, inputs);
        return whole || this.request === request ? undefined : this.showing;
      });
    this.shownUris.clear();
    for (const key of [...planned.byUri.keys(), ...planned.kept.keys()]) this.shownUris.add(key);
    this.drawn = snapshot;
    this.deps.log.info(`Diagnostics: ${describePlanned(planned)} of ${snapshot.folders.length} folders`);
    return published;
  }

  /** Shows diagnostics before the rest is planned (the full hand-over draws them again). */
  preview(entries: Preview): void {
    // A drawing superseded after its preview leaves those files as no record says.
    if (entries.length > 0) this.kept.forget();
    for (const [uri, placed] of entries) {
      this.collection.set(
        uri,
        placed.map((p) => this.diagnosticOf(p)),
      );
      // Older chunks still being handed over must not undo it; a newer drawing clears it if gone.
      this.publisher.redrew(uri);
      this.shownUris.add(uri.toString());
    }
  }

  /** Draws, at a start, the part of the cache kept for the files that were open (`takeBackEarly` undoes it). */
  drawEarly(entries: Preview): void {
    this.preview(entries);
    for (const [uri] of entries) this.early.add(uri, false);
  }

  /**
   * Draws what the last session showed, read back from disk before the findings behind it (the
   * first hand-over keeps the files it would draw the same). Resolves once all is handed to VS
   * Code, `chunk` diagnostics at most per turn.
   */
  drawRemembered(files: readonly (readonly [vscode.Uri, FindingDiagnostic[]])[], chunk: number): Promise<void> {
    for (const [uri] of files) this.shownUris.add(this.early.add(uri, true));
    return this.publisher.publish(files, (d) => d, undefined, chunk).then(() => undefined);
  }

  /** The files drawn early and not replaced since (their URIs as strings). */
  get earlyFiles(): ReadonlySet<string> {
    return this.early.files;
  }

  /** Takes back what was drawn early and not replaced since (the cache turned out unusable). */
  takeBackEarly(): void {
    for (const key of this.early.takeBack(this.collection)) this.shownUris.delete(key);
  }

  /** What Problems shows per file, for keeping on disk; undefined while part of it does not know its findings. */
  findingDiagnostics(): [string, vscode.Diagnostic[]][] | undefined {
    return this.early.unattached ? undefined : findingDiagnosticsOf(this.collection);
  }

  private diagnosticOf(p: Placed): vscode.Diagnostic {
    // Drift facts only where the diagnostic moved or its code changed: the hover finds the commit
    // of the others itself, and an object per diagnostic saying "not moved" costs memory.
    const moved = p.changed || p.scannedLine !== p.planned.range.startLine;
    return toDiagnostic(
      p.planned,
      p.folder,
      this.deps.findingUrl,
      moved ? { changed: p.changed, commit: p.commit, scannedLine: p.scannedLine } : undefined,
      this.deps.traceRelated?.(p.planned.finding),
    );
  }

  /** Maps the drawn files onto today's code, in the background; it draws again when done. */
  private requestPlaces(planned: Planned): void {
    for (const { folder, commit, paths } of planned.wanted) this.deps.places.drift.ensure(folder, commit, paths);
  }

  /** Empties Problems (nothing to show). */
  private clearDrawn(snapshot: ShownSnapshot): Promise<void> {
    this.request = {};
    this.kept.forget();
    this.underWay = undefined;
    this.sources.clear();
    this.publisher.cancel();
    this.collection.clear();
    this.shownUris.clear();
    this.early.clear();
    this.drawn = snapshot;
    this.announcer.announce(snapshot);
    return Promise.resolve();
  }

  /** Shows nothing until the next refresh (tests, benchmarks). */
  clear(): void {
    this.deps.view.clear();
  }

  dispose(): void {
    for (const d of this.following) d.dispose();
    this.collection.dispose();
    this.announcer.dispose();
  }
}
