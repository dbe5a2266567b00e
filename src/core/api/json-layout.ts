/**
 * Where the elements of a JSON text's arrays begin, found while the text arrives chunk by chunk,
 * so that a page of thousands of findings can be parsed a slice at a time (`json-in-slices.ts`)
 * instead of in one `JSON.parse` that holds the extension host for tens of milliseconds.
 *
 * It records the arrays one level below the top: each array value of a top-level object, or the
 * elements of a top-level array. It does not check the text: a text it misreads still goes to
 * `JSON.parse`, which has the last word (see `json-in-slices.ts`).
 */

/** One recorded array: offsets in the whole text (UTF-16 code units, as `String#slice` counts). */
export interface ArrayLayout {
  /** The key's quoted text (`"findings"`) as a range, or undefined for a top-level array. */
  readonly key: { readonly from: number; readonly to: number } | undefined;
  /** The offset of the `[`. */
  readonly open: number;
  /** The offset of the matching `]`. */
  readonly close: number;
  /** Where each element's text begins (after `[` or after a `,`). */
  readonly starts: readonly number[];
}

export interface JsonLayout {
  readonly length: number;
  readonly arrays: readonly ArrayLayout[];
}

const QUOTE = 0x22;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const SPACE = 0x20;

interface OpenArray {
  key: ArrayLayout['key'];
  open: number;
  starts: number[];
}

export class JsonLayoutScanner {
  private offset = 0;
  private depth = 0;
  private inString = false;
  /** The last character of the previous chunk was a backslash inside a string. */
  private escaped = false;
  /** The depth at which arrays are recorded: 1 under a top-level array, 2 under an object. */
  private recordDepth = 0;
  private stringFrom = 0;
  private lastTopString: ArrayLayout['key'];
  private current: OpenArray | undefined;
  private readonly arrays: ArrayLayout[] = [];

  push(chunk: string): void {
    const n = chunk.length;
    let i = 0;
    // The next backslash in this chunk at or after `i`, or -1 when there is none left.
    let backslash = chunk.indexOf('\\');
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        if (backslash !== -1 && backslash < i) backslash = chunk.indexOf('\\', i);
        const quote = chunk.indexOf('"', i);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          // The character after a backslash is never the string's end.
          i = backslash + 2;
          if (i > n) this.escaped = true;
          continue;
        }
        if (quote === -1) break;
        this.inString = false;
        if (this.depth === 1) this.lastTopString = { from: this.stringFrom, to: this.offset + quote + 1 };
        i = quote + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        this.inString = true;
        this.stringFrom = this.offset + i;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (this.depth === 0) this.recordDepth = c === OPEN_ARRAY ? 1 : 2;
        this.depth++;
        if (c === OPEN_ARRAY && this.depth === this.recordDepth) {
          this.current = { key: this.recordDepth === 2 ? this.lastTopString : undefined, open: this.offset + i, starts: [this.offset + i + 1] };
        }
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (c === CLOSE_ARRAY && this.current && this.depth === this.recordDepth) {
          this.arrays.push({ ...this.current, close: this.offset + i });
          this.current = undefined;
        }
        this.depth--;
      } else if (c === COMMA && this.current && this.depth === this.recordDepth) {
        this.current.starts.push(this.offset + i + 1);
      } else if (c > SPACE && this.depth === 0 && this.recordDepth === 0) {
        // A top-level string, number or literal: nothing to record.
        this.recordDepth = -1;
      }
      i++;
    }
    this.offset += n;
  }

  /** The layout, or undefined when the text did not end where a JSON value ends. */
  end(): JsonLayout | undefined {
    if (this.inString || this.depth !== 0 || this.current) return undefined;
    return { length: this.offset, arrays: this.arrays };
  }
}
