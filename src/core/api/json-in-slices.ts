import type { ArrayLayout, JsonLayout } from './json-layout';

/** Arriving chunks are joined into pieces of about this many characters (see `TextPieces`). */
const JOINED_PIECE_CHARS = 512 * 1024;

/**
 * A text kept in pieces, read by range without joining it whole: joining a page of megabytes is
 * itself a long turn of the extension host. The chunks it arrives in (tens of kilobytes) are
 * joined a few hundred kilobytes at a time, as each such run is complete: strings that small live
 * in the young generation, where every collection copies them while the page waits for its turn
 * to be parsed, and larger ones are set aside where collections do not copy them.
 */
export class TextPieces {
  private readonly pieces: string[] = [];
  /** Where each piece begins in the whole text. */
  private readonly starts: number[] = [];
  private size = 0;
  private pending: string[] = [];
  private pendingSize = 0;

  add(piece: string): void {
    if (piece.length === 0) return;
    this.pending.push(piece);
    this.pendingSize += piece.length;
    if (this.pendingSize >= JOINED_PIECE_CHARS) this.settle();
  }

  get length(): number {
    return this.size + this.pendingSize;
  }

  whole(): string {
    this.settle();
    return this.pieces.length === 1 ? (this.pieces[0] ?? '') : this.pieces.join('');
  }

  slice(from: number, to: number): string {
    this.settle();
    if (to <= from) return '';
    let at = this.pieceAt(from);
    let text = '';
    let cursor = from;
    while (cursor < to) {
      const piece = this.pieces[at] ?? '';
      const start = this.starts[at] ?? 0;
      text += piece.slice(cursor - start, Math.min(piece.length, to - start));
      cursor = start + piece.length;
      at++;
    }
    return text;
  }

  private settle(): void {
    if (this.pendingSize === 0) return;
    this.pieces.push(this.pending.length === 1 ? (this.pending[0] ?? '') : this.pending.join(''));
    this.starts.push(this.size);
    this.size += this.pendingSize;
    this.pending = [];
    this.pendingSize = 0;
  }

  private pieceAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/**
 * Parses `text` as JSON, splitting each array of `layout` longer than `sliceChars` into slices of
 * whole elements, each parsed on its own turn (`turn`), so that the host answers between them.
 *
 * The result is what `JSON.parse` of the whole text gives. Where the layout cannot be trusted to
 * give it (a slice that does not parse, a key seen twice), the whole text is parsed instead, and
 * its error, if any, is the one thrown.
 */
export async function parseInSlices(text: TextPieces, layout: JsonLayout | undefined, sliceChars: number, turn: () => Promise<void>): Promise<unknown> {
  const split = layout?.length === text.length ? layout.arrays.filter((a) => a.close - a.open > sliceChars) : [];
  if (split.length === 0) return JSON.parse(text.whole()) as unknown;
  try {
    return await assemble(text, split, sliceChars, turn);
  } catch {
    return JSON.parse(text.whole()) as unknown;
  }
}

class NotAsParsed extends Error {}

async function assemble(text: TextPieces, split: readonly ArrayLayout[], sliceChars: number, turn: () => Promise<void>): Promise<unknown> {
  // The text with each split array replaced by a string of its own that no platform text can
  // guess: everything but their elements, parsed at once. Where JSON.parse keeps another value
  // for the array's key (the key given again later), that string is not what the key holds.
  const nonce = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  const marker = (index: number): string => `\u0000slice ${nonce} ${index}`;
  let skeleton = '';
  let from = 0;
  split.forEach((array, index) => {
    skeleton += `${text.slice(from, array.open)}${JSON.stringify(marker(index))}`;
    from = array.close + 1;
  });
  skeleton += text.slice(from, text.length);
  const top = JSON.parse(skeleton) as unknown;
  if (split.length === 1 && split[0]?.key === undefined) {
    if (top !== marker(0)) throw new NotAsParsed();
    return elementsInSlices(text, split[0], sliceChars, turn);
  }
  if (typeof top !== 'object' || top === null || Array.isArray(top)) throw new NotAsParsed();
  const keys: string[] = [];
  split.forEach((array, index) => {
    if (!array.key) throw new NotAsParsed();
    const key = JSON.parse(text.slice(array.key.from, array.key.to)) as string;
    if ((top as Record<string, unknown>)[key] !== marker(index)) throw new NotAsParsed();
    keys.push(key);
  });
  for (const [index, array] of split.entries()) {
    await turn();
    const value = await elementsInSlices(text, array, sliceChars, turn);
    Object.defineProperty(top, keys[index] ?? '', { value, writable: true, enumerable: true, configurable: true });
  }
  return top;
}

async function elementsInSlices(text: TextPieces, array: ArrayLayout, sliceChars: number, turn: () => Promise<void>): Promise<unknown[]> {
  const elements: unknown[] = [];
  const { starts } = array;
  let first = 0;
  while (first < starts.length) {
    let next = first + 1;
    const begin = starts[first] ?? array.close;
    while (next < starts.length && (starts[next] ?? 0) - begin < sliceChars) next++;
    // Up to the comma before the next slice's first element, or to the closing bracket.
    const end = next < starts.length ? (starts[next] ?? 0) - 1 : array.close;
    const slice = JSON.parse(`[${text.slice(begin, end)}]`) as unknown[];
    for (const element of slice) elements.push(element);
    first = next;
    if (first < starts.length) await turn();
  }
  return elements;
}
