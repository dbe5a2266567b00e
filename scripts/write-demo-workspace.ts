// Writes the demo workspace: the files of `acme/demo-app` that the demo findings point at, in a
// git repository whose origin remote matches the demo project, checked out on `main`. The branch
// `feature/checkout-v2` adds one commit with the files only it has.
// Usage: node --import tsx scripts/write-demo-workspace.ts <folder>
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { demoFeatureFiles, demoFiles } from '../test/platform/demo';

const root = process.argv[2];
if (!root) {
  console.error('usage: write-demo-workspace.ts <folder>');
  process.exit(2);
}
const write = (files: Record<string, string>): void => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};
const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
if (!existsSync(join(root, '.git'))) {
  write(demoFiles());
  git('init', '-q');
  git('config', 'user.email', 'demo@example.invalid');
  git('config', 'user.name', 'Demo');
  git('checkout', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'demo-app as scanned by the platform');
  git('remote', 'add', 'origin', 'https://github.com/acme/demo-app.git');
  git('checkout', '-q', '-b', 'feature/checkout-v2');
  write(demoFeatureFiles());
  git('add', '-A');
  git('commit', '-q', '-m', 'Checkout v2: coupon codes');
  git('checkout', '-q', 'main');
}
console.log(root);
