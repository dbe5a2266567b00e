// Bundles the extension (and, with --tests, the integration suite) with esbuild.
// Type-checking is separate (`npm run typecheck`): esbuild only strips types.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
// The in-host benchmark's build with APPSEC_PROFILE_ACTIVATION=1 only: `activate` wrapped in a CPU
// profile (test/integration/profiled-extension.ts). Never a shipped build.
const profileActivation = process.argv.includes('--profile-activation');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

const extensionEntry = profileActivation ? 'test/integration/profiled-extension.ts' : 'src/extension.ts';
const builds = [
  { ...common, entryPoints: [extensionEntry], outfile: 'dist/extension.js' },
  // The MCP server, a plain Node script an agent starts (it never loads vscode).
  { ...common, entryPoints: ['src/mcp/main.ts'], outfile: 'dist/mcp-server.js' },
];
if (tests) {
  // The integration suite runs inside the extension host; mocha stays external-free (bundled).
  builds.push({
    ...common,
    minify: false,
    sourcemap: true,
    entryPoints: ['test/integration/suite/index.ts'],
    outfile: 'out/integration/index.js',
    // Mocha's parallel mode (never used in the extension host) resolves files at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
