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

export class ExtensionLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private secrets: string[] = [];

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

  for(component: string): Logger {
    const tag = (m: string): string => this.redact(`[${component}] ${m}`);
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
