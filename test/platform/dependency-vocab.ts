/**
 * What the local platform's dependency inventories are made of: the license of each package it
 * knows, the deployment's license policy, the lockfiles of a repository of each ecosystem, and
 * the packages without a known vulnerability that every repository of an ecosystem draws from
 * (in several versions, so "where else is it used" and version bounds have answers).
 */

/** The organization's license policy: what a pull request adding such a dependency gets. */
export const LICENSE_POLICY = {
  block: ['AGPL-3.0', 'GPL-2.0', 'GPL-2.0-or-later', 'GPL-3.0', 'GPL-3.0-or-later'],
  comment: ['EPL-1.0', 'LGPL-2.1', 'LGPL-2.1-or-later', 'LGPL-3.0', 'MPL-2.0'],
} as const;

export type LicenseSetting = 'allow' | 'comment' | 'block';

/** Licenses of the packages the generator's findings name (vocab.ts); others default to MIT. */
const VULNERABLE_LICENSES: Readonly<Record<string, readonly string[]>> = {
  lodash: ['MIT'],
  minimist: ['MIT'],
  axios: ['MIT'],
  jsonwebtoken: ['MIT'],
  express: ['MIT'],
  semver: ['ISC'],
  ws: ['MIT'],
  'follow-redirects': ['MIT'],
  'flatmap-stream': ['MIT'],
  'ua-parser-js': ['MIT'],
  requests: ['Apache-2.0'],
  pyyaml: ['MIT'],
  django: ['BSD-3-Clause'],
  jinja2: ['BSD-3-Clause'],
  urllib3: ['MIT'],
  cryptography: ['Apache-2.0', 'BSD-3-Clause'],
  'org.apache.logging.log4j:log4j-core': ['Apache-2.0'],
  'com.fasterxml.jackson.core:jackson-databind': ['Apache-2.0'],
  'org.springframework:spring-web': ['Apache-2.0'],
  'org.yaml:snakeyaml': ['Apache-2.0'],
  'golang.org/x/net': ['BSD-3-Clause'],
  'golang.org/x/crypto': ['BSD-3-Clause'],
  'github.com/gin-gonic/gin': ['MIT'],
  'google.golang.org/grpc': ['Apache-2.0'],
};

/** A package without a known vulnerability: its licenses, the versions repositories use, and whether it is declared directly. */
export interface CleanPackage {
  readonly name: string;
  readonly versions: readonly string[];
  readonly licenses: readonly string[];
  readonly direct: boolean;
}

const clean = (name: string, versions: string, licenses: string, direct = false): CleanPackage => ({
  name,
  versions: versions.split(' '),
  licenses: licenses.split(' '),
  direct,
});

export const CLEAN_PACKAGES: Readonly<Record<string, readonly CleanPackage[]>> = {
  npm: [
    clean('debug', '4.3.4 2.6.9', 'MIT'),
    clean('ms', '2.1.2 2.0.0', 'MIT'),
    clean('mysql2', '3.9.1 3.6.5', 'MIT', true),
    clean('dotenv', '16.4.5 16.0.3', 'BSD-2-Clause', true),
    clean('uuid', '9.0.1 8.3.2', 'MIT', true),
    clean('inherits', '2.0.4', 'ISC'),
    clean('qs', '6.11.0 6.7.0', 'BSD-3-Clause'),
    clean('rxjs', '7.8.1', 'Apache-2.0', true),
    clean('tslib', '2.6.2 1.14.1', '0BSD'),
    clean('ckeditor5', '41.3.1', 'GPL-2.0-or-later', true),
    clean('@img/sharp-libvips-linux-x64', '1.0.2', 'LGPL-3.0'),
    clean('glob', '7.2.3 10.3.10', 'ISC'),
  ],
  pypi: [
    clean('certifi', '2024.2.2 2023.7.22', 'MPL-2.0'),
    clean('idna', '3.6 2.10', 'BSD-3-Clause'),
    clean('chardet', '4.0.0', 'LGPL-2.1'),
    clean('six', '1.16.0', 'MIT'),
    clean('python-dateutil', '2.9.0', 'Apache-2.0 BSD-3-Clause'),
    clean('gunicorn', '21.2.0 20.1.0', 'MIT', true),
    clean('psycopg2', '2.9.9', 'LGPL-3.0', true),
    clean('mysql-connector-python', '8.0.33', 'GPL-2.0', true),
    clean('markupsafe', '2.1.5 1.1.1', 'BSD-3-Clause'),
    clean('pyqt5', '5.15.10', 'GPL-3.0', true),
    clean('numpy', '1.26.4 1.24.3', 'BSD-3-Clause', true),
    clean('pytz', '2024.1', 'MIT'),
  ],
  maven: [
    clean('org.slf4j:slf4j-api', '2.0.12 1.7.36', 'MIT'),
    clean('com.google.guava:guava', '33.1.0-jre 31.1-jre', 'Apache-2.0', true),
    clean('org.apache.commons:commons-lang3', '3.14.0 3.12.0', 'Apache-2.0', true),
    clean('junit:junit', '4.13.2', 'EPL-1.0', true),
    clean('ch.qos.logback:logback-classic', '1.4.14', 'EPL-1.0 LGPL-2.1'),
    clean('mysql:mysql-connector-java', '8.0.33', 'GPL-2.0', true),
    clean('org.hibernate.orm:hibernate-core', '6.4.4.Final', 'LGPL-2.1', true),
    clean('com.google.code.gson:gson', '2.10.1', 'Apache-2.0'),
  ],
  gomod: [
    clean('github.com/stretchr/testify', 'v1.9.0 v1.8.4', 'MIT', true),
    clean('github.com/google/uuid', 'v1.6.0 v1.3.0', 'BSD-3-Clause', true),
    clean('golang.org/x/text', 'v0.14.0 v0.9.0', 'BSD-3-Clause'),
    clean('gopkg.in/yaml.v3', 'v3.0.1', 'MIT Apache-2.0'),
    clean('github.com/hashicorp/go-multierror', 'v1.1.1', 'MPL-2.0'),
    clean('github.com/sirupsen/logrus', 'v1.9.3', 'MIT', true),
    clean('github.com/minio/minio', 'v0.0.0-20240330200430-7f1d7b6c5b2a', 'AGPL-3.0', true),
    clean('golang.org/x/sys', 'v0.18.0', 'BSD-3-Clause'),
  ],
};

const CLEAN_LICENSES = new Map<string, readonly string[]>(
  Object.values(CLEAN_PACKAGES)
    .flat()
    .map((p) => [p.name, p.licenses]),
);

/** The licenses of a package the local platform knows; MIT for any other. */
export function licensesOf(name: string): readonly string[] {
  return VULNERABLE_LICENSES[name] ?? CLEAN_LICENSES.get(name) ?? ['MIT'];
}

/** A lockfile of a repository and the manifest of its subproject. */
export interface LockfileLayout {
  readonly path: string;
  readonly manifest: string;
  /** Lines one entry takes (an npm lockfile's entry is an object of several lines). */
  readonly entryLines: number;
}

const layout = (path: string, manifest: string, entryLines: number): LockfileLayout => ({ path, manifest, entryLines });

/** The first is the repository's root lockfile, the one supply-chain findings point at (vocab.ts). */
export const LOCKFILES: Readonly<Record<string, readonly LockfileLayout[]>> = {
  npm: [
    layout('package-lock.json', 'package.json', 4),
    layout('packages/admin/package-lock.json', 'packages/admin/package.json', 4),
    layout('tools/release/package-lock.json', 'tools/release/package.json', 4),
  ],
  pypi: [
    layout('poetry.lock', 'pyproject.toml', 6),
    layout('services/worker/requirements.txt', 'services/worker/requirements.txt', 1),
    layout('docs/requirements.txt', 'docs/requirements.txt', 1),
  ],
  maven: [
    layout('pom.xml', 'pom.xml', 5),
    layout('modules/api/pom.xml', 'modules/api/pom.xml', 5),
    layout('modules/batch/pom.xml', 'modules/batch/pom.xml', 5),
  ],
  gomod: [layout('go.mod', 'go.mod', 1), layout('tools/go.mod', 'tools/go.mod', 1), layout('examples/go.mod', 'examples/go.mod', 1)],
};

/** Where a package's archive is downloaded from (`resolvedUrl`). */
export function resolvedUrlOf(ecosystem: string, name: string, version: string): string {
  switch (ecosystem) {
    case 'npm':
      return `https://registry.npmjs.org/${name}/-/${name.split('/').pop() ?? name}-${version}.tgz`;
    case 'pypi':
      return `https://files.pythonhosted.org/packages/source/${name[0]}/${name}/${name}-${version}.tar.gz`;
    case 'maven': {
      const [group = '', artifact = name] = name.split(':');
      return `https://repo1.maven.org/maven2/${group.split('.').join('/')}/${artifact}/${version}/${artifact}-${version}.jar`;
    }
    case 'gomod':
      return `https://proxy.golang.org/${name}/@v/${version}.zip`;
    default:
      return '';
  }
}

/** FNV-1a of a text: the inventory's choices depend on names, not on the order of generation. */
export function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}
