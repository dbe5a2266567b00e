/**
 * A small hand-made deployment for the demo: `acme/demo-app`, whose findings point at real lines
 * of the files from demoFiles() and say what those lines do (the AI findings and secrets too),
 * beside four small generated projects (one with a deep path, one whose name needs
 * percent-encoding). Its branch `feature/checkout-v2` has its own scan, with findings that `main`
 * does not have. Its dependency inventory is read from the demo's manifests and lockfiles; the
 * other projects' is generated (dependencies.ts) and shares many of its packages.
 */
import { blobUrl, buildSastFinding, buildScaFinding, type FindingSpecBase, type SastSpec, type ScaSpec } from './build-findings';
import { demoAiFindings, demoSecrets, type DemoPlace } from './demo-ai-and-secrets';
import { demoDependencySeeds } from './demo-dependency-files';
import { buildInventory } from './dependencies';
import { demoFeatureFiles, demoFiles, locateInDemoFile } from './demo-files';
import { makeRule } from './generate-policies';
import { GENERATION_BASE_TIME, generateDeployment, scansOf } from './generator';
import { addAiAndSecrets } from './secrets-and-ai';
import type { PlatformData, StoredProject } from './types';
import { MALICIOUS_NPM, PACKAGES_BY_LANGUAGE, RULE_CATALOG, type PackageTemplate, type RuleTemplate } from './vocab';

export { demoFeatureFiles, demoFiles };

const DAY_MS = 86_400_000;
const DEMO_PROJECT_ID = 370_000;
const MAIN_REF = { name: 'main', sha: '3f1c9a7be0d24c55a8e1f0b6c2d47e9a1b3c5d7e' };
const FEATURE_REF = { name: 'feature/checkout-v2', sha: '9b2e4d6f8a0c1e3f5a7b9c1d3e5f7a9b0c2d4e6f' };

type Status = FindingSpecBase['status'];

function rule(path: string): RuleTemplate {
  const found = RULE_CATALOG.find((r) => r.path === path);
  if (!found) throw new Error(`no catalog rule ${path}`);
  return found;
}

function npm(name: string): PackageTemplate {
  const found = PACKAGES_BY_LANGUAGE.javascript.find((p) => p.package === name) ?? MALICIOUS_NPM.find((p) => p.package === name);
  if (!found) throw new Error(`no package ${name}`);
  return found;
}

/** [file, snippet, rule, policy mode, status, extras] of each demo code finding. */
/** `onFeatureToo`: the feature branch has it as well; `featureOnly`: only the feature branch has it (new there). */
interface DemoSast {
  file: string;
  snippet: string;
  rule: string;
  mode: string;
  status: Status;
  extra?: Partial<SastSpec>;
  onFeatureToo?: boolean;
  featureOnly?: boolean;
}

const DEMO_SAST: DemoSast[] = [
  {
    file: 'src/server.js',
    snippet: 'eval(req.body.expression)',
    rule: 'javascript.browser.security.eval-detected',
    mode: 'MODE_BLOCK',
    status: 'open',
    onFeatureToo: true,
    extra: {
      assistant: {
        verdict: 'true_positive',
        tag: 'user data',
        risk: 'high',
        autofix: true,
        fixCode: '  const result = Number(req.body.expression);\n',
        reason: 'The request body goes straight into eval: anyone who can post to /calc runs code on the server.',
      },
    },
  },
  {
    file: 'src/server.js',
    snippet: 'exec(`ping -c 1 ${req.query.host}`',
    rule: 'javascript.lang.security.detect-child-process',
    mode: 'MODE_COMMENT',
    status: 'open',
    extra: { fixPrCount: 1 },
  },
  {
    file: 'src/server.js',
    snippet: "path.join(__dirname, 'public', req.params.name)",
    rule: 'javascript.lang.security.audit.path-traversal.path-join-resolve-traversal',
    mode: 'MODE_MONITOR',
    status: 'open',
  },
  {
    file: 'src/server.js',
    snippet: "res.write('<h1>Hello ' + req.query.name + '</h1>')",
    rule: 'javascript.express.security.audit.xss.direct-response-write',
    mode: 'MODE_MONITOR',
    status: 'open',
    extra: {
      assistant: {
        verdict: 'false_positive',
        tag: 'user data',
        risk: 'low',
        autofix: false,
        fixCode: "  res.write('<h1>Hello ' + encodeURIComponent(req.query.name) + '</h1>');\n",
        reason: "Only the name the user typed is echoed back to that same user, on a page with nothing else on it: no one else's session is reachable.",
      },
    },
  },
  {
    file: 'src/db.js',
    snippet: "pool.query('SELECT * FROM users WHERE id = ' + id)",
    rule: 'javascript.express.security.injection.tainted-sql-string',
    mode: 'MODE_BLOCK',
    status: 'open',
    onFeatureToo: true,
    extra: {
      ticketId: 4211,
      assistant: {
        verdict: 'true_positive',
        tag: 'user data',
        risk: 'high',
        autofix: true,
        fixCode: "  const [rows] = await pool.query('SELECT * FROM users WHERE id = ?', [id]);\n",
        reason: 'The id comes from the URL and is concatenated into the SQL text: a crafted id reads or changes any row.',
      },
    },
  },
  {
    file: 'src/db.js',
    snippet: "`SELECT * FROM products WHERE name LIKE '%${term}%'`",
    rule: 'javascript.express.security.injection.tainted-sql-string',
    mode: 'MODE_BLOCK',
    status: 'fixed',
    extra: { fixPrCount: 1 },
  },
  {
    file: 'src/db.js',
    snippet: 'target[key] = source[key]',
    rule: 'javascript.lang.security.audit.prototype-pollution.prototype-pollution-loop',
    mode: 'MODE_MONITOR',
    status: 'ignored',
    extra: { triageReason: 'acceptable_risk' },
  },
  {
    file: 'src/auth/login.js',
    snippet: "jwt.sign({ sub: user.id }, JWT_SECRET, { expiresIn: '1h' })",
    rule: 'javascript.jsonwebtoken.security.jwt-hardcode.hardcoded-jwt-secret',
    mode: 'MODE_COMMENT',
    status: 'open',
    extra: {
      reviewCommentCount: 1,
      assistant: {
        verdict: 'true_positive',
        tag: 'authentication',
        risk: 'high',
        autofix: true,
        fixCode: "  const token = jwt.sign({ sub: user.id }, process.env.JWT_SECRET, { expiresIn: '1h' });\n",
        reason: 'The signing secret is a constant in the source: anyone with the code can mint valid tokens for any user.',
      },
    },
  },
  {
    file: 'src/auth/login.js',
    snippet: "crypto.createHash('md5')",
    rule: 'javascript.lang.security.audit.md5-used-as-password',
    mode: 'MODE_MONITOR',
    status: 'fixing',
    extra: { fixPrCount: 1 },
  },
  {
    file: 'src/auth/login.js',
    snippet: 'debugger;',
    rule: 'javascript.lang.best-practice.leftover_debugging.javascript-debugger',
    mode: 'MODE_MONITOR',
    status: 'reviewing',
    extra: { end: undefined },
  },
  {
    file: 'src/checkout.js',
    snippet: `pool.query("SELECT * FROM coupons WHERE code = '" + req.body.code + "'")`,
    rule: 'javascript.express.security.injection.tainted-sql-string',
    mode: 'MODE_BLOCK',
    status: 'open',
    featureOnly: true,
    extra: {
      assistant: {
        verdict: 'true_positive',
        tag: 'user data',
        risk: 'high',
        autofix: true,
        fixCode: "  const [rows] = await pool.query('SELECT * FROM coupons WHERE code = ?', [req.body.code]);\n",
        reason: 'The coupon code from the request body is concatenated into the SQL text: a crafted code reads other coupons or tables.',
      },
    },
  },
  {
    file: 'src/checkout.js',
    snippet: "res.write('<p>No coupon named ' + req.body.code + '</p>')",
    rule: 'javascript.express.security.audit.xss.direct-response-write',
    mode: 'MODE_MONITOR',
    status: 'open',
    featureOnly: true,
  },
];

interface DemoSca {
  pkg: string;
  transitivity: ScaSpec['transitivity'];
  reachability: ScaSpec['reachability'];
  status: Status;
  usage?: [string, string];
  onFeatureToo?: boolean;
}

const DEMO_SCA: DemoSca[] = [
  { pkg: 'express', transitivity: 'direct', reachability: 'reachable', status: 'open', usage: ['src/server.js', 'express()'], onFeatureToo: true },
  { pkg: 'jsonwebtoken', transitivity: 'direct', reachability: 'conditionally_reachable', status: 'open', usage: ['src/auth/login.js', 'jwt.sign'] },
  { pkg: 'axios', transitivity: 'direct', reachability: 'unreachable', status: 'open' },
  { pkg: 'lodash', transitivity: 'transitive', reachability: 'unknown', status: 'open' },
  { pkg: 'minimist', transitivity: 'transitive', reachability: 'unreachable', status: 'ignored' },
];

function demoProject(): StoredProject {
  return {
    id: DEMO_PROJECT_ID,
    name: 'acme/demo-app',
    tags: ['demo', 'team:web'],
    created_at: '2023-02-14T09:30:00.000Z',
    default_branch: 'main',
    primary_branch: 'main',
    latest_scan_at: '2024-05-31 18:04:11.482913+00:00',
    url: 'https://github.com/acme/demo-app',
    managed_scan_config: { diff_scan: { enabled: true }, full_scan: { enabled: true } },
    repository_id: DEMO_PROJECT_ID,
  };
}

function base(
  project: StoredProject,
  main: { name: string; sha: string },
  id: number,
  index: number,
  file: string,
  at: ReturnType<typeof locateInDemoFile>,
  status: Status,
): FindingSpecBase {
  const relevantSince = GENERATION_BASE_TIME - (index + 1) * 2 * DAY_MS - index * 3_600_000;
  return {
    id,
    syntacticId: `de30${String(id).padStart(28, '0')}`,
    matchBasedId: `ba5e${String(id).padStart(28, '0')}`,
    projectName: project.name,
    repoUrl: project.url,
    ref: main.name,
    commitSha: main.sha,
    severity: 'medium',
    confidence: 'high',
    status,
    triageReason: 'no_time',
    triageComment: 'Accepted for the demo.',
    createdAt: relevantSince - DAY_MS,
    relevantSince,
    scanId: 9_100_000 + index,
    // Alternate both wire spellings of locations and timestamps, as the real service does.
    locationStyle: index % 2 === 0 ? 'snake' : 'camel',
    timeStyle: index % 3 === 0 ? 'python' : 'iso',
    path: file,
    line: at.line,
    column: at.column,
    end: { line: at.endLine, column: at.endColumn },
    ticketId: undefined,
    reviewCommentCount: 0,
  };
}

/** The same finding seen on a feature branch: same syntactic_id, its own id and a newer time. */
function onFeature<S extends FindingSpecBase>(spec: S, id: number, feature: { name: string; sha: string }): S {
  return { ...spec, id, ref: feature.name, commitSha: feature.sha, relevantSince: spec.relevantSince + DAY_MS, scanId: spec.scanId + 500 };
}

/**
 * `commits`: the commits `main` and `feature/checkout-v2` were scanned at (the demo workspace's,
 * so findings map onto them).
 */
export function demoDeployment(commits: { main?: string; feature?: string } = {}): PlatformData {
  const MAIN = { name: MAIN_REF.name, sha: commits.main ?? MAIN_REF.sha };
  const FEATURE = { name: FEATURE_REF.name, sha: commits.feature ?? FEATURE_REF.sha };
  const data = generateDeployment({ seed: 11, projects: 4, sastPerProject: 12, scaPerProject: 4 });
  const project = demoProject();
  data.projects.unshift(project);
  const policy = data.policies[0];
  const policyRules = data.rulesByPolicyId.get(policy.id ?? '') ?? [];
  let id = 20_000_001;
  DEMO_SAST.forEach((d, index) => {
    const template = rule(d.rule);
    // The demo rules belong to the default policy in a known mode (the `policies` filter uses it).
    const existing = policyRules.find((r) => r.path === template.path);
    if (existing) existing.policyMode = d.mode;
    else
      policyRules.push(
        makeRule(template, String(490_001 + index), {
          mode: d.mode,
          source: 'SOURCE_COMMUNITY',
          confidence: 'CONFIDENCE_HIGH',
          changedAt: '2024-03-02T10:00:00.000Z',
        }),
      );
    const spec: SastSpec = {
      ...base(project, MAIN, id++, index, d.file, locateInDemoFile(d.file, d.snippet), d.status),
      severity: template.severity,
      rule: template,
      policy: { id: Number(policy.id), name: policy.name ?? '', slug: policy.slug ?? '' },
      fixPrCount: 0,
      fixFailureCount: 0,
      ...d.extra,
    };
    if (d.featureOnly) {
      data.sast.push(buildSastFinding(onFeature(spec, id++, FEATURE)));
      return;
    }
    data.sast.push(buildSastFinding(spec));
    if (d.onFeatureToo) data.sast.push(buildSastFinding(onFeature(spec, id++, FEATURE)));
  });
  const lockText = demoFiles()['package-lock.json'] ?? '';
  DEMO_SCA.forEach((d, index) => {
    const pkg = npm(d.pkg);
    const at = locateInDemoFile('package-lock.json', `"node_modules/${pkg.package}": {`);
    const useAt = d.usage ? locateInDemoFile(d.usage[0], d.usage[1]) : undefined;
    const spec: ScaSpec = {
      ...base(project, MAIN, id++, DEMO_SAST.length + index, 'package-lock.json', at, d.status),
      severity: pkg.severity,
      pkg,
      transitivity: d.transitivity,
      reachability: d.reachability,
      epss: { score: 0.0123 * (index + 1), percentile: 0.41 + index * 0.1 },
      usage: d.usage && useAt ? { path: d.usage[0], line: useAt.line, column: useAt.column, endLine: useAt.endLine, endColumn: useAt.endColumn } : undefined,
    };
    if (!lockText.includes(pkg.version)) throw new Error(`demo lockfile lacks ${pkg.package}@${pkg.version}`);
    data.sca.push(buildScaFinding(spec));
    if (d.onFeatureToo) data.sca.push(buildScaFinding(onFeature(spec, id++, FEATURE)));
  });
  data.scans.push(...scansOf(project.repository_id, MAIN, data.scans.length), ...scansOf(project.repository_id, FEATURE, data.scans.length + 3));
  // The demo project's AI findings and secrets are hand-made to match its code; the other projects get generated ones.
  const place = (path: string, snippet: string): DemoPlace => ({
    path,
    ...locateInDemoFile(path, snippet),
    url: (line: number) => blobUrl(project.url, MAIN.sha, path, line),
  });
  const template = data.sast.find((f) => f.repository?.name === project.name && f.ref === MAIN.name && f.status === 'open');
  if (template) data.ai_sast.push(...demoAiFindings(template, place, 5_900_001));
  data.secrets.push(...demoSecrets(project, MAIN.name, template?.created_at ?? new Date(GENERATION_BASE_TIME).toISOString(), place, 6_900_001));
  addAiAndSecrets(
    data,
    3,
    data.projects.filter((p) => p !== project).map((p) => p.name),
  );
  const scanned = data.scans.find((s) => s.repository_id === project.repository_id && s.commit === MAIN.sha && s.status === 'SCAN_STATUS_COMPLETED');
  const seeds = demoDependencySeeds({
    repositoryId: project.repository_id,
    repoUrl: project.url,
    commit: MAIN.sha,
    committedAt: scanned?.completed_at ?? project.latest_scan_at,
  });
  data.dependencies = buildInventory(data, new Map([[project.repository_id, seeds]]));
  // Traces of the demo's findings quote, and point at, real lines of its files.
  data.sourceFiles = new Map([[project.name, { ...demoFiles(), ...demoFeatureFiles() }]]);
  return data;
}
