/**
 * The whole finding (rule lists, the assistant's fix and guidance, EPSS, ticket, …) for the
 * details view, the hover and the quick fixes. The store keeps findings compact, so the detail
 * is asked of the platform when one of those needs it, once per finding, and kept for the few
 * findings a user looks at. What triage changes (status, reason, note, ticket) is read from the
 * store's finding, which is patched at once; the rest of the detail does not change with triage.
 */
import type { Finding } from '../model/types';
import type { FindingDetail } from '../model/finding-detail';
import type { PlatformApi } from './platform-api';

/** Findings whose detail is kept: a user looks at a handful at a time. */
const KEPT = 50;

export class FindingDetails {
  private readonly kept = new Map<string, Promise<FindingDetail | undefined>>();
  private readonly settled = new Map<string, FindingDetail | undefined>();

  constructor(
    private readonly api: () => PlatformApi,
    private readonly deploymentSlug: () => string | undefined,
  ) {}

  /** The detail, asked once (a failure is not kept: the next call asks again). */
  get(finding: Finding): Promise<FindingDetail | undefined> {
    const slug = this.deploymentSlug();
    if (!slug) return Promise.resolve(undefined);
    const key = keyOf(slug, finding);
    let pending = this.kept.get(key);
    if (!pending) {
      pending = this.api()
        .findingDetail(slug, finding)
        .then(
          (detail) => {
            this.settled.set(key, detail);
            return detail;
          },
          (error: unknown) => {
            this.kept.delete(key);
            throw error;
          },
        );
      this.kept.set(key, pending);
      this.trim();
    }
    return pending;
  }

  /**
   * The detail if it arrives within `ms` (asked once, as `get`); undefined after that or on a
   * failure, for the hover and the quick-fix menu, which must not wait on the network.
   */
  within(finding: Finding, ms: number): Promise<FindingDetail | undefined> {
    const known = this.peek(finding);
    if (known) return Promise.resolve(known);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    return Promise.race([this.get(finding).catch(() => undefined), late]).finally(() => clearTimeout(timer));
  }

  /** The detail if it has already arrived, without asking. */
  peek(finding: Finding): FindingDetail | undefined {
    const slug = this.deploymentSlug();
    return slug ? this.settled.get(keyOf(slug, finding)) : undefined;
  }

  /** Asks again next time (the user pressed Refresh). */
  forget(finding: Finding): void {
    const slug = this.deploymentSlug();
    if (!slug) return;
    this.kept.delete(keyOf(slug, finding));
    this.settled.delete(keyOf(slug, finding));
  }

  clear(): void {
    this.kept.clear();
    this.settled.clear();
  }

  private trim(): void {
    // Maps keep insertion order: the oldest go first.
    for (const key of this.kept.keys()) {
      if (this.kept.size <= KEPT) break;
      this.kept.delete(key);
      this.settled.delete(key);
    }
  }
}

function keyOf(slug: string, finding: Finding): string {
  return `${slug}\n${finding.issueType}\n${finding.id}`;
}

/** The detail with what the store knows now (triage and tickets patch the store first). */
export function withCurrentState(detail: FindingDetail, current: Finding): FindingDetail {
  return {
    ...detail,
    status: current.status,
    triageReason: current.triageReason,
    triageComment: current.triageComment ?? detail.triageComment,
    externalTicket: current.ticket
      ? { ...detail.externalTicket, slug: current.ticket.slug, url: current.ticket.url, linkedIssueIds: detail.externalTicket?.linkedIssueIds ?? [] }
      : undefined,
  };
}
