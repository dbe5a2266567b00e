/**
 * How many round trips a client's requests took one after another, as the platform sees them:
 * a request that arrives after an answer went out may have waited for it, so its depth is one
 * more than the deepest answer sent before it arrived. The longest such chain is what latency
 * multiplies; requests sent side by side share one depth. Counted from the last `mark()`.
 */
export interface RoundTripEntry {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  /** Milliseconds since the mark. */
  readonly arrived: number;
  answered?: number;
  readonly depth: number;
}

export interface RoundTripReport {
  /** When counting began, in milliseconds since the epoch (`performance.timeOrigin` based), so another process can place the timeline against its own clock. */
  readonly markedAtEpoch: number;
  /** The longest chain of requests that each came after an earlier answer. */
  readonly depth: number;
  readonly requests: number;
  readonly timeline: readonly RoundTripEntry[];
}

export class RoundTrips {
  private markedAt = performance.now();
  private entries: RoundTripEntry[] = [];

  /** Starts counting again (before the measured work). */
  mark(): void {
    this.markedAt = performance.now();
    this.entries = [];
  }

  /** Called when a request arrives; call the returned function once its answer is sent. */
  arrived(method: string, url: string): () => void {
    const now = performance.now() - this.markedAt;
    const before = this.entries.filter((e) => e.answered !== undefined && e.answered <= now);
    const entry: RoundTripEntry = { method, url, arrived: now, depth: 1 + Math.max(0, ...before.map((e) => e.depth)) };
    const list = this.entries;
    list.push(entry);
    return () => {
      // A mark since then started another count: this answer belongs to the old one.
      if (this.entries === list) entry.answered = performance.now() - this.markedAt;
    };
  }

  /** What was counted since the mark, up to now. */
  report(): RoundTripReport {
    return {
      markedAtEpoch: performance.timeOrigin + this.markedAt,
      depth: Math.max(0, ...this.entries.map((e) => e.depth)),
      requests: this.entries.length,
      timeline: this.entries.map((e) => ({ ...e })),
    };
  }
}
