/**
 * Tells the renderer's listeners (the badge, the status bar, the cache writer) of each snapshot
 * once, when Problems shows it: a snapshot drawn again (a redraw, a drawing superseded and
 * redone) is not announced again, as each listener's pass over tens of thousands of findings
 * takes milliseconds. A drawing of its own turns announces in turns too, a listener per turn.
 */
import { Emitter } from '../core/events';
import type { ShownSnapshot } from './renderer-deps';

export class SnapshotAnnouncer {
  private announcedVersion = 0;
  private readonly changed = new Emitter<ShownSnapshot>();
  /** Fires once per snapshot, when Problems shows it. */
  readonly event = this.changed.event;

  /** Tells every listener now, unless they heard of this snapshot. */
  announce(snapshot: ShownSnapshot): void {
    if (snapshot.version === this.announcedVersion) return;
    this.announcedVersion = snapshot.version;
    this.changed.fire(snapshot);
  }

  /** Tells each listener on a turn of its own; undefined when they heard of this snapshot. */
  announceInTurns(snapshot: ShownSnapshot): Promise<void> | undefined {
    if (snapshot.version === this.announcedVersion) return undefined;
    this.announcedVersion = snapshot.version;
    return this.changed.fireInTurns(snapshot);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
