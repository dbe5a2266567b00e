/**
 * The one door to notifications, progress and input boxes: every message, modal detail, progress
 * title and message, input prompt and validation message the extension shows passes here, and is
 * made inert first (no link, command or file target can form, whatever the platform's words say
 * and wherever a language puts them: `core/model/untrusted-text.ts`). Lint refuses
 * `vscode.window.show*Message`, `withProgress` and `showInputBox` anywhere else, so a new message
 * cannot skip the door.
 */
import * as vscode from 'vscode';
import { inertLinks } from '../core/model/untrusted-text';

type Item = string;

function show(
  raw: (message: string, options: vscode.MessageOptions, ...items: Item[]) => Thenable<Item | undefined>,
  message: string,
  rest: readonly (Item | vscode.MessageOptions)[],
): Thenable<Item | undefined> {
  const [first, ...others] = rest;
  const options: vscode.MessageOptions =
    typeof first === 'object' ? { ...first, ...(first.detail === undefined ? {} : { detail: inertLinks(first.detail) }) } : {};
  const items = (typeof first === 'object' ? others : rest).filter((item): item is Item => typeof item === 'string');
  return raw(inertLinks(message), options, ...items);
}

export interface Notify {
  (message: string, ...items: Item[]): Thenable<Item | undefined>;
  (message: string, options: vscode.MessageOptions, ...items: Item[]): Thenable<Item | undefined>;
}

export const showInformation: Notify = (message: string, ...rest: (Item | vscode.MessageOptions)[]) =>
  show((m, o, ...i) => vscode.window.showInformationMessage(m, o, ...i), message, rest);

export const showWarning: Notify = (message: string, ...rest: (Item | vscode.MessageOptions)[]) =>
  show((m, o, ...i) => vscode.window.showWarningMessage(m, o, ...i), message, rest);

export const showError: Notify = (message: string, ...rest: (Item | vscode.MessageOptions)[]) =>
  show((m, o, ...i) => vscode.window.showErrorMessage(m, o, ...i), message, rest);

/** `vscode.window.withProgress`, its title and every message reported made inert. */
export function withProgress<R>(
  options: vscode.ProgressOptions,
  task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const title = options.title === undefined ? {} : { title: inertLinks(options.title) };
  return vscode.window.withProgress({ ...options, ...title }, (progress, token) =>
    task(
      {
        report: (value) => progress.report(value.message === undefined ? value : { ...value, message: inertLinks(value.message) }),
      },
      token,
    ),
  );
}

/**
 * `vscode.window.showInputBox`: its prompt and each validation message are drawn with links too
 * (a project's tags and primary branch are in some prompts), so they are made inert.
 */
export function showInput(options: vscode.InputBoxOptions, token?: vscode.CancellationToken): Thenable<string | undefined> {
  const validateInput = options.validateInput?.bind(options);
  const inertMessage = (message: string | vscode.InputBoxValidationMessage | undefined | null): string | vscode.InputBoxValidationMessage | undefined | null =>
    typeof message === 'string' ? inertLinks(message) : message ? { ...message, message: inertLinks(message.message) } : message;
  return vscode.window.showInputBox(
    {
      ...options,
      ...(options.prompt === undefined ? {} : { prompt: inertLinks(options.prompt) }),
      ...(validateInput ? { validateInput: async (value: string) => inertMessage(await validateInput(value)) } : {}),
    },
    token,
  );
}
