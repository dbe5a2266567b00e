/**
 * SBOM exports: start a job (never retried blindly: a retry could start a second job), follow
 * its status with a backing-off poll (one request at a time, given up after a while), and fetch
 * the finished document, checked to be what the format promises. Keeps a history the host
 * persists, so a window reload resumes the jobs still running.
 */
import { raceAbort } from './abort';
import { sleep } from '../api/retry';
import { Emitter, type Disposable } from '../events';
import type { SbomExportRequest, SbomExportStatus, SbomOutputFormat } from '../model/sbom';
import { checkSbomDocument, sbomFileName } from './sbom-document';
import type { PlatformApi } from './platform-api';
import { said } from '../l10n';

export interface SbomExportRecord {
  readonly taskToken: string;
  readonly projectName: string;
  readonly ref: string;
  readonly format: string;
  /** Absent in records of earlier versions (they were all followed to the browser). */
  readonly outputFormat?: SbomOutputFormat;
  readonly startedAt: string;
  readonly state: string;
  readonly downloadUrl?: string;
  readonly errorMessage?: string;
  /** Set when polling gave up while the job still ran: not resumed on reload, checked on request. */
  readonly stalled?: boolean;
  /** Where the document was last saved. */
  readonly savedTo?: string;
}

/** Waits 1 s, then twice as long each time up to 30 s; gives up after 10 minutes. */
export interface SbomPollPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly giveUpAfterMs: number;
}

export const DEFAULT_POLL: SbomPollPolicy = { firstDelayMs: 1000, maxDelayMs: 30_000, giveUpAfterMs: 10 * 60_000 };
export const HISTORY_LIMIT = 20;
/** SBOMs of large monorepos run to tens of megabytes; a cap keeps a wrong link from filling memory. */
export const MAX_SBOM_BYTES = 256 * 1024 * 1024;

export const isFinal = (state: string): boolean => state === 'SBOM_EXPORT_STATUS_COMPLETED' || state === 'SBOM_EXPORT_STATUS_FAILED';

/** Time as the poll sees it; tests pass a fake one to check the back-off without waiting. */
export interface SbomClock {
  now(): number;
  wait(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

export class SbomStalledError extends Error {}

export class SbomService implements Disposable {
  private records: SbomExportRecord[];
  private readonly following = new Map<string, Promise<SbomExportRecord>>();
  private readonly changed = new Emitter<readonly SbomExportRecord[]>();
  /** Fires with the whole history after every change (the host persists it). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly api: () => PlatformApi,
    private readonly deploymentId: () => string | undefined,
    history: readonly SbomExportRecord[] = [],
    private readonly poll: SbomPollPolicy = DEFAULT_POLL,
    private readonly clock: SbomClock = { now: Date.now, wait: sleep },
  ) {
    this.records = [...history];
  }

  get history(): readonly SbomExportRecord[] {
    return this.records;
  }

  /** Jobs a reload should go on following: still running, not given up. */
  get pending(): readonly SbomExportRecord[] {
    return this.records.filter((r) => !isFinal(r.state) && !r.stalled);
  }

  async start(projectName: string, request: SbomExportRequest, signal?: AbortSignal): Promise<SbomExportRecord> {
    const id = this.requireDeployment();
    const taskToken = await this.api().createSbomExport(id, request, { signal });
    const record: SbomExportRecord = {
      taskToken,
      projectName,
      ref: request.ref,
      format: `${request.outputFormat} ${request.cycloneDxVersion}`,
      outputFormat: request.outputFormat,
      startedAt: new Date(this.clock.now()).toISOString(),
      state: 'SBOM_EXPORT_STATUS_IN_PROGRESS',
    };
    this.upsert(record);
    return record;
  }

  /**
   * Polls until the job is final, the policy gives up (SbomStalledError, the record marked
   * stalled), or `signal` aborts. A job already followed is not polled twice: the caller shares
   * the running follow (its own `signal` then only stops its own wait).
   */
  follow(taskToken: string, signal?: AbortSignal, onStatus?: (status: SbomExportStatus) => void): Promise<SbomExportRecord> {
    const running = this.following.get(taskToken);
    if (running) return signal ? raceAbort(running, signal) : running;
    const run = this.pollUntilFinal(taskToken, signal, onStatus).finally(() => this.following.delete(taskToken));
    this.following.set(taskToken, run);
    return run;
  }

  private async pollUntilFinal(taskToken: string, signal: AbortSignal | undefined, onStatus?: (status: SbomExportStatus) => void): Promise<SbomExportRecord> {
    const id = this.requireDeployment();
    const giveUpAt = this.clock.now() + this.poll.giveUpAfterMs;
    for (let delay = this.poll.firstDelayMs; ; delay = Math.min(delay * 2, this.poll.maxDelayMs)) {
      const status = await this.api().getSbomExportStatus(id, taskToken, { signal });
      onStatus?.(status);
      const record = this.update(taskToken, { state: status.state, stalled: false, ...pick(status) });
      if (isFinal(status.state)) return record;
      if (this.clock.now() + delay > giveUpAt) {
        this.update(taskToken, { stalled: true });
        const minutes = Math.round(this.poll.giveUpAfterMs / 60_000);
        throw new SbomStalledError(
          `The SBOM export of ${record.projectName || 'the project'} is still running after ${minutes} minute${minutes === 1 ? '' : 's'}; checking stopped. Check it again from "AppSec: SBOM Exports" (task token ${taskToken}).`,
        );
      }
      await this.clock.wait(delay, signal);
    }
  }

  /**
   * The finished document: fetched from the job's link (without the token when the link is on
   * another origin), checked against the format. Throws a SbomDocumentError for anything else.
   */
  async document(taskToken: string, signal?: AbortSignal): Promise<{ text: string; fileName: string; record: SbomExportRecord }> {
    const record = this.records.find((r) => r.taskToken === taskToken);
    if (!record?.downloadUrl || record.state !== 'SBOM_EXPORT_STATUS_COMPLETED')
      throw new Error('This SBOM export has no document to save: it is not completed.');
    const bytes = await this.api().download(record.downloadUrl, said('the SBOM of {0}', record.projectName), MAX_SBOM_BYTES, { signal });
    return { text: checkSbomDocument(bytes, record.outputFormat), fileName: sbomFileName(record.projectName, record.ref, record.outputFormat), record };
  }

  /** Remembers where a document was saved, for the history. */
  saved(taskToken: string, where: string): void {
    this.update(taskToken, { savedTo: where });
  }

  private update(taskToken: string, change: Partial<SbomExportRecord>): SbomExportRecord {
    const existing = this.records.find((r) => r.taskToken === taskToken);
    const record: SbomExportRecord = {
      ...(existing ?? {
        taskToken,
        projectName: '',
        ref: '',
        format: '',
        startedAt: new Date(this.clock.now()).toISOString(),
        state: 'SBOM_EXPORT_STATUS_IN_PROGRESS',
      }),
      ...change,
    };
    this.upsert(record, existing !== undefined);
    return record;
  }

  /** New jobs go on top; an update keeps the job where it is in the history. */
  private upsert(record: SbomExportRecord, inPlace = false): void {
    const index = inPlace ? this.records.findIndex((r) => r.taskToken === record.taskToken) : -1;
    if (index >= 0) this.records = this.records.map((r, i) => (i === index ? record : r));
    else this.records = [record, ...this.records.filter((r) => r.taskToken !== record.taskToken)].slice(0, HISTORY_LIMIT);
    this.changed.fire(this.records);
  }

  private requireDeployment(): string {
    const id = this.deploymentId();
    if (!id) throw new Error('Sign in first: SBOM exports need a deployment.');
    return id;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function pick(status: SbomExportStatus): Partial<SbomExportRecord> {
  return { ...(status.downloadUrl ? { downloadUrl: status.downloadUrl } : {}), ...(status.errorMessage ? { errorMessage: status.errorMessage } : {}) };
}
