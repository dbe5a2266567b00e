// With a German translator injected (as activation injects vscode.l10n.t in a German window), the
// vscode-free presentation functions speak German from l10n/bundle.l10n.de.json; the platform's
// own text stays as sent, and so do a diagnostic's code and source. Each test puts English back.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatMessage, resetTranslator, setTranslator, t } from '../../../src/core/l10n';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import { DIAGNOSTIC_SOURCE, diagnosticMessage } from '../../../src/diagnostics/diagnostic-message';
import { aboutFindingLines } from '../../../src/editor/hover-text';
import { facetItems, valueItems } from '../../../src/commands/filter-facets';
import { findingDescription, findingTooltip } from '../../../src/views/finding-presentation';
import { KINDS } from '../../../src/core/model/finding-kinds';
import { issueTypeDescription } from '../../../src/views/findings-children';
import { projectDescription, projectTooltip } from '../../../src/views/project-presentation';
import { loadingFindings, loadingProjects, noFindings, skippedFindings } from '../../../src/views/state-messages';
import { findingDetailsHtml } from '../../../src/webviews/finding-details-html';
import { ROOT } from '../helpers/package-text';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

/** What vscode.l10n.t does with a bundle: the translation of the English key (or the English), then `{n}` filled. */
function translatorOf(locale: string): (message: string, args: readonly (string | number | boolean)[]) => string {
  const words = JSON.parse(readFileSync(join(ROOT, 'l10n', `bundle.l10n.${locale}.json`), 'utf8')) as Record<string, string>;
  return (message, args) => formatMessage(words[message] ?? message, args);
}

const resources = {
  nonce: 'bm9uY2UxMjM0',
  cspSource: 'https://webview.example',
  scriptUri: 'https://webview.example/details.js',
  styleUri: 'https://webview.example/details.css',
};
const ai = sastFinding({
  ruleName: 'ai.authorization.missing-ownership-check',
  message: "The route returns any user's record.",
  file: 'src/server.js',
  line: 12,
  ai: { impact: 'Records of others can be read.' },
});
const lodash = scaFinding(
  { package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337', reachability: 'unreachable', fixVersions: ['4.17.21'] },
  { message: 'Command injection in template' },
);

void describe('the presentation in German', () => {
  beforeEach(() => setTranslator(translatorOf('de'), 'de'));
  afterEach(() => resetTranslator());

  void test('the Projects tree: issue types, empty and loading states, counts in German digits', () => {
    assert.equal(KINDS.sast.label, 'Code-Befunde');
    assert.equal(KINDS.sca.label, 'Lieferketten-Befunde');
    assert.equal(loadingProjects().text, 'Projekte werden geladen…');
    assert.equal(noFindings('sast', EMPTY_SELECTION, 'main').text, 'Keine Befunde auf main');
    assert.equal(loadingFindings('sca', 'tree:a:sca', 3000).text, 'Lieferketten-Befunde werden geladen… bisher 3.000');
    assert.equal(skippedFindings(1).text, '1 Befund konnte nicht gelesen werden und wird nicht angezeigt');
    assert.equal(skippedFindings(1200).text, '1.200 Befunde konnten nicht gelesen werden und werden nicht angezeigt');
    assert.equal(
      issueTypeDescription({ loading: true, cancelled: false }, () => 0),
      'wird geladen…',
    );
    assert.equal(projectDescription({ id: 1, name: 'shop', tags: ['pci'] }, 'feature/x', 'main'), 'feature/x (ausgecheckt: main) · pci');
    assert.match(
      projectTooltip({ id: 1, name: 'shop', tags: [], primaryBranch: 'main' }, 'main', undefined, true),
      /In diesem Fenster geöffnet.*Hauptbranch: main/s,
    );
  });

  void test("a finding in the tree: description and tooltip; the platform's message as sent", () => {
    assert.equal(findingDescription(lodash), 'nicht erreichbar · Korrektur 4.17.21');
    const tip = findingTooltip(ai);
    assert.match(tip, /Schweregrad: /);
    assert.match(tip, /Gefunden von: die KI\\-gestützte Analyse/);
    assert.match(tip, /The route returns any user\\'s record\\\./, 'the rule message stays as sent');
  });

  void test("Problems: our words around the platform's text in German; the source unchanged", () => {
    assert.equal(diagnosticMessage(ai), "KI: The route returns any user's record.");
    assert.equal(
      diagnosticMessage(lodash, true),
      'lodash 4.17.20 — CVE-2021-23337 (von Ihrem Code aus nicht erreichbar): Command injection in template Behoben in 4.17.21. (der Code hier wurde seit dem Scan geändert)',
    );
    assert.equal(DIAGNOSTIC_SOURCE, 'AppSec');
  });

  void test('the filter picker: facets and values', () => {
    const facets = facetItems(EMPTY_SELECTION, ['sast', 'ai', 'sca', 'secrets']);
    const reach = facets.find((f) => f.key === 'exposures');
    assert.deepEqual(reach && { label: reach.label, description: reach.description, detail: reach.detail }, {
      label: 'Erreichbarkeit',
      description: 'beliebig',
      detail: 'Nur Lieferketten-Befunde',
    });
    assert.deepEqual(
      valueItems('status', EMPTY_SELECTION)
        .map((v) => v.label)
        .slice(0, 3),
      ['Beliebig', 'offen', 'in Prüfung'],
    );
  });

  void test('the hover and the details panel', () => {
    const [head, , links] = aboutFindingLines(ai, 'Check the owner.', { blocking: true, traceSteps: 3 });
    assert.match(head ?? '', /blockiert Pull Requests/);
    assert.match(links ?? '', /\[Details anzeigen\]\(command:appsecFindings\.showDetails/);
    assert.match(links ?? '', /\[Datenfluss anzeigen \(3 Schritte\)\]/);
    const html = findingDetailsHtml({ finding: ai, loading: true }, resources);
    assert.match(html, /<html lang="de">/);
    assert.match(html, />Ignorieren…</);
    assert.match(html, />Details der Plattform werden geladen…</);
  });

  void test('English again once the translator is reset', () => {
    resetTranslator();
    assert.equal(KINDS.sast.label, 'Code findings');
    assert.equal(t('{0} findings', 3), '3 findings');
  });
});
