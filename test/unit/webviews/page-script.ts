/**
 * The details page's script (media/details.js) run in Node against a minimal stand-in for the
 * page, what the script touches: the details tests click its controls and send it redraws here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

type Attributes = Readonly<Record<string, string>>;

/**
 * Runs media/details.js against a minimal stand-in for the page (what the script touches): clicks
 * each control in turn and records what it posts, as the extension receives it (cloned).
 */
export interface PageRun {
  posted: Record<string, unknown>[];
  focused?: Attributes;
  state: unknown;
  /** Sends the page a message from the extension, with the controls the new markup holds. */
  receive?: (message: unknown, controls: readonly Attributes[]) => void;
  main?: { innerHTML: string; attributes: Attributes };
  title?: string;
}

export function runPageScript(
  controls: readonly Attributes[],
  options: { finding?: string; state?: unknown; click?: boolean; focusedIndex?: number } = {},
): PageRun {
  class FakeElement {
    private markup = '';
    // The new markup brings its controls, as the browser parses it.
    get innerHTML(): string {
      return this.markup;
    }
    set innerHTML(value: string) {
      this.markup = value;
      elements = arriving.map((c) => new FakeElement({ ...c }));
    }
    constructor(readonly attributes: Record<string, string>) {}
    getAttribute(name: string): string | null {
      return Object.hasOwn(this.attributes, name) ? (this.attributes[name] ?? null) : null;
    }
    setAttribute(name: string, value: string): void {
      this.attributes[name] = value;
    }
    hasAttribute(name: string): boolean {
      return Object.hasOwn(this.attributes, name);
    }
    closest(selector: string): FakeElement | null {
      return selector === '[data-action]' && this.getAttribute('data-action') !== null ? this : null;
    }
    contains(other: unknown): boolean {
      return elements.includes(other as FakeElement);
    }
    querySelector(selector: string): FakeElement | null {
      return selector === '.actions [data-action]' ? (elements[0] ?? null) : null;
    }
    querySelectorAll(): FakeElement[] {
      return elements;
    }
    focus(): void {
      result.focused = this.attributes;
    }
  }
  const result: PageRun = { posted: [], state: options.state };
  let elements = controls.map((c) => new FakeElement({ ...c }));
  let arriving: readonly Attributes[] = [];
  const main = new FakeElement(options.finding === undefined ? {} : { 'data-finding': options.finding });
  result.main = main;
  let onClick: ((event: unknown) => void) | undefined;
  let onMessage: ((event: unknown) => void) | undefined;
  const document = {
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      if (type === 'click') onClick = listener;
    },
    querySelector: (selector: string) => (selector === 'main' ? main : selector === '.actions [data-action]' ? (elements[0] ?? null) : null),
    querySelectorAll: () => elements,
    scrollingElement: null,
    activeElement: options.focusedIndex === undefined ? undefined : elements[options.focusedIndex],
    set title(value: string) {
      result.title = value;
    },
  };
  const window = {
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      if (type === 'message') onMessage = listener;
    },
  };
  result.receive = (message, next) => {
    arriving = next;
    onMessage?.({ data: message });
  };
  const clone = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
  const vscodeApi = {
    postMessage: (message: unknown) => {
      result.posted.push(clone(message) as Record<string, unknown>);
    },
    getState: () => clone(result.state),
    setState: (state: unknown) => {
      result.state = clone(state);
    },
  };
  runInNewContext(readFileSync(join(__dirname, '../../../media/details.js'), 'utf8'), {
    acquireVsCodeApi: () => vscodeApi,
    document,
    window,
    Element: FakeElement,
    Date,
  });
  if (options.click !== false) for (const element of elements) onClick?.({ target: element, preventDefault: () => undefined });
  return result;
}
