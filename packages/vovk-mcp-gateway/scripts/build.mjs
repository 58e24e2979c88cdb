// Builds the package into dist/ (`npm run build`): ES modules and their .d.ts by tsc, then the files tsc does not emit (CSS, the
// sandbox worker's plain JavaScript) copied beside them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const packageDir = path.resolve(import.meta.dirname, '..');
const sourceDir = path.join(packageDir, 'src');
const outDir = path.join(packageDir, 'dist');

fs.rmSync(outDir, { recursive: true, force: true });
// `npm run build` puts the workspace's node_modules/.bin (TypeScript's tsc) on the PATH.
execFileSync('tsc', ['-p', path.join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const file of fs.readdirSync(sourceDir, { recursive: true, encoding: 'utf8' })) {
  if (!/\.(css|mjs)$/.test(file)) continue;
  fs.mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
  fs.copyFileSync(path.join(sourceDir, file), path.join(outDir, file));
}
