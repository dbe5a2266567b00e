// A display language for a code-server host, with no language pack to download (none is
// reachable here: VS Code's packs come from the marketplace). Builds a minimal language-pack
// extension at run time (VS Code's own words stay English; `vscode.env.language` becomes the
// language, so the extension's l10n/bundle.l10n.<lang>.json and package.nls.<lang>.json are used),
// places it beside the installed .vsix and writes <user-data>/languagepacks.json, which the CLI install
// does not write. Then code-server is started with `--locale <lang>`.
// Why this way: shared/real-vscode-host.md, "A display language other than English".
// The pseudo locale (qps-ploc, pseudo-locale.mjs) takes the same route; its words are written into
// the installed extension first, since none are shipped.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PSEUDO_LOCALE, writePseudoLocale } from './pseudo-locale.mjs';

/**
 * The languages a locale run can show: each needs its bundle in l10n/ and its package.nls file
 * (shipped, or for the pseudo locale written at run time).
 */
export const LOCALES = {
  de: { languageName: 'German', localizedLanguageName: 'Deutsch' },
  ja: { languageName: 'Japanese', localizedLanguageName: '日本語' },
  [PSEUDO_LOCALE]: { languageName: 'Pseudo Language', localizedLanguageName: 'Pseudo Language' },
};

const PUBLISHER = 'appsec-findings-test';
const VERSION = '1.0.0';

/** Parses `--locale de|ja` (none: English), exiting with a usage message on anything else. */
export function selectedLocale(argv) {
  const i = argv.indexOf('--locale');
  if (i === -1) return undefined;
  const name = argv[i + 1];
  if (!(name in LOCALES)) {
    console.error(`usage: --locale ${Object.keys(LOCALES).join('|')} (got ${name ?? 'nothing'})`);
    process.exit(2);
  }
  return name;
}

/**
 * Builds the pack under `runDir`, installs it into `<runDir>/extensions` and writes
 * `<runDir>/user-data/languagepacks.json`; for the pseudo locale, first writes its words into
 * `extensionDir`, the installed extension. Returns the installed folder.
 */
export function installLanguagePack(runDir, locale, extensionDir) {
  const pseudo = locale === PSEUDO_LOCALE ? writePseudoLocale(extensionDir) : undefined;
  const { languageName, localizedLanguageName } = LOCALES[locale];
  const name = `test-language-pack-${locale}`;
  const id = `${PUBLISHER}.${name}`;
  const source = join(runDir, `language-pack-${locale}`);
  mkdirSync(join(source, 'translations'), { recursive: true });
  writeFileSync(
    join(source, 'package.json'),
    `${JSON.stringify(
      {
        name,
        publisher: PUBLISHER,
        version: VERSION,
        displayName: `${languageName} (test language pack)`,
        engines: { vscode: '^1.100.0' },
        categories: ['Language Packs'],
        contributes: {
          localizations: [
            {
              languageId: locale,
              languageName,
              localizedLanguageName,
              translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
            },
          ],
        },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(source, 'translations', 'main.i18n.json'), `${JSON.stringify({ version: '1.0.0', contents: {} })}\n`);

  const extensionsDir = join(runDir, 'extensions');
  const userData = join(runDir, 'user-data');
  mkdirSync(extensionsDir, { recursive: true });
  // code-server's `--install-extension` takes only a .vsix or a marketplace id (a folder: exit 1
  // on 4.139.1 and 4.100.3), so the pack is placed as an install would place it: its folder named
  // <publisher>.<name>-<version>, with its entry in extensions.json (the .vsix's is there already).
  const folder = join(extensionsDir, `${id}-${VERSION}`);
  cpSync(source, folder, { recursive: true });
  addToExtensionsJson(extensionsDir, id, folder);
  const how = `placed in the extensions folder${pseudo ? ` (pseudo words written into the installed extension: ${pseudo.nlsKeys} package.nls keys, ${pseudo.bundleKeys} runtime keys)` : ''}`;
  const translations = join(folder, 'translations', 'main.i18n.json');
  if (!existsSync(translations)) throw new Error(`the ${locale} language pack has no ${translations}`);
  mkdirSync(userData, { recursive: true });
  writeFileSync(
    join(userData, 'languagepacks.json'),
    `${JSON.stringify(
      {
        [locale]: {
          hash: `appsec-test-${locale}-${VERSION}`,
          label: localizedLanguageName,
          extensions: [{ extensionIdentifier: { id }, version: VERSION }],
          translations: { vscode: translations },
        },
      },
      null,
      2,
    )}\n`,
  );
  return { folder, how };
}

function addToExtensionsJson(extensionsDir, id, folder) {
  const file = join(extensionsDir, 'extensions.json');
  const list = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
  const relativeLocation = folder.slice(extensionsDir.length + 1);
  list.push({
    identifier: { id },
    version: VERSION,
    location: { $mid: 1, path: folder, scheme: 'file' },
    relativeLocation,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  writeFileSync(file, JSON.stringify(list));
}
