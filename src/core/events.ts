/**
 * A minimal typed event emitter with VS Code's `Event` shape (`event(listener) → disposable`), so
 * core services can publish changes without importing `vscode`, and host code can hand their
 * `event` straight to APIs that expect a `vscode.Event`.
 */
import { nextTurn } from './slices';

export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;
/** Subscribes; `name` says who listens, for the report when the listener throws. */
export type Event<T> = (listener: Listener<T>, name?: string) => Disposable;

/** Told of a listener that threw: its name (given when subscribing, else the function's) and the error. */
export type ListenerErrorReporter = (name: string, error: unknown) => void;

export class Emitter<T> implements Disposable {
  private listeners = new Map<Listener<T>, string>();

  constructor(private readonly onListenerError?: ListenerErrorReporter) {}

  readonly event: Event<T> = (listener, name) => {
    this.listeners.set(listener, typeof name === 'string' && name !== '' ? name : listener.name || 'an unnamed listener');
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    // A listener that throws must not stop the others from hearing the change; its owner is named.
    for (const [listener, name] of [...this.listeners]) this.tell(listener, name, value);
  }

  /**
   * Tells each listener on a turn of the event loop of its own, for a change so large that each
   * listener's pass over it takes milliseconds (50 000 findings drawn): together they would hold
   * the host too long. Resolves when every listener has heard it.
   */
  async fireInTurns(value: T): Promise<void> {
    for (const [listener, name] of [...this.listeners]) {
      await nextTurn();
      if (this.listeners.has(listener)) this.tell(listener, name, value);
    }
  }

  private tell(listener: Listener<T>, name: string, value: T): void {
    try {
      listener(value);
    } catch (error) {
      this.onListenerError?.(name, error);
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
