// What the host installs run in, whoever started them.
import { delimiter } from 'node:path';

/**
 * The environment without what an outer `npm run` passes down. npm exports its whole config as
 * `npm_config_*` (among them `user_agent`, which names the outer Node: code-server's install
 * script reads the Node version from it rather than from the `node` on PATH, and refuses), and
 * puts the project's `node_modules/.bin` and its own `node-gyp-bin` on PATH. The installs here
 * must behave the same whether they are started by `npm test`, `npm run demo` or by hand.
 */
export function outsideNpmRun(env) {
  const inherited = (name) => /^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE';
  const clean = Object.fromEntries(Object.entries(env).filter(([name]) => !inherited(name)));
  const npmAdded = (dir) => /[\\/]node_modules[\\/]\.bin$/.test(dir) || /[\\/]node-gyp-bin$/.test(dir);
  if (clean.PATH) clean.PATH = clean.PATH.split(delimiter).filter((dir) => !npmAdded(dir)).join(delimiter);
  return clean;
}
