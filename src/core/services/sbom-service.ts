/**
 * SBOM exports: start a job (never retried blindly: a retry could start a second job), then
 * follow its status with a capped number of polls that stops on 404 and on a final state.
 * Keeps a history the host persists.
 */
import { sleep } from '../api/retry';
import { Emitter, type Disposable } from '../events';
import type { SbomExportRequest, SbomExportStatus } from '../model/types';
import type { PlatformApi } from './platform-api';

export interface SbomExportRecord {
  readonly taskToken: string;
  readonly projectName: string;
  readonly ref: string;
  readonly format: string;
  readonly startedAt: string;
  readonly state: string;
  readonly downloadUrl?: string;
  readonly errorMessage?: string;
}

export interface SbomPollPolicy {
  readonly intervalMs: number;
  readonly maxPolls: number;
}

export const DEFAULT_POLL: SbomPollPolicy = { intervalMs: 3000, maxPolls: 100 };
export const HISTORY_LIMIT = 20;

export const isFinal = (state: string): boolean => state === 'SBOM_EXPORT_STATUS_COMPLETED' || state === 'SBOM_EXPORT_STATUS_FAILED';

export class SbomService implements Disposable {
  private records: SbomExportRecord[];
  private readonly changed = new Emitter<readonly SbomExportRecord[]>();
  /** Fires with the whole history after every change (the host persists it). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly api: () => PlatformApi,
    private readonly deploymentId: () => string | undefined,
    history: readonly SbomExportRecord[] = [],
    private readonly poll: SbomPollPolicy = DEFAULT_POLL,
  ) {
    this.records = [...history];
  }

  get history(): readonly SbomExportRecord[] {
    return this.records;
  }

  async start(projectName: string, request: SbomExportRequest, signal?: AbortSignal): Promise<SbomExportRecord> {
    const id = this.requireDeployment();
    const taskToken = await this.api().createSbomExport(id, request, { signal });
    const record: SbomExportRecord = {
      taskToken, projectName, ref: request.ref, format: `${request.outputFormat} ${request.cycloneDxVersion}`,
      startedAt: new Date().toISOString(), state: 'SBOM_EXPORT_STATUS_IN_PROGRESS',
    };
    this.upsert(record);
    return record;
  }

  /** Polls until the job is final, the cap is reached, or `signal` aborts. Returns the last record. */
  async follow(taskToken: string, signal?: AbortSignal, onStatus?: (status: SbomExportStatus) => void): Promise<SbomExportRecord> {
    const id = this.requireDeployment();
    for (let attempt = 0; attempt < this.poll.maxPolls; attempt++) {
      const status = await this.api().getSbomExportStatus(id, taskToken, { signal });
      onStatus?.(status);
      const record = this.update(taskToken, status);
      if (isFinal(status.state)) return record;
      await sleep(this.poll.intervalMs, signal);
    }
    throw new Error(`The SBOM export is still running after ${this.poll.maxPolls} checks. Its task token is ${taskToken}; check it later in the platform.`);
  }

  private update(taskToken: string, status: SbomExportStatus): SbomExportRecord {
    const existing = this.records.find((r) => r.taskToken === taskToken);
    const record: SbomExportRecord = {
      ...(existing ?? { taskToken, projectName: '', ref: '', format: '', startedAt: new Date().toISOString() }),
      state: status.state,
      ...(status.downloadUrl ? { downloadUrl: status.downloadUrl } : {}),
      ...(status.errorMessage ? { errorMessage: status.errorMessage } : {}),
    };
    this.upsert(record);
    return record;
  }

  private upsert(record: SbomExportRecord): void {
    this.records = [record, ...this.records.filter((r) => r.taskToken !== record.taskToken)].slice(0, HISTORY_LIMIT);
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

