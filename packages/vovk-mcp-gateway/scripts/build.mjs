// Builds the package into dist/ (`npm run build`): ES modules and their .d.ts by tsc, then the files tsc does not emit
// (CSS, the sandbox worker's plain JavaScript) copied beside them. It is built beside dist/ and swapped in whole, so a
// server running meanwhile (which loads the sandbox worker from dist/) never finds it half-built or gone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const packageDir = path.resolve(import.meta.dirname, '..');
const sourceDir = path.join(packageDir, 'src');
const outDir = path.join(packageDir, 'dist');
const nextDir = path.join(packageDir, 'dist.next');
const oldDir = path.join(packageDir, 'dist.old');

fs.rmSync(nextDir, { recursive: true, force: true });
// `npm run build` puts the workspace's node_modules/.bin (TypeScript's tsc) on the PATH.
execFileSync('tsc', ['-p', path.join(packageDir, 'tsconfig.build.json'), '--outDir', nextDir], { stdio: 'inherit' });
for (const file of fs.readdirSync(sourceDir, { recursive: true, encoding: 'utf8' })) {
  if (!/\.(css|mjs)$/.test(file)) continue;
  fs.mkdirSync(path.dirname(path.join(nextDir, file)), { recursive: true });
  fs.copyFileSync(path.join(sourceDir, file), path.join(nextDir, file));
}
fs.rmSync(oldDir, { recursive: true, force: true });
if (fs.existsSync(outDir)) fs.renameSync(outDir, oldDir);
fs.renameSync(nextDir, outDir);
fs.rmSync(oldDir, { recursive: true, force: true });
