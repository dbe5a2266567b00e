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

/** Runs one slice per turn of the event loop. */
export async function runInSlices<T>(slices: Slices<T>): Promise<T> {
  let step = slices.next();
  while (!step.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    step = slices.next();
  }
  return step.value;
}
