// What the host installs run in, whoever started them.
import { delimiter } from 'node:path';

/**
 * The config an outer `npm run` adds about itself: its user agent names the outer Node (and
 * code-server's install script reads the Node version from it rather than from the `node` on
 * PATH, and refuses), its project folder would become the inner install's, its npm and node-gyp
 * are the outer Node's. The rest of `npm_config_*` stays: the inner npm reads the same npmrc
 * files anyway, and a value a user exported (a registry, a proxy, a CA file) must reach it.
 */
const OUTER_RUN_CONFIG = ['user_agent', 'local_prefix', 'npm_version', 'node_gyp', 'prefix', 'global_prefix', 'loglevel'];

/**
 * The environment without what an outer `npm run` passes down about itself: the config above,
 * its lifecycle and package variables (`npm_lifecycle_*`, `npm_package_*`, `npm_execpath`, …),
 * `INIT_CWD` and `NODE`, and the project's `node_modules/.bin` and npm's `node-gyp-bin` on PATH.
 * The installs here must behave the same whether `npm test`, `npm run demo` or a person starts them.
 */
export function outsideNpmRun(env) {
  const outerConfig = new Set(OUTER_RUN_CONFIG.map((key) => `npm_config_${key}`));
  const inherited = (name) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('npm_config_')) return outerConfig.has(lower);
    return lower.startsWith('npm_') || name === 'INIT_CWD' || name === 'NODE';
  };
  const clean = Object.fromEntries(Object.entries(env).filter(([name]) => !inherited(name)));
  const npmAdded = (dir) => /[\\/]node_modules[\\/]\.bin$/.test(dir) || /[\\/]node-gyp-bin$/.test(dir);
  if (clean.PATH)
    clean.PATH = clean.PATH.split(delimiter)
      .filter((dir) => !npmAdded(dir))
      .join(delimiter);
  return clean;
}
