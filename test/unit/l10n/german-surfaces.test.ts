// The surfaces converted after the first pass, read in German (as in a German window): the
// Finding Details panel's sections and story, a Policy Rules row, a lockfile's count, the
// dependency hint, the rule-mode confirmation, a platform error, Check Connection's summary.
// What the log and the agent read stays English (docs/l10n-glossary.md, "Runtime words: the rule").
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatMessage, resetTranslator, said, setTranslator } from '../../../src/core/l10n';
import { errorForStatus } from '../../../src/core/api/statusErrors';
import { checkConnection, formatReport, summarize } from '../../../src/core/api/check-connection';
import { ruleModeConfirmation } from '../../../src/core/services/rule-modes';
import { elsewhereText } from '../../../src/core/services/story-words';
import { dependencyHint } from '../../../src/core/workspace/dependency-facts';
import { lockfileDescription } from '../../../src/views/dependency-presentation';
import { ruleDescription, ruleTooltip } from '../../../src/views/rule-presentation';
import { findingDetailsHtml } from '../../../src/webviews/finding-details-html';
import { ROOT } from '../helpers/package-text';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

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
const code = sastFinding({ ruleName: 'js.express.sqli', message: 'Untrusted input reaches the query.', file: 'src/db.js', line: 7 });
const lodash = scaFinding(
  { package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337', reachability: 'unreachable', fixVersions: ['4.17.21'] },
  { message: 'Command injection in template' },
);
const rule = { id: 'r1', path: 'js.express.sqli', mode: 'MODE_BLOCK', severity: 'SEVERITY_HIGH', languages: ['js'], cweCategories: [], owaspCategories: [] };

void describe('more surfaces in German', () => {
  beforeEach(() => setTranslator(translatorOf('de'), 'de'));
  afterEach(() => resetTranslator());

  void test("the details panel: section headings, field labels and the story, the platform's text as sent", () => {
    const html = findingDetailsHtml(
      {
        finding: code,
        story: { state: 'read', story: { skipped: 0, elsewhere: [{ id: 2, ref: 'refs/heads/release', state: 'fixed' }], activity: [{ kind: 'fixPrOpened' }] } },
      },
      resources,
    );
    for (const heading of ['Wo', 'Regel', 'Datenfluss', 'Anderswo', 'Aktivität', 'Kennungen'])
      assert.match(html, new RegExp(`<h2 id="[a-z-]+-heading">${heading}</h2>`));
    assert.match(html, /<dt>Gescannt bei<\/dt><dd>src\/db\.js:7<\/dd>/);
    assert.match(html, /Kein Datenfluss: Die Plattform liefert für diesen Befund keinen/);
    assert.match(html, /behoben auf release/);
    assert.match(html, /Ein Korrektur-Pull-Request wurde geöffnet/);
    assert.match(html, /Untrusted input reaches the query\./, "the platform's message stays as sent");
    assert.doesNotMatch(html, />(Where|Rule|Trace|Elsewhere|Activity|Identifiers)</);
    const sca = findingDetailsHtml({ finding: lodash }, resources);
    assert.match(sca, /<h2 id="supply-chain-heading">Lieferkette<\/h2>/);
    assert.match(sca, /<dt>Paket<\/dt><dd>lodash<\/dd>/);
  });

  void test("the agent's words for the same story stay English", () => {
    assert.equal(elsewhereText({ id: 2, ref: 'refs/heads/release', state: 'fixed' }), 'fixed on release');
  });

  void test('a Policy Rules row, its tooltip and the Set Mode confirmation', () => {
    assert.equal(ruleDescription(rule), 'Blockieren · hoch');
    assert.match(ruleTooltip(rule, 'Default'), /Modus: Blockieren/);
    const question = ruleModeConfirmation('js.express.sqli', 'Default', 'MODE_MONITOR', 'MODE_BLOCK');
    assert.equal(question.message, 'js.express.sqli in Default auf den Modus Blockieren setzen?');
    assert.equal(question.confirm, 'Auf Blockieren setzen');
  });

  void test("dependency rows: a lockfile's count and the hint at a dependency's line", () => {
    assert.equal(lockfileDescription({ path: 'package-lock.json', dependencies: 1200 }), '1.200 Abhängigkeiten');
    assert.equal(lockfileDescription({ path: 'package-lock.json', dependencies: 3 }, 1), '1 von 3 Abhängigkeiten');
    const dependency = { repositoryId: '1', name: 'lodash', version: '4.17.20', ecosystem: 'npm', transitivity: 'direct', licenses: ['MIT'] } as const;
    assert.equal(
      dependencyHint({ dependency, findings: [{ ...lodash, severity: 'critical' }], licensePolicy: 'block' }),
      '1 Schwachstelle (kritisch) · MIT (durch Richtlinie blockiert)',
    );
  });

  void test('a platform error: German for the user, English for the log; the body as sent', () => {
    const error = errorForStatus(429, 'slow down', 2000, { what: said('the projects of deployment {0}', 'acme'), token: undefined });
    assert.equal(error.message, 'The platform is limiting the request rate (429); it asks to wait 2 s. Try again later. Response: "slow down"');
    assert.equal(error.text, 'Die Plattform begrenzt die Anfragerate (429); sie bittet, 2 s zu warten. Versuchen Sie es später erneut. Antwort: „slow down“');
  });

  void test('Check Connection: the notification in German, the report (log, automation) in English', async () => {
    const report = await checkConnection({
      baseUrl: 'https://platform.example',
      network: { strictSSL: false, noProxy: [] },
      env: {},
      getToken: () => Promise.resolve(undefined),
      extensionVersion: '0.0.0-test',
      timeoutMs: 1_000,
      signal: AbortSignal.abort(),
    });
    assert.equal(report.steps[0]?.title, 'Configuration');
    assert.match(report.warnings[0] ?? '', /^http\.proxyStrictSSL is false: certificates are NOT verified/);
    assert.match(formatReport(report).join('\n'), /Proxy: Not run|Proxy: Cancelled\./);
    assert.match(summarize(report), /^Verbindung OK\. .*Warnung: http\.proxyStrictSSL ist false: Zertifikate werden NICHT überprüft/);
  });
});
