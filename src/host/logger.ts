/**
 * One `LogOutputChannel` for the extension, with a `[Component]` tag per writer. Every line goes
 * through `redact`, so a token that slipped into an error body or URL never reaches the log.
 */
import * as vscode from 'vscode';

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Lines kept in memory (every level, after redaction), for "what was logged" checks. */
const RECENT_LINES = 1000;

export class ExtensionLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private secrets: string[] = [];
  private readonly lines: string[] = [];

  constructor() {
    this.channel = vscode.window.createOutputChannel('AppSec Findings', { log: true });
  }

  /** Values that must never be written (the current token). */
  setSecrets(values: readonly (string | undefined)[]): void {
    this.secrets = values.filter((v): v is string => typeof v === 'string' && v.length >= 4);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('***');
    return out.replace(/(Bearer\s+)[^\s"',]+/gi, '$1***');
  }

  /** The last lines written, at every level whatever the channel shows (trace included). */
  recent(): readonly string[] {
    return this.lines;
  }

  for(component: string): Logger {
    const tag = (m: string): string => {
      const line = this.redact(`[${component}] ${m}`);
      if (this.lines.push(line) > RECENT_LINES) this.lines.shift();
      return line;
    };
    return {
      trace: (m) => this.channel.trace(tag(m)),
      debug: (m) => this.channel.debug(tag(m)),
      info: (m) => this.channel.info(tag(m)),
      warn: (m) => this.channel.warn(tag(m)),
      error: (m, e) => this.channel.error(tag(e === undefined ? m : `${m}: ${describe(e)}`)),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
