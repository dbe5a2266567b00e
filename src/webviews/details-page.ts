/**
 * The Finding Details panel's page: set once as a whole document, then redrawn in place by a
 * message to its script (`media/details.js`). Setting the document again would reload it, and the
 * page would show unstyled, with browser-default headings and grey buttons, while its stylesheet
 * loads again. A change that changes nothing draws nothing.
 */
import * as vscode from 'vscode';
import { detailsDocument, type DetailsBody, type WebviewResources } from './finding-details-html';

const textOf = (body: DetailsBody): string => `${body.finding}\n${body.title}\n${body.content.markup}`;

export class DetailsPage {
  /** What the page should show now, and its text. */
  private body: DetailsBody | undefined;
  private shown = '';
  /** What a load of the document shows: a hidden panel's page is loaded from it again when shown. */
  private documentShows = '';
  /** Whether the document's script said it is ready for a redraw. */
  private ready = false;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly media: vscode.Uri,
  ) {}

  /** Shows `body`: sent to a ready page, kept for a page still loading, else as a new document. */
  show(body: DetailsBody): void {
    const shown = textOf(body);
    if (shown === this.shown) return;
    this.body = body;
    this.shown = shown;
    this.panel.title = body.title;
    if (this.ready) this.redraw(body);
    // A page still loading is sent the latest body once its script says it is ready.
    else if (!this.documentShows) this.setDocument(body);
  }

  /** The page's script loaded (a new document, or the same one after the panel was hidden). */
  loaded(): void {
    this.ready = true;
    if (this.body && this.shown !== this.documentShows) this.redraw(this.body);
  }

  /** The whole document with the latest body in it, as a load of the page would show it now. */
  get html(): string {
    return this.body ? detailsDocument(this.body, this.resources()) : '';
  }

  private setDocument(body: DetailsBody): void {
    this.documentShows = textOf(body);
    this.ready = false;
    this.panel.webview.html = detailsDocument(body, this.resources());
  }

  private redraw(body: DetailsBody): void {
    // A hidden page takes no message: it is loaded again when shown, and its ready redraws it.
    void this.panel.webview.postMessage({ type: 'redraw', finding: body.finding, title: body.title, markup: body.content.markup }).then((taken) => {
      if (!taken) this.ready = false;
    });
  }

  private resources(): WebviewResources {
    const { webview } = this.panel;
    return {
      nonce: nonce(),
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'details.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'details.css')).toString(),
    };
  }
}

function nonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64');
}
