// Build steps shared by the launchers: bundle, check the suite's file list, package the .vsix.
// The code-server launcher tests the installed .vsix, not the repo folder, so a file that
// .vscodeignore leaves out (or a build step that was skipped) fails the tests instead of users.
// Paths are relative to the repo root: the launchers chdir there first.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const SUITE_DIR = 'test/integration/suite';

/** What a user's install should hold; anything else is junk (sources, maps, tests, node_modules). */
const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  // The words of package.json: English, and one file per shipped display language.
  /^extension\/package\.nls(\.[a-z]{2}(-[a-z]{2})?)?\.json$/,
  // The words said at run time (vscode.l10n): one bundle per shipped display language.
  /^extension\/l10n\/bundle\.l10n\.[a-z]{2}(-[a-z]{2})?\.json$/,
  /^extension\/dist\/extension\.js$/,
  // The MCP server an agent starts (src/mcp/main.ts), a Node script of its own.
  /^extension\/dist\/mcp-server\.js$/,
  /^extension\/media\/[^/]+\.(svg|png)$/,
  // The Finding Details page loads its script and style from the extension (its CSP allows nothing else).
  /^extension\/media\/details\.(js|css)$/,
  // The walkthrough's pictures, one per step and theme.
  /^extension\/media\/walkthrough\/[a-z-]+-(light|dark)\.png$/,
  /^extension\/(LICENSE|LICENSE\.txt|README\.md|CHANGELOG\.md)$/i,
];

/** Runs a build step; `quiet`: its output is shown only when it fails (a listing is not news). */
function run(command, args, what, { quiet = false } = {}) {
  const result = spawnSync(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${what} failed (exit ${result.status ?? result.signal})`);
  }
}

/** Bundling cannot glob, so index.ts lists the test files: refuse to run with one left out. */
export function checkSuiteList() {
  const index = readFileSync(join(SUITE_DIR, 'index.ts'), 'utf8');
  const unlisted = readdirSync(SUITE_DIR)
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => !index.includes(`import('./${f.slice(0, -'.ts'.length)}')`));
  if (unlisted.length > 0) {
    throw new Error(`add to TEST_FILES in ${SUITE_DIR}/index.ts: ${unlisted.map((f) => `() => import('./${f.slice(0, -3)}')`).join(', ')}`);
  }
}

/** dist/extension.js and the bundled suite out/integration/index.js. */
export function buildBundles() {
  // The extension as users get it (minified); the suite unminified, for readable stack traces.
  // The in-host benchmark profiles the extension: its function names must be readable there.
  const production = process.env.APPSEC_BENCH === '1' ? [] : ['--production'];
  // APPSEC_PROFILE_ACTIVATION=1 npm run bench:host: a CPU profile of `activate`, taken by a
  // wrapper the bench's build alone holds (test/integration/profiled-extension.ts).
  const profiled = process.env.APPSEC_BENCH === '1' && process.env.APPSEC_PROFILE_ACTIVATION === '1' ? ['--profile-activation'] : [];
  const flags = ['--tests', ...production, ...profiled];
  run(process.execPath, ['esbuild.mjs', ...flags], `node esbuild.mjs ${flags.join(' ')}`);
}

/** Packages the built extension into `outDir` and returns the .vsix path. */
export function packageVsix(outDir) {
  const vsix = join(outDir, 'appsec-findings.vsix');
  run('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix], 'vsce package', { quiet: true });
  const junk = zipEntries(vsix).filter((name) => !ALLOWED.some((re) => re.test(name)));
  if (junk.length > 0) throw new Error(`the .vsix holds files users do not need (fix .vscodeignore):\n  ${junk.join('\n  ')}`);
  return vsix;
}

/** Entry names from a zip's central directory (enough of the format for a .vsix; no dependency). */
export function zipEntries(file) {
  const buf = readFileSync(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const nameLength = buf.readUInt16LE(offset + 28);
    const extraLength = buf.readUInt16LE(offset + 30);
    const commentLength = buf.readUInt16LE(offset + 32);
    names.push(buf.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
