// The gateway entry's code cache (the package's server/compile-cache.mjs), in real Node processes: a later process takes its CommonJS
// modules from what an earlier one wrote, a changed or damaged file is never used, and what Node compiles itself works.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';

const hook = pathToFileURL(path.resolve('packages/vovk-mcp-gateway/server/compile-cache.mjs')).href;
let dir: string;
let cacheFile: string;

/** What a process loading the fixtures printed: the modules' answers, and the cache's counts (none without it). */
type Run = {
  answers: unknown[];
  stats?: { fromCache: number; compiled: number; byNode: number; rejected: number; writes: number };
  writtenBeforeExit?: boolean;
  writeErrors: string[];
};

/** Runs a Node process that (unless `withoutCache`) installs the cache, requires every fixture and prints what it got. */
function run({ withoutCache = false, quietMs = 60_000, waitMs = 0 } = {}): Run {
  const runner = `
    import { createRequire } from 'node:module';
    import fs from 'node:fs';
    const writeErrors = [];
    const onWriteError = (message) => writeErrors.push(message);
    const stats = ${withoutCache} ? undefined : (await import(${JSON.stringify(hook)})).installCompileCache(${JSON.stringify(cacheFile)}, { quietMs: ${quietMs}, onWriteError });
    const require = createRequire(${JSON.stringify(path.join(dir, 'runner.mjs'))});
    const answers = [require('./lib.cjs').answer(), await require('./dynamic.cjs')(), require('./esm/value.js').value];
    await new Promise((resolve) => setTimeout(resolve, ${waitMs}));
    console.log(JSON.stringify({ answers, stats, writtenBeforeExit: fs.existsSync(${JSON.stringify(cacheFile)}), writeErrors }));
  `;
  const out = execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', runner], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Run;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  cacheFile = path.join(dir, 'build', 'compile-cache.bin');
  fs.writeFileSync(
    path.join(dir, 'lib.cjs'),
    `const dep = require('./dep.cjs');\nfunction later(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }\nmodule.exports = { answer: () => [dep.x, later(4), require.resolve('./dep.cjs').endsWith('dep.cjs'), typeof require.cache] };\n`,
  );
  fs.writeFileSync(path.join(dir, 'dep.cjs'), 'exports.x = 1;\n');
  fs.writeFileSync(path.join(dir, 'dynamic.cjs'), "module.exports = () => import('node:path').then((p) => p.sep);\n");
  fs.mkdirSync(path.join(dir, 'esm'));
  fs.writeFileSync(path.join(dir, 'esm', 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(path.join(dir, 'esm', 'value.js'), 'export const value = 3;\n');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const expectedAnswers = [[1, 6, true, 'object'], '/', 3];

test('a second process takes its CommonJS modules from the cache the first wrote at exit, and they answer as without it', () => {
  expect(run({ withoutCache: true }).answers).toEqual(expectedAnswers);
  const first = run();
  expect(first.answers).toEqual(expectedAnswers);
  expect(first.stats).toMatchObject({ fromCache: 0, compiled: 2, rejected: 0 });
  expect(first.writtenBeforeExit).toBe(false);
  expect(fs.existsSync(cacheFile)).toBe(true);
  const second = run();
  expect(second.answers).toEqual(expectedAnswers);
  expect(second.stats).toMatchObject({ fromCache: 2, compiled: 0, rejected: 0 });
  expect(fs.readdirSync(path.dirname(cacheFile))).toEqual(['compile-cache.bin']);
});

test('a module whose source changed (same length, which V8 alone would accept) is compiled again, not run from the cache', () => {
  run();
  fs.writeFileSync(path.join(dir, 'dep.cjs'), 'exports.x = 2;\n');
  const changed = run();
  expect(changed.answers[0]).toEqual([2, 6, true, 'object']);
  expect(changed.stats).toMatchObject({ fromCache: 1, compiled: 1 });
});

test('a module with import() and an ES module loaded by require() are compiled by Node, and import() works in a later process', () => {
  run();
  const second = run();
  expect(second.answers).toEqual(expectedAnswers);
  expect(second.stats!.byNode).toBeGreaterThanOrEqual(2);
});

test('a damaged cache file is an empty cache: every module compiles, and the file is written whole again', () => {
  run();
  const bytes = fs.readFileSync(cacheFile);
  bytes[bytes.length >> 1] ^= 0xff;
  fs.writeFileSync(cacheFile, bytes);
  const damaged = run();
  expect(damaged.answers).toEqual(expectedAnswers);
  expect(damaged.stats).toMatchObject({ fromCache: 0, compiled: 2 });
  expect(run().stats).toMatchObject({ fromCache: 2, compiled: 0 });
});

test('the cache is written once no module has compiled for a while, without waiting for exit', () => {
  const quiet = run({ quietMs: 100, waitMs: 1500 });
  expect(quiet.writtenBeforeExit).toBe(true);
  expect(quiet.stats!.writes).toBe(1);
  expect(run().stats).toMatchObject({ fromCache: 2, compiled: 0 });
});

test('a cache that cannot be written is told once, and the modules answer as without it', () => {
  // Where the cache's directory should be, a file: no write can succeed (whoever runs the test, root included).
  fs.writeFileSync(path.dirname(cacheFile), 'not a directory');
  const blocked = run({ quietMs: 100, waitMs: 1500 });
  expect(blocked.answers).toEqual(expectedAnswers);
  expect(blocked.stats).toMatchObject({ writes: 0, compiled: 2 });
  expect(blocked.writeErrors).toHaveLength(1);
  expect(blocked.writeErrors[0]).toMatch(/EEXIST|ENOTDIR/);
  expect(run().stats).toMatchObject({ fromCache: 0, compiled: 2 });
});
