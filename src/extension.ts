import * as vscode from 'vscode';

/** Composition root (filled in by the extension issue). */
export function activate(context: vscode.ExtensionContext): { readonly version: string } {
  const log = vscode.window.createOutputChannel('AppSec Findings', { log: true });
  context.subscriptions.push(log);
  return { version: String((context.extension.packageJSON as { version?: unknown }).version) };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
