/**
 * Gives the vscode-free words (`core/l10n.ts`) VS Code's translator and display language, once,
 * before any feature builds a word. `vscode.l10n.t` reads `l10n/bundle.l10n.<language>.json`
 * (package.json's `"l10n": "./l10n"`); a message the bundle lacks, or an English window, is
 * formatted in English.
 */
import * as vscode from 'vscode';
import { setTranslator } from '../core/l10n';

export function injectTranslator(): void {
  setTranslator((message, args) => vscode.l10n.t(message, ...args), vscode.env.language);
}
