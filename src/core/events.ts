/**
 * A minimal typed event emitter with VS Code's `Event` shape (`event(listener) → disposable`), so
 * core services can publish changes without importing `vscode`, and host code can hand their
 * `event` straight to APIs that expect a `vscode.Event`.
 */
export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<Listener<T>>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    // A listener that throws must not stop the others from hearing the change.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        /* reported by the listener's owner */
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
