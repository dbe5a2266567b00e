/**
 * This window's end of the MCP server's channel (`core/agent/window-channel.ts`): it listens on
 * a private socket, says in the channel directory which folders it has open, and answers each
 * request with the same handlers the language-model tools use, so an agent outside VS Code gets
 * Problems' findings and lines, unsaved edits included. A request whose connection closes is
 * cancelled. Disposing closes the socket and takes the entry back.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { channelDirectory, jsonLines, newWindowAddress, type ChannelRequest, type ChannelResponse } from '../core/agent/window-channel';
import { TOOL_NAMES, type ToolName } from '../core/agent/tool-names';
import { refused } from '../core/agent/tool-answer';
import type { Logger } from '../host/logger';
import type { ToolHandler } from './findings-tools';

export interface AgentChannel extends vscode.Disposable {
  /** The socket an MCP server reaches this window on. */
  readonly socket: string;
  /** Says again which folders this window has open. */
  foldersChanged(): void;
}

function isRequest(value: unknown): value is ChannelRequest {
  const v = value as Partial<ChannelRequest> | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'number' && typeof v.tool === 'string';
}

function serve(socket: Socket, handlers: Partial<Record<ToolName, ToolHandler>>): void {
  const asked = new Set<AbortController>();
  socket.on('close', () => {
    for (const c of asked) c.abort();
  });
  socket.on('error', () => undefined);
  socket.on(
    'data',
    jsonLines((value) => {
      if (!isRequest(value)) return;
      const handler = value.tool in TOOL_NAMES ? handlers[value.tool] : undefined;
      const controller = new AbortController();
      asked.add(controller);
      void (handler ? handler(value.input, controller.signal) : Promise.resolve(refused(`This window has no tool ${JSON.stringify(value.tool)}.`)))
        .catch(() => refused('The window could not answer.'))
        .then((answer) => {
          asked.delete(controller);
          const response: ChannelResponse = { id: value.id, answer };
          if (!socket.destroyed) socket.write(`${JSON.stringify(response)}\n`);
        });
    }),
  );
}

/** Listens for MCP servers; undefined (logged) when the channel cannot be opened here. */
export async function openAgentChannel(
  handlers: Partial<Record<ToolName, ToolHandler>>,
  folders: () => readonly string[],
  log: Logger,
): Promise<AgentChannel | undefined> {
  let dir: string;
  try {
    dir = channelDirectory();
  } catch (error) {
    log.warn(`Agents outside VS Code cannot reach this window: ${(error as Error).message}`);
    return undefined;
  }
  const { socket, entry } = newWindowAddress(dir);
  const connections = new Set<Socket>();
  const server: Server = createServer((connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    serve(connection, handlers);
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error) => {
      log.warn(`Agents outside VS Code cannot reach this window: ${error.message}`);
      resolve(false);
    });
    server.listen(socket, () => resolve(true));
  });
  if (!listening) return undefined;
  const say = (): void => writeFileSync(entry, JSON.stringify({ socket, folders: folders(), pid: process.pid }), { mode: 0o600 });
  say();
  return {
    socket,
    foldersChanged: say,
    dispose: () => {
      // Closing stops new connections; those open end with the window, and their requests with them.
      server.close();
      for (const connection of connections) connection.destroy();
      rmSync(entry, { force: true });
      if (process.platform !== 'win32') rmSync(socket, { force: true });
    },
  };
}
