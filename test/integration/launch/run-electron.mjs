// The same integration suite under @vscode/test-electron, for contributors with desktop VS Code
// and internet access: it downloads a VS Code build (the newest stable, or --version X.Y.Z).
// CI and these build machines cannot download it; they use run-code-server.mjs instead.
//
// Usage: node test/integration/launch/run-electron.mjs [--version 1.100.3 | --vscode-executable /path/to/code]
// (--vscode-executable uses an installed VS Code instead of downloading one.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { buildBundles, checkSuiteList } from './build.mjs';

process.chdir(fileURLToPath(new URL('../../..', import.meta.url)));
const argv = process.argv.slice(2);
const versionAt = argv.indexOf('--version');
const version = versionAt === -1 ? 'stable' : argv[versionAt + 1];
const executableAt = argv.indexOf('--vscode-executable');
const vscodeExecutablePath = executableAt === -1 ? undefined : resolve(argv[executableAt + 1]);

checkSuiteList();
buildBundles();
const run = mkdtempSync(join(tmpdir(), 'appsec-electron-'));
const workspace = join(run, 'workspace');
spawnSync('git', ['init', '-q', workspace], { stdio: 'inherit' });
const results = join(run, 'results.json');
let code = 1;
try {
  code = await runTests({
    ...(vscodeExecutablePath ? { vscodeExecutablePath } : { version }),
    extensionDevelopmentPath: resolve('.'),
    extensionTestsPath: resolve('out/integration/index.js'),
    // Same variables as under code-server, minus the screenshot handshake (a no-op here).
    extensionTestsEnv: { APPSEC_TEST_HOST: `electron-${version}`, APPSEC_TEST_WORKSPACE: workspace, APPSEC_TEST_RESULTS: results },
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(run, 'user-data')],
  });
} catch (error) {
  const text = String(error instanceof Error ? error.message : error);
  console.error(`[electron] ${text}`);
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|getaddrinfo|download|fetch failed/i.test(text)) {
    console.error(
      '[electron] Could not download VS Code. This launcher needs internet access; offline, run the same suite with `npm run test:integration` (code-server).',
    );
  }
} finally {
  if (existsSync(results)) {
    const { passed, failed } = JSON.parse(readFileSync(results, 'utf8'));
    console.log(`electron: ${passed} passed, ${failed} failed`);
  }
  rmSync(run, { recursive: true, force: true });
}
process.exit(code === 0 ? 0 : 1);
