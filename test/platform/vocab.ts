/**
 * Vocabulary for generated deployments: rule names, file paths, packages and advisories that look
 * like the real platform's, so views, grouping and the demo show plausible data.
 */
export type Language = 'python' | 'javascript' | 'java' | 'go';
export type Severity = 'low' | 'medium' | 'high' | 'critical';

export interface RuleTemplate {
  path: string;
  language: Language | 'generic';
  severity: Severity;
  category: 'security' | 'best-practice' | 'correctness';
  cwe: string[];
  owasp: string[];
  vulnClass: string[];
  technologies: string[];
  message: string;
}

const INJECTION = ['A03:2021 - Injection', 'A01:2017 - Injection'];
const CRYPTO = ['A02:2021 - Cryptographic Failures'];
const SECRETS = ['A07:2021 - Identification and Authentication Failures'];

/** Compact row form: [path, language, severity, category, cwe, owasp, vulnClass, technology, message]. */
type RuleRow = [string, RuleTemplate['language'], Severity, RuleTemplate['category'], string, string[], string, string, string];

const RULE_ROWS: RuleRow[] = [
  [
    'python.lang.security.audit.eval-detected',
    'python',
    'high',
    'security',
    "CWE-95: Improper Neutralization of Directives in Dynamically Evaluated Code ('Eval Injection')",
    INJECTION,
    'Code Injection',
    'python',
    'Detected the use of eval(). eval() can be dangerous if used to evaluate dynamic content.',
  ],
  [
    'python.lang.security.audit.exec-detected',
    'python',
    'high',
    'security',
    "CWE-95: Improper Neutralization of Directives in Dynamically Evaluated Code ('Eval Injection')",
    INJECTION,
    'Code Injection',
    'python',
    'Detected the use of exec(). exec() can be dangerous if used to evaluate dynamic content.',
  ],
  [
    'python.django.security.injection.sql.sql-injection-using-raw',
    'python',
    'critical',
    'security',
    "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
    INJECTION,
    'SQL Injection',
    'django',
    'User-controlled data reaches a raw SQL query. Use parameterized queries instead.',
  ],
  [
    'python.flask.security.injection.os-system-injection',
    'python',
    'critical',
    'security',
    "CWE-78: Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
    INJECTION,
    'Command Injection',
    'flask',
    'User data flows into os.system(). This can lead to command injection.',
  ],
  [
    'python.lang.security.deserialization.pickle.avoid-pickle',
    'python',
    'high',
    'security',
    'CWE-502: Deserialization of Untrusted Data',
    ['A08:2021 - Software and Data Integrity Failures'],
    'Insecure Deserialization',
    'python',
    'Avoid using pickle, which is known to lead to code execution vulnerabilities.',
  ],
  [
    'python.requests.security.disabled-cert-validation',
    'python',
    'medium',
    'security',
    'CWE-295: Improper Certificate Validation',
    CRYPTO,
    'Improper Validation',
    'requests',
    'Certificate verification has been explicitly disabled.',
  ],
  [
    'python.jwt.security.jwt-hardcode.jwt-python-hardcoded-secret',
    'python',
    'high',
    'security',
    'CWE-798: Use of Hard-coded Credentials',
    SECRETS,
    'Hard-coded Secrets',
    'jwt',
    'Hardcoded JWT secret or private key is used.',
  ],
  [
    'python.lang.best-practice.open-never-closed',
    'python',
    'low',
    'best-practice',
    'CWE-772: Missing Release of Resource after Effective Lifetime',
    [],
    'Other',
    'python',
    'File opened but never closed. Use a with-statement.',
  ],
  [
    'javascript.browser.security.eval-detected',
    'javascript',
    'high',
    'security',
    "CWE-95: Improper Neutralization of Directives in Dynamically Evaluated Code ('Eval Injection')",
    INJECTION,
    'Code Injection',
    'browser',
    'Detected the use of eval(). eval() can be dangerous if used to evaluate dynamic content.',
  ],
  [
    'javascript.express.security.injection.tainted-sql-string',
    'javascript',
    'critical',
    'security',
    "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
    INJECTION,
    'SQL Injection',
    'express',
    'User data flows into a manually built SQL string. Use parameterized queries.',
  ],
  [
    'javascript.lang.security.detect-child-process',
    'javascript',
    'high',
    'security',
    "CWE-78: Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
    INJECTION,
    'Command Injection',
    'node.js',
    'Detected calls to child_process from a function argument. This could lead to command injection.',
  ],
  [
    'javascript.jsonwebtoken.security.jwt-hardcode.hardcoded-jwt-secret',
    'javascript',
    'high',
    'security',
    'CWE-798: Use of Hard-coded Credentials',
    SECRETS,
    'Hard-coded Secrets',
    'jsonwebtoken',
    'A hard-coded credential was detected. Load it from the environment or a vault.',
  ],
  [
    'javascript.express.security.audit.xss.direct-response-write',
    'javascript',
    'medium',
    'security',
    "CWE-79: Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')",
    INJECTION,
    'Cross-Site-Scripting (XSS)',
    'express',
    'Detected directly writing to a Response object from user-defined input.',
  ],
  [
    'javascript.lang.security.audit.path-traversal.path-join-resolve-traversal',
    'javascript',
    'medium',
    'security',
    "CWE-22: Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')",
    ['A01:2021 - Broken Access Control'],
    'Path Traversal',
    'node.js',
    'Possible path traversal: user input reaches path.join or path.resolve.',
  ],
  [
    'javascript.lang.security.audit.prototype-pollution.prototype-pollution-loop',
    'javascript',
    'medium',
    'security',
    'CWE-915: Improperly Controlled Modification of Dynamically-Determined Object Attributes',
    ['A08:2021 - Software and Data Integrity Failures'],
    'Mass Assignment',
    'node.js',
    'Possibility of prototype polluting function detected.',
  ],
  [
    'javascript.lang.security.audit.md5-used-as-password',
    'javascript',
    'medium',
    'security',
    'CWE-327: Use of a Broken or Risky Cryptographic Algorithm',
    CRYPTO,
    'Cryptographic Issues',
    'crypto',
    'MD5 is used to hash a password. Use bcrypt, scrypt or argon2.',
  ],
  [
    'javascript.lang.best-practice.leftover_debugging.javascript-debugger',
    'javascript',
    'low',
    'best-practice',
    'CWE-489: Active Debug Code',
    [],
    'Other',
    'javascript',
    'Found a debugger statement left in the code.',
  ],
  [
    'java.lang.security.audit.sqli.jdbc-sqli',
    'java',
    'critical',
    'security',
    "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
    INJECTION,
    'SQL Injection',
    'jdbc',
    'Detected a formatted string in a SQL statement. Use a PreparedStatement.',
  ],
  [
    'java.lang.security.audit.xxe.documentbuilderfactory-disallow-doctype-decl-missing',
    'java',
    'high',
    'security',
    'CWE-611: Improper Restriction of XML External Entity Reference',
    ['A05:2021 - Security Misconfiguration'],
    'XML Injection',
    'java',
    'DOCTYPE declarations are enabled for this DocumentBuilderFactory. This is vulnerable to XXE.',
  ],
  [
    'java.spring.security.injection.tainted-system-command',
    'java',
    'high',
    'security',
    "CWE-78: Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
    INJECTION,
    'Command Injection',
    'spring',
    'Untrusted input may be used to build a system command.',
  ],
  [
    'java.lang.security.audit.crypto.use-of-md5',
    'java',
    'medium',
    'security',
    'CWE-328: Use of Weak Hash',
    CRYPTO,
    'Insecure Hashing Algorithm',
    'java',
    'Detected MD5 hash algorithm which is considered insecure.',
  ],
  [
    'java.lang.security.audit.object-deserialization',
    'java',
    'high',
    'security',
    'CWE-502: Deserialization of Untrusted Data',
    ['A08:2021 - Software and Data Integrity Failures'],
    'Insecure Deserialization',
    'java',
    'Found object deserialization using ObjectInputStream.',
  ],
  [
    'java.lang.correctness.eqeq.eqeq',
    'java',
    'low',
    'correctness',
    'CWE-697: Incorrect Comparison',
    [],
    'Other',
    'java',
    'Strings are compared with == instead of .equals().',
  ],
  [
    'go.lang.security.audit.database.string-formatted-query',
    'go',
    'high',
    'security',
    "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
    INJECTION,
    'SQL Injection',
    'go',
    'String-formatted SQL query detected. Use parameterized queries.',
  ],
  [
    'go.lang.security.audit.crypto.insecure_ssh.avoid-ssh-insecure-ignore-host-key',
    'go',
    'medium',
    'security',
    'CWE-322: Key Exchange without Entity Authentication',
    CRYPTO,
    'Improper Authentication',
    'go',
    'Disabled host key verification detected.',
  ],
  [
    'go.lang.security.audit.xss.no-direct-write-to-responsewriter',
    'go',
    'medium',
    'security',
    "CWE-79: Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')",
    INJECTION,
    'Cross-Site-Scripting (XSS)',
    'go',
    'Detected directly writing or similar in http.ResponseWriter.',
  ],
  [
    'go.lang.security.audit.crypto.math_random.math-random-used',
    'go',
    'low',
    'security',
    'CWE-338: Use of Cryptographically Weak Pseudo-Random Number Generator (PRNG)',
    CRYPTO,
    'Cryptographic Issues',
    'go',
    'Do not use math/rand. Use crypto/rand instead.',
  ],
  [
    'go.lang.correctness.useless-eqeq.eqeq-is-bad',
    'go',
    'low',
    'correctness',
    'CWE-1025: Comparison Using Wrong Factors',
    [],
    'Other',
    'go',
    'Detected useless comparison operation.',
  ],
  [
    'generic.secrets.security.detected-aws-access-key-id-value',
    'generic',
    'critical',
    'security',
    'CWE-798: Use of Hard-coded Credentials',
    SECRETS,
    'Hard-coded Secrets',
    'secrets',
    'AWS Access Key ID Value detected.',
  ],
  [
    'generic.secrets.security.detected-private-key',
    'generic',
    'high',
    'security',
    'CWE-798: Use of Hard-coded Credentials',
    SECRETS,
    'Hard-coded Secrets',
    'secrets',
    'Private Key detected.',
  ],
];

export const RULE_CATALOG: readonly RuleTemplate[] = RULE_ROWS.map(([path, language, severity, category, cwe, owasp, vulnClass, technology, message]) => ({
  path,
  language,
  severity,
  category,
  cwe: [cwe],
  owasp,
  vulnClass: [vulnClass],
  technologies: [technology],
  message,
}));

export const PATHS_BY_LANGUAGE: Record<Language, readonly string[]> = {
  python: [
    'src/app/handlers/user.py',
    'src/app/handlers/payment.py',
    'src/app/models/account.py',
    'src/app/api/views.py',
    'src/app/utils/crypto.py',
    'src/app/services/export.py',
    'scripts/migrate_db.py',
    'tests/conftest.py',
  ],
  javascript: [
    'src/server.js',
    'src/routes/users.js',
    'src/routes/upload.ts',
    'src/db/query.ts',
    'src/auth/session.ts',
    'src/components/Search.tsx',
    'lib/utils/merge.js',
    'scripts/seed.js',
  ],
  java: [
    'src/main/java/com/acme/billing/InvoiceController.java',
    'src/main/java/com/acme/billing/dao/InvoiceDao.java',
    'src/main/java/com/acme/billing/xml/Importer.java',
    'src/main/java/com/acme/billing/util/Hashing.java',
    'src/main/java/com/acme/billing/jobs/ReportJob.java',
    'src/test/java/com/acme/billing/InvoiceTest.java',
  ],
  go: ['cmd/server/main.go', 'internal/store/orders.go', 'internal/http/handlers.go', 'internal/ssh/tunnel.go', 'pkg/token/random.go', 'pkg/proto/gateway.go'],
};

/** Paths for `generic` rules (secrets), which occur in any project. */
export const CONFIG_PATHS: readonly string[] = ['config/settings.yaml', '.env.example', 'deploy/k8s/secret.yaml', 'docker-compose.yml'];

export interface PackageTemplate {
  ecosystem: string;
  package: string;
  version: string;
  fixVersion: string;
  advisory: string;
  severity: Severity;
  summary: string;
  malicious?: boolean;
}

type PackageRow = [string, string, string, string, Severity, string];

const PACKAGE_ROWS: Record<Language, PackageRow[]> = {
  javascript: [
    ['lodash', '4.17.20', '4.17.21', 'CVE-2021-23337', 'high', 'Command Injection in lodash'],
    ['minimist', '1.2.5', '1.2.6', 'CVE-2021-44906', 'critical', 'Prototype Pollution in minimist'],
    ['axios', '0.21.1', '0.21.2', 'CVE-2021-3749', 'high', 'Inefficient Regular Expression Complexity in axios'],
    ['jsonwebtoken', '8.5.1', '9.0.0', 'CVE-2022-23529', 'high', 'jsonwebtoken unrestricted key type could lead to legacy keys usage'],
    ['express', '4.17.1', '4.19.2', 'CVE-2024-29041', 'medium', 'Express.js Open Redirect in malformed URLs'],
    ['semver', '7.5.1', '7.5.2', 'CVE-2022-25883', 'medium', 'semver vulnerable to Regular Expression Denial of Service'],
    ['ws', '7.4.5', '7.4.6', 'GHSA-6fc8-4gx4-v693', 'medium', 'ReDoS in Sec-Websocket-Protocol header'],
    ['follow-redirects', '1.14.7', '1.14.8', 'CVE-2022-0536', 'low', 'Exposure of Sensitive Information in follow-redirects'],
  ],
  python: [
    ['requests', '2.25.0', '2.31.0', 'CVE-2023-32681', 'medium', 'Unintended leak of Proxy-Authorization header in requests'],
    ['pyyaml', '5.3.1', '5.4', 'CVE-2020-14343', 'critical', 'Improper Input Validation in PyYAML'],
    ['django', '3.2.4', '3.2.25', 'CVE-2024-27351', 'medium', 'Django Regular expression denial-of-service'],
    ['jinja2', '2.11.2', '2.11.3', 'CVE-2020-28493', 'low', 'Regular Expression Denial of Service (ReDoS) in Jinja2'],
    ['urllib3', '1.26.4', '1.26.18', 'CVE-2023-45803', 'medium', "urllib3's request body not stripped after redirect"],
    ['cryptography', '3.3.1', '39.0.1', 'GHSA-x4qr-2fvf-3mr5', 'high', 'Vulnerable OpenSSL included in cryptography wheels'],
  ],
  java: [
    ['org.apache.logging.log4j:log4j-core', '2.14.1', '2.17.1', 'CVE-2021-44228', 'critical', 'Remote code injection in Log4j'],
    ['com.fasterxml.jackson.core:jackson-databind', '2.9.10', '2.12.7.1', 'CVE-2020-36518', 'high', 'Deeply nested json in jackson-databind'],
    ['org.springframework:spring-web', '5.3.18', '5.3.32', 'CVE-2024-22243', 'high', 'Spring Web vulnerable to Open Redirect or Server Side Request Forgery'],
    ['org.yaml:snakeyaml', '1.33', '2.0', 'CVE-2022-1471', 'high', 'SnakeYaml Constructor Deserialization Remote Code Execution'],
  ],
  go: [
    ['golang.org/x/net', '0.7.0', '0.17.0', 'CVE-2023-44487', 'high', 'HTTP/2 rapid reset can cause excessive work in net/http'],
    ['golang.org/x/crypto', '0.14.0', '0.17.0', 'CVE-2023-48795', 'medium', 'Prefix Truncation Attack against ChaCha20-Poly1305 and Encrypt-then-MAC'],
    ['github.com/gin-gonic/gin', '1.9.0', '1.9.1', 'CVE-2023-29401', 'medium', 'Gin Web Framework does not properly sanitize filename parameter'],
    ['google.golang.org/grpc', '1.56.2', '1.56.3', 'GHSA-m425-mq94-257g', 'high', 'gRPC-Go HTTP/2 Rapid Reset vulnerability'],
  ],
};

const ECOSYSTEM: Record<Language, string> = { javascript: 'npm', python: 'pypi', java: 'maven', go: 'gomod' };

export const LOCKFILE_BY_LANGUAGE: Record<Language, string> = {
  javascript: 'package-lock.json',
  python: 'poetry.lock',
  java: 'pom.xml',
  go: 'go.mod',
};

function packages(lang: Language): PackageTemplate[] {
  return PACKAGE_ROWS[lang].map(([pkg, version, fixVersion, advisory, severity, summary]) => ({
    ecosystem: ECOSYSTEM[lang],
    package: pkg,
    version,
    fixVersion,
    advisory,
    severity,
    summary,
  }));
}

export const PACKAGES_BY_LANGUAGE: Record<Language, readonly PackageTemplate[]> = {
  javascript: packages('javascript'),
  python: packages('python'),
  java: packages('java'),
  go: packages('go'),
};

/** Malicious packages (OSV `MAL-` advisories): rare, and what `is_malicious` selects. */
export const MALICIOUS_NPM: readonly PackageTemplate[] = [
  {
    ecosystem: 'npm',
    package: 'flatmap-stream',
    version: '0.1.1',
    fixVersion: '',
    advisory: 'MAL-2018-1',
    severity: 'critical',
    summary: 'Malicious code in flatmap-stream',
    malicious: true,
  },
  {
    ecosystem: 'npm',
    package: 'ua-parser-js',
    version: '0.7.29',
    fixVersion: '0.7.30',
    advisory: 'MAL-2021-2',
    severity: 'critical',
    summary: 'Embedded malware in ua-parser-js',
    malicious: true,
  },
];

export const COMPONENT_TAGS: readonly string[] = ['user data', 'payments', 'authentication', 'infrastructure', 'file handling', 'admin'];

export const FEATURE_REFS: readonly string[] = [
  'feature/checkout-v2',
  'release/2024.06',
  'fix/login-timeout',
  'dependabot/npm_and_yarn/lodash-4.17.21',
  'feature/JIRA-1234-audit-log',
];

export const TRIAGE_COMMENTS: readonly string[] = [
  'Input is validated upstream by the API gateway.',
  'Only reachable from the admin CLI, which runs with trusted input.',
  'Tracked in the Q3 hardening epic; no capacity this sprint.',
  'Test fixture, never deployed.',
];

export const FIX_FAILURE_REASONS: readonly string[] = [
  'Merge conflict with the base branch',
  'Autofix produced code that does not compile',
  'Branch protection rejected the push',
];
