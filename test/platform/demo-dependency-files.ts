/**
 * The demo workspace's manifests and lockfiles (`acme/demo-app`): an npm `package.json` with its
 * `package-lock.json`, and a PyPI `requirements.txt`. The demo's inventory is read from these
 * texts (`demoDependencySeeds`), so each dependency's `definedAt` is the line of its lockfile
 * entry and its manifest line the one that declares it; the demo's supply-chain findings point
 * at the same lockfile lines (demo.ts).
 */
import type { DependencySeed } from './dependencies';
import { licensesOf, resolvedUrlOf } from './dependency-vocab';

/** The app's direct dependencies, as both its manifest and its lockfile's root entry declare them. */
const DIRECT: readonly (readonly [string, string])[] = [
  ['axios', '0.21.1'],
  ['dotenv', '16.4.5'],
  ['express', '4.17.1'],
  ['jsonwebtoken', '8.5.1'],
  ['mysql2', '3.9.1'],
  ['uuid', '9.0.1'],
];
const declared = (indent: string): string => DIRECT.map(([name, version]) => `${indent}"${name}": "${version}"`).join(',\n');

export const PACKAGE_JSON = `{
  "name": "demo-app",
  "version": "1.0.0",
  "private": true,
  "main": "src/server.js",
  "scripts": { "start": "node src/server.js" },
  "dependencies": {
${declared('    ')}
  }
}
`;

/** [name, version] of each lockfile entry, in the lockfile's order. */
const LOCKED: readonly (readonly [string, string])[] = [
  ['axios', '0.21.1'],
  ['debug', '2.6.9'],
  ['dotenv', '16.4.5'],
  ['express', '4.17.1'],
  ['follow-redirects', '1.15.6'],
  ['inherits', '2.0.3'],
  ['jsonwebtoken', '8.5.1'],
  ['lodash', '4.17.20'],
  ['minimist', '1.2.5'],
  ['ms', '2.0.0'],
  ['mysql2', '3.9.1'],
  ['qs', '6.7.0'],
  ['safe-buffer', '5.1.2'],
  ['uuid', '9.0.1'],
];

const entry = ([name, version]: readonly [string, string]): string => `    "node_modules/${name}": {
      "version": "${version}",
      "resolved": "${resolvedUrlOf('npm', name, version)}",
      "license": "${licensesOf(name).join(' OR ')}"
    }`;

/** npm lockfile v3, trimmed to what the demo needs. */
export const PACKAGE_LOCK_JSON = `{
  "name": "demo-app",
  "version": "1.0.0",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "name": "demo-app",
      "version": "1.0.0",
      "dependencies": {
${declared('        ')}
      }
    },
${LOCKED.map(entry).join(',\n')}
  }
}
`;

/** The Python side: pinned, so each line is both the manifest and the lockfile entry. */
export const REQUIREMENTS_TXT = `# Python tooling of the nightly sales report.
requests==2.31.0
certifi==2024.2.2
chardet==4.0.0
idna==3.6
mysql-connector-python==8.0.33
psycopg2==2.9.9
`;

function lineIndex(text: string, predicate: (line: string) => boolean, from = 0): number {
  const lines = text.split('\n');
  for (let i = from; i < lines.length; i++) if (predicate(lines[i] ?? '')) return i + 1;
  throw new Error('demo manifest line not found');
}

/** The demo repository's inventory, read from the texts above. */
export function demoDependencySeeds(base: Pick<DependencySeed, 'repositoryId' | 'repoUrl' | 'commit' | 'committedAt'>): DependencySeed[] {
  const manifest = JSON.parse(PACKAGE_JSON) as { dependencies: Record<string, string> };
  const npm = LOCKED.map(([name, version]): DependencySeed => {
    const line = lineIndex(PACKAGE_LOCK_JSON, (l) => l.includes(`"node_modules/${name}": {`));
    const endLine = lineIndex(PACKAGE_LOCK_JSON, (l) => l.trim().startsWith('}'), line);
    const direct = manifest.dependencies[name] !== undefined;
    return {
      ...base,
      ecosystem: 'npm',
      name,
      version,
      transitivity: direct ? 'direct' : 'transitive',
      licenses: [...licensesOf(name)],
      resolvedUrl: resolvedUrlOf('npm', name, version),
      lockfile: 'package-lock.json',
      line,
      endLine,
      manifest: 'package.json',
      ...(direct ? { manifestLine: lineIndex(PACKAGE_JSON, (l) => l.trim().startsWith(`"${name}": `)) } : {}),
    };
  });
  const pypi = REQUIREMENTS_TXT.split('\n').flatMap((text, i): DependencySeed[] => {
    const m = /^([\w.-]+)==(\S+)$/.exec(text);
    if (!m) return [];
    const [, name = '', version = ''] = m;
    return [
      {
        ...base,
        ecosystem: 'pypi',
        name,
        version,
        transitivity: 'direct',
        licenses: [...licensesOf(name)],
        resolvedUrl: resolvedUrlOf('pypi', name, version),
        lockfile: 'requirements.txt',
        line: i + 1,
        endLine: i + 1,
        manifest: 'requirements.txt',
        manifestLine: i + 1,
      },
    ];
  });
  return [...npm, ...pypi];
}
