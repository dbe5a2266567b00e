/**
 * `npm run platform [-- flags]`: runs the local platform server until SIGINT/SIGTERM.
 *
 *   --port N        listen port (default: an ephemeral one)
 *   --demo          serve the small hand-made demo deployment (acme/demo-app)
 *   --demo-commit S the commit the demo's main-branch findings were scanned at (the demo workspace's)
 *   --demo-feature-commit S  the same for its branch feature/checkout-v2
 *   --projects N --sast N --sca N --seed N   size and seed of a generated deployment
 *   --latency MS    added to every response
 *   --token T       accepted Bearer token (default test-token)
 *   --tls           serve https with a throwaway CA (made with openssl); prints the CA file to
 *                   put in appsecFindings.caBundlePath
 *   --json          print one JSON line {url, token, deploymentId, deploymentSlug} and nothing else
 *   --shape S       `service` (default: answers as the real service sends them) or `spec`
 *   --max-page-size N   at most N items per findings or projects page, whatever is asked
 *   --without LIST  products the deployment lacks, comma-separated, each optionally with the
 *                   status its endpoints answer: `secrets,ai` or `sca:403,secrets:404,ai:400`
 *                   (code, ai, sca, secrets, policies, sbom, tickets, dependencies, issue-v2,
 *                   autofix; 404 by default, 400 for ai). `dependencies` takes away Supply
 *                   Chain's inventory alone; without `sca` the inventory is refused too;
 *                   `issue-v2` is one finding's story (the experimental v2 call), `autofix` the
 *                   fix pull requests
 *   --read-only     the token's role may not write: triage, tickets, changes to projects and
 *                   policy rules, SBOM exports, fix requests answer 403
 */
import { demoDeployment } from './demo';
import { generateDeployment } from './generator';
import { startPlatformServer } from './server';
import type { AnswerShape } from './service-shape';
import { defaultMissingStatus, PRODUCTS, type Product } from './routes';
import { makeTestCa } from './tls-certs';

interface CliOptions {
  port?: number;
  demo: boolean;
  /** The demo workspace's commit: the demo's main-branch findings say they were scanned there. */
  demoCommit?: string;
  demoFeatureCommit?: string;
  projects?: number;
  sast?: number;
  sca?: number;
  seed?: number;
  latency?: number;
  token?: string;
  json: boolean;
  tls: boolean;
  shape: AnswerShape;
  maxPageSize?: number;
  without: Map<Product, number | undefined>;
  readOnly: boolean;
}

const NUMERIC_FLAGS = {
  '--port': 'port',
  '--projects': 'projects',
  '--sast': 'sast',
  '--sca': 'sca',
  '--seed': 'seed',
  '--latency': 'latency',
  '--max-page-size': 'maxPageSize',
} as const;

function parseArgs(argv: string[]): CliOptions {
  const out: CliOptions = { demo: false, json: false, tls: false, shape: 'service', without: new Map(), readOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--demo') out.demo = true;
    else if (flag === '--json') out.json = true;
    else if (flag === '--tls') out.tls = true;
    else if (flag === '--read-only') out.readOnly = true;
    else if (flag === '--without') out.without = parseWithout(required(argv, ++i, flag));
    else if (flag === '--token') out.token = required(argv, ++i, flag);
    else if (flag === '--demo-commit' || flag === '--demo-feature-commit') {
      const commit = required(argv, ++i, flag);
      if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`${flag} needs a 40-character commit id`);
      out[flag === '--demo-commit' ? 'demoCommit' : 'demoFeatureCommit'] = commit;
    } else if (flag === '--shape') {
      const shape = required(argv, ++i, flag);
      if (shape !== 'service' && shape !== 'spec') throw new Error('--shape is service or spec');
      out.shape = shape;
    } else if (flag in NUMERIC_FLAGS) {
      const value = Number(required(argv, ++i, flag));
      if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} needs a non-negative integer`);
      out[NUMERIC_FLAGS[flag as keyof typeof NUMERIC_FLAGS]] = value;
    } else throw new Error(`unknown flag ${flag}`);
  }
  return out;
}

function parseWithout(text: string): Map<Product, number | undefined> {
  const out = new Map<Product, number | undefined>();
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [name, status] = entry.split(':');
    if (!(PRODUCTS as readonly string[]).includes(name)) throw new Error(`--without: unknown product ${name} (one of ${PRODUCTS.join(', ')})`);
    if (status !== undefined && !['400', '403', '404'].includes(status)) throw new Error(`--without: ${name}'s status is 400, 403 or 404`);
    out.set(name as Product, status === undefined ? undefined : Number(status));
  }
  return out;
}

function required(argv: string[], i: number, flag: string): string {
  const value = argv[i];
  if (value === undefined) throw new Error(`${flag} needs a value`);
  return value;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const data = args.demo
    ? demoDeployment({ main: args.demoCommit, feature: args.demoFeatureCommit })
    : generateDeployment({
        ...(args.projects === undefined ? {} : { projects: args.projects }),
        ...(args.sast === undefined ? {} : { sastPerProject: args.sast }),
        ...(args.sca === undefined ? {} : { scaPerProject: args.sca }),
        ...(args.seed === undefined ? {} : { seed: args.seed }),
      });
  const ca = args.tls ? makeTestCa() : undefined;
  const platform = await startPlatformServer({
    data,
    ...(ca ? { tls: ca.server } : {}),
    ...(args.port === undefined ? {} : { port: args.port }),
    ...(args.latency === undefined ? {} : { latencyMs: args.latency }),
    ...(args.token === undefined ? {} : { token: args.token }),
    ...(args.maxPageSize === undefined ? {} : { maxPageSize: args.maxPageSize }),
    shape: args.shape,
    without: args.without,
    readOnly: args.readOnly,
  });
  const { id, slug } = data.deployment;
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ url: platform.url, token: platform.token, deploymentId: id, deploymentSlug: slug, ...(ca ? { caCertPath: ca.caCertPath } : {}) })}\n`,
    );
  } else {
    console.log(`Local platform listening at ${platform.url}`);
    console.log(`  deployment id:   ${id}`);
    console.log(`  deployment slug: ${slug}`);
    console.log(`  token:           ${platform.token}`);
    if (ca) console.log(`  CA certificate:  ${ca.caCertPath} (set appsecFindings.caBundlePath to it)`);
    console.log(`  ${data.projects.length} projects, ${data.sast.length} code findings, ${data.sca.length} supply-chain findings`);
    if (args.without.size > 0) console.log(`  without: ${[...args.without].map(([p, s]) => `${p} (${s ?? defaultMissingStatus(p)})`).join(', ')}`);
    if (args.readOnly) console.log("  the token's role may not write (403)");
    console.log('Press Ctrl+C to stop.');
  }
  const stop = (): void => {
    platform.close().then(
      () => {
        ca?.dispose();
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
});
