/**
 * Open Finding from Link…: a finding's platform link (pasted, or sent by an agent, a pull
 * request comment or a chat message as `vscode://<extension>/finding?url=<link>`) opens the
 * finding where it is in today's code. A finding the editor has not loaded is offered on the
 * platform instead; nothing is asked of any other address, and the token goes nowhere.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import { isHttpUrl, parseFindingUrl } from '../core/model/links';
import { ISSUE_TYPES } from '../core/model/types';
import { showError, showInformation, showInput } from '../host/notify';
import type { CommandDeps } from './command-deps';
import { openFinding, type FindingCommandsDeps } from './finding-commands';

export type OpenedLink = 'editor' | 'browser' | 'notLoaded' | undefined;

const NOT_A_LINK = (): string => t("That is not a finding's platform link (…/findings/<id>, …/supply-chain/<id> or …/secrets/<id>).");

export async function openFindingLink(app: Pick<CommandDeps, 'findings' | 'session'> & FindingCommandsDeps, given?: string): Promise<OpenedLink> {
  const link =
    given ??
    (await showInput({
      title: t('AppSec: Open Finding from Link'),
      prompt: t("Paste a finding's link from the platform, a pull request comment or an agent."),
      placeHolder: t('https://semgrep.dev/orgs/<organization>/findings/<id>'),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' || parseFindingUrl(value.trim()) ? undefined : NOT_A_LINK()),
    }));
  if (link === undefined) return undefined;
  const parsed = parseFindingUrl(link.trim());
  if (!parsed) {
    void showError(NOT_A_LINK());
    return undefined;
  }
  const slug = app.session.deployment?.slug;
  const types = parsed.issueType ? [parsed.issueType] : ISSUE_TYPES;
  const finding = slug === undefined ? undefined : types.map((type) => app.findings.finding(slug, type, parsed.id)).find((f) => f !== undefined);
  if (finding) return openFinding(app, { finding });
  const onPlatform = t('Open in Platform');
  const said =
    slug === undefined
      ? t('AppSec: sign in to open finding #{0} in the editor.', parsed.id)
      : t('AppSec: finding #{0} is not among the findings the editor has loaded: open its project in the AppSec view, or see it on the platform.', parsed.id);
  void showInformation(said, ...(isHttpUrl(link.trim()) ? [onPlatform] : [])).then(async (chosen) => {
    if (chosen === onPlatform) await vscode.env.openExternal(vscode.Uri.parse(link.trim()));
  });
  return 'notLoaded';
}

/** `vscode://<publisher>.<name>/finding?url=<link>` runs Open Finding from Link with that link. */
export const FINDING_LINKS: vscode.UriHandler = {
  handleUri(uri: vscode.Uri) {
    if (uri.path !== '/finding') return;
    const url = new URLSearchParams(uri.query).get('url');
    void vscode.commands.executeCommand('appsecFindings.openFindingLink', url ?? '');
  },
};
