/**
 * VS Code passes on to the window only about 1 100 diagnostics of one `DiagnosticCollection.set`
 * call (1.1 × its 1 000 per file): it goes through the call's files in order and stops after the
 * file that takes the count past that. The files after it stay in the extension host, where
 * `languages.getDiagnostics` still sees them, but never reach Problems or the editor, and
 * nothing says so. Hence every `set` of ours carries at most {@link DIAGNOSTICS_PER_SET}.
 */

/** Diagnostics per `set` call: safely under what VS Code passes on (1 100). */
export const DIAGNOSTICS_PER_SET = 1000;

/** A file and its diagnostics; undefined clears the file (it counts as one). */
export type FileEntry<U, D> = [U, readonly D[] | undefined];

/**
 * Splits `entries` into consecutive batches of at most `limit` diagnostics, in their order. A
 * file with more than `limit` goes in a batch of its own: VS Code shows 1 000 of it and says how
 * many more there are, whatever the batch.
 */
export function setBatches<E extends Readonly<FileEntry<unknown, unknown>>>(entries: readonly E[], limit = DIAGNOSTICS_PER_SET): E[][] {
  const batches: E[][] = [];
  let batch: E[] = [];
  let size = 0;
  for (const entry of entries) {
    const weight = entry[1]?.length ?? 1;
    if (batch.length > 0 && size + weight > limit) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(entry);
    size += weight;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
