// Every word of package.json that a person reads goes through VS Code's localization: it is a
// `%key%` of package.nls.json, and each shipped language has the same keys with the same
// placeholders and links, translated. The contract words (ids, setting keys, `when` clauses, the
// agent tools' names, schemas and model descriptions) stay literal English
// (docs/l10n-glossary.md, "What is translated, what is not").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES, ROOT, nlsBundle, nlsKey, rawManifest } from '../helpers/package-text';

/** Fields whose text VS Code shows to a person, wherever they sit in `contributes`. */
const TEXT_FIELDS = new Set([
  'title',
  'shortTitle',
  'category',
  'label',
  'contextualTitle',
  'contents',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'enumItemLabels',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'errorMessage',
  'altText',
  'displayName',
  'userDescription',
]);

/** Values a locale may keep as in English: product names, the same in every language. */
const SAME_IN_EVERY_LANGUAGE = new Set(['AppSec Findings', 'AppSec']);

interface TextField {
  readonly path: string;
  readonly value: string;
}

/** Whether the string at `path` (under `contributes`) is read by a person. */
function isUserFacing(path: readonly string[]): boolean {
  // What the agent's model reads is a contract: English in every UI language.
  if (path[0] === 'languageModelTools' && path.includes('inputSchema')) return false;
  const field = [...path].reverse().find((segment) => !/^\d+$/.test(segment)) ?? '';
  // A view's `name` is its title; a language model tool's `name` is its id.
  if (field === 'name') return path[0] === 'views';
  return TEXT_FIELDS.has(field);
}

function strings(value: unknown, path: string[], out: TextField[]): TextField[] {
  if (typeof value === 'string') out.push({ path: path.join('.'), value });
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, [...path, String(i)], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, [...path, k], out);
  return out;
}

/** Every user-facing string of a manifest: its name and description, its capabilities' descriptions, and the walk of `contributes`. */
function userFacingFields(manifest: unknown): TextField[] {
  const m = manifest as { displayName?: unknown; description?: unknown; capabilities?: Record<string, { description?: unknown }>; contributes?: unknown };
  const top: TextField[] = [];
  for (const field of ['displayName', 'description'] as const) if (typeof m[field] === 'string') top.push({ path: field, value: m[field] });
  for (const [name, capability] of Object.entries(m.capabilities ?? {})) {
    if (typeof capability.description === 'string') top.push({ path: `capabilities.${name}.description`, value: capability.description });
  }
  const contributes = strings(m.contributes, [], [])
    .filter((f) => isUserFacing(f.path.split('.')))
    .map((f) => ({ path: `contributes.${f.path}`, value: f.value }));
  return [...top, ...contributes];
}

/** What must come through a translation unchanged: `{0}` placeholders, link targets (`](…)`, `(command:…)`), `#setting.key#` links, line breaks. */
function invariants(text: string): Record<string, string[]> {
  const all = (re: RegExp): string[] => [...text.matchAll(re)].map((m) => m[0]).sort();
  return {
    placeholders: all(/\{\d+\}/g),
    links: all(/\]\([^)]*\)|\(command:[^)]*\)/g),
    settingLinks: all(/#[\w-]+(?:\.[\w-]+)+#/g),
    lineBreaks: all(/\n/g),
  };
}

/** A .vscodeignore pattern (`*` within a folder, `**` across folders) as a regular expression. */
function globRegExp(glob: string): RegExp {
  const source = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^$()|[\]{}\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`);
}

const manifest = rawManifest();
// Read here, not in a test: a missing package.nls.json fails every test below, each with what it checks.
const english: Record<string, string> = existsSync(join(ROOT, 'package.nls.json')) ? nlsBundle() : {};

describe('package.json through VS Code localization', () => {
  test('the walk finds literal words and skips what the model reads', () => {
    const found = userFacingFields({
      displayName: 'X',
      contributes: {
        commands: [{ command: 'x.run', title: 'Run', category: '%c%' }],
        configuration: { properties: { 'x.a': { enum: ['a'], enumItemLabels: ['A'], markdownDescription: 'Says' } } },
        views: { x: [{ id: 'x.v', name: 'View' }] },
        languageModelTools: [
          { name: 'x_tool', displayName: 'Tool', modelDescription: 'For the model', inputSchema: { properties: { p: { description: 'Model' } } } },
        ],
      },
    }).map((f) => f.path);
    assert.deepEqual(found, [
      'displayName',
      'contributes.commands.0.title',
      'contributes.commands.0.category',
      'contributes.configuration.properties.x.a.enumItemLabels.0',
      'contributes.configuration.properties.x.a.markdownDescription',
      'contributes.views.x.0.name',
      'contributes.languageModelTools.0.displayName',
    ]);
  });

  test('every user-facing string of package.json is a %key% of package.nls.json', () => {
    const fields = userFacingFields(manifest);
    assert.ok(fields.length > 100, `${fields.length} user-facing strings found`);
    const literal = fields.filter((f) => nlsKey(f.value) === undefined).map((f) => `${f.path}: ${JSON.stringify(f.value.slice(0, 60))}`);
    assert.deepEqual(literal, [], 'literal text in package.json (give it a key in package.nls.json)');
    const unknown = fields.map((f) => nlsKey(f.value) ?? '').filter((key) => !(key in english));
    assert.deepEqual(unknown, [], 'keys package.nls.json does not have');
    for (const [key, text] of Object.entries(english)) assert.ok(text.trim().length > 0, `${key} is empty`);
  });

  test('package.nls.json has no key that package.json does not use', () => {
    const used = new Set(
      strings(manifest, [], [])
        .map((f) => nlsKey(f.value))
        .filter((key) => key !== undefined),
    );
    assert.deepEqual(
      Object.keys(english).filter((key) => !used.has(key)),
      [],
    );
  });

  test("the contract stays literal: command ids, setting keys, when clauses, the agent tools' names, schemas and model descriptions", () => {
    const keyed = strings(manifest, [], [])
      .filter((f) => nlsKey(f.value) !== undefined)
      .map((f) => f.path);
    const contract =
      /\.(command|id|view|when|enablement|submenu|group|name|toolReferenceName|modelDescription)$|\.inputSchema\.|^contributes\.configuration\..*\.(enum|default)(\.|$)/;
    assert.deepEqual(
      keyed.filter((path) => contract.test(path) && !/^contributes\.views\.[^.]+\.\d+\.name$/.test(path)),
      [],
    );
  });

  test('every package.nls.<locale>.json is a shipped language checked below, and the package carries them all', () => {
    const files = readdirSync(ROOT)
      .filter((f) => /^package\.nls\..+\.json$/.test(f))
      .sort();
    assert.deepEqual(
      files,
      LOCALES.map((locale) => `package.nls.${locale}.json`).sort(),
      'a new language goes into LOCALES (test/unit/helpers/package-text.ts)',
    );
    // .vscodeignore leaves out everything (`**`) but what a `!` pattern brings back.
    const kept = readFileSync(join(ROOT, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => globRegExp(line.slice(1).trim()));
    for (const file of ['package.nls.json', ...files])
      assert.ok(
        kept.some((re) => re.test(file)),
        `.vscodeignore ships ${file}`,
      );
  });

  for (const locale of LOCALES) {
    test(`package.nls.${locale}.json: the English keys, each translated, with the same placeholders and links`, () => {
      const bundle = nlsBundle(locale);
      const keys = Object.keys(english);
      // Every problem at once, so a contributor fixes the whole file in one go.
      const problems = Object.keys(bundle)
        .filter((key) => !(key in english))
        .map((key) => `${key}: not in package.nls.json`);
      for (const key of keys) {
        if (!(key in bundle)) {
          problems.push(`${key}: missing`);
          continue;
        }
        const [source, text] = [english[key] ?? '', bundle[key]];
        if (typeof text !== 'string' || text.trim() === '') problems.push(`${key}: empty`);
        else if (text === source && !SAME_IN_EVERY_LANGUAGE.has(source)) problems.push(`${key}: left in English`);
        else {
          const [want, got] = [invariants(source), invariants(text)];
          for (const kind of Object.keys(want)) {
            if (JSON.stringify(want[kind]) !== JSON.stringify(got[kind]))
              problems.push(`${key}: ${kind} ${JSON.stringify(got[kind])}, English has ${JSON.stringify(want[kind])}`);
          }
        }
      }
      assert.deepEqual(problems, [], `package.nls.${locale}.json`);
    });
  }
});
