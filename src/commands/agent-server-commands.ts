/**
 * `appsecFindings.agentServer`: how an MCP client starts the extension's server connected to
 * this window. It resolves with the launch spec at once; run from the palette it also shows the
 * spec, with a button to copy it (not awaited, so automation is never held by a message).
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import { showError, showInformation } from '../host/notify';
import type { AgentServerSpec } from '../agent/register-agent';

export interface AgentServerCommandsDeps {
  agentServer(): Promise<AgentServerSpec | undefined>;
}

export async function agentServer(app: AgentServerCommandsDeps): Promise<AgentServerSpec | undefined> {
  const spec = await app.agentServer();
  if (!spec) {
    void showError(t('AppSec: agents outside VS Code cannot reach this window; the log says why.'));
    return undefined;
  }
  const copy = t('Copy');
  const text = JSON.stringify(spec);
  void showInformation(t('AppSec: an MCP client starts the server for this window with {0}. It holds no token.', text), copy).then(async (chosen) => {
    if (chosen === copy) await vscode.env.clipboard.writeText(text);
  });
  return spec;
}
