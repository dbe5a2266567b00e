// The host installs run the same whoever starts them: what an outer `npm run` passes down (its
// config, among it the user agent naming the outer Node, and its PATH entries) never reaches them.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
// @ts-expect-error: a plain .mjs launcher module, without types
import { outsideNpmRun } from '../integration/launch/npm-env.mjs';

const clean = outsideNpmRun as (env: Record<string, string>) => Record<string, string>;

void test("what npm run adds about itself (its user agent, its project, its Node, its PATH entries) is dropped; a user's config stays", () => {
  const env = clean({
    PATH: '/work/app/node_modules/.bin:/work/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/opt/node24/bin:/usr/bin',
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    npm_config_local_prefix: '/work/app',
    npm_config_npm_version: '11.19.1',
    npm_config_registry: 'https://registry.example.test/',
    NPM_CONFIG_CAFILE: '/etc/ssl/certs/ca.pem',
    npm_lifecycle_event: 'demo',
    npm_package_name: 'appsec-findings',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    npm_node_execpath: '/usr/bin/node',
    NODE: '/usr/bin/node',
    INIT_CWD: '/work/app',
    HOME: '/root',
    TMPDIR: '/tmp',
    NODE_OPTIONS: '--max-old-space-size=4096',
  });
  assert.deepEqual(env, {
    PATH: '/opt/node24/bin:/usr/bin',
    HOME: '/root',
    TMPDIR: '/tmp',
    NODE_OPTIONS: '--max-old-space-size=4096',
    // What a user exported reaches the inner npm.
    npm_config_registry: 'https://registry.example.test/',
    NPM_CONFIG_CAFILE: '/etc/ssl/certs/ca.pem',
  });
});

void test('an environment npm did not touch is kept as it is', () => {
  const env = { PATH: '/usr/local/bin:/usr/bin', HOME: '/root', LANG: 'C.UTF-8' };
  assert.deepEqual(clean(env), env);
});
