/**
 * Long work written once as a generator that pauses (yields) between slices, then run either all
 * at once (small inputs, tests) or with a turn of the event loop between slices, so the
 * extension host keeps answering while 50 000 findings are encoded or decoded.
 */
export type Slices<T> = Generator<void, T, void>;

/** Runs every slice now. */
export function runAtOnce<T>(slices: Slices<T>): T {
  let step = slices.next();
  while (!step.done) step = slices.next();
  return step.value;
}

/**
 * Resolves on a later turn of the event loop, after what is already waiting (timers, I/O) ran.
 * Two immediates, not one: asked for from an I/O callback (a page that just arrived), one
 * immediate runs in the same turn's check phase, before any timer, so the work before and after
 * it would make one stall (such as indexing a load's findings and the first slice of their
 * diagnostics; docs/performance.md, "Refresh").
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Runs one slice per turn of the event loop. */
export async function runInSlices<T>(slices: Slices<T>): Promise<T>;
/** The same, given up (undefined) as soon as `stillWanted` says no between slices. */
export async function runInSlices<T>(slices: Slices<T>, stillWanted: () => boolean): Promise<T | undefined>;
export async function runInSlices<T>(slices: Slices<T>, stillWanted: () => boolean = () => true): Promise<T | undefined> {
  let step = slices.next();
  while (!step.done) {
    await nextTurn();
    if (!stillWanted()) return undefined;
    step = slices.next();
  }
  return step.value;
}
