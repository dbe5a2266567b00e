/**
 * Connected mode: each call is asked of the VS Code window open on the repository, over its
 * private channel (`core/agent/window-channel.ts`). The window is looked up at each call, so one
 * opened after the agent started is found; the connection is kept while it lasts.
 */
import { connect, type Socket } from 'node:net';
import { channelDirectory, jsonLines, WINDOW_VARIABLE, windowFor, type ChannelResponse } from '../core/agent/window-channel';
import { refused, type ToolAnswer } from '../core/agent/tool-answer';
import type { ToolName } from '../core/agent/tool-names';
import type { AgentBackend } from './agent-server';

const NO_WINDOW = (cwd: string): string =>
  `No VS Code window with AppSec Findings is open on ${JSON.stringify(cwd)}: ask the user to open this repository in VS Code (signed in to the AppSec platform), then try again. (Without a window, the server answers by itself when SEMGREP_APP_TOKEN is in its environment.)`;

/** The channel of the window that answers for `cwd`: the one pinned, else the one open on it. */
export function windowAddress(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const pinned = env[WINDOW_VARIABLE];
  if (pinned) return pinned;
  try {
    return windowFor(cwd, channelDirectory());
  } catch {
    return undefined;
  }
}

/** `standalone` answers when no window is open on the repository (and none is pinned). */
export function windowBackend(options: { cwd: string; env: NodeJS.ProcessEnv; standalone?: AgentBackend }): AgentBackend {
  let link: { socket: Socket; address: string } | undefined;
  let next = 0;
  const waiting = new Map<number, (answer: ToolAnswer) => void>();
  const find = (): string | undefined => windowAddress(options.cwd, options.env);
  const open = async (address: string): Promise<Socket | undefined> => {
    if (link?.address === address && !link.socket.destroyed) return link.socket;
    const socket = connect(address);
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (!opened) return undefined;
    socket.on(
      'data',
      jsonLines((value) => {
        const response = value as Partial<ChannelResponse>;
        if (typeof response.id !== 'number' || !response.answer) return;
        waiting.get(response.id)?.(response.answer);
        waiting.delete(response.id);
      }),
    );
    socket.on('close', () => {
      for (const answer of waiting.values()) answer(refused('The VS Code window closed before it answered.'));
      waiting.clear();
    });
    link = { socket, address };
    return socket;
  };
  return {
    async call(tool: ToolName, input: unknown, signal: AbortSignal): Promise<ToolAnswer> {
      const address = find();
      if (address === undefined && options.standalone) return options.standalone.call(tool, input, signal);
      const socket = address === undefined ? undefined : await open(address);
      if (!socket) return refused(NO_WINDOW(options.cwd));
      const id = ++next;
      return new Promise<ToolAnswer>((resolve) => {
        waiting.set(id, resolve);
        signal.addEventListener(
          'abort',
          () => {
            waiting.delete(id);
            resolve(refused('Cancelled.'));
          },
          { once: true },
        );
        socket.write(`${JSON.stringify({ id, tool, input })}\n`);
      });
    },
  };
}
