// Starts and stops the production server the end-to-end tests run against (loopback only, its own database).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const e2ePort = Number(process.env.E2E_PORT) || 3217;
export const e2eBaseURL = `http://localhost:${e2ePort}`;
/** Where the server's stdout and stderr go, so tests can find what it logged. */
export const serverLogFile = path.resolve('test-results', 'server.log');

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see ${serverLogFile}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready at ${url} after ${timeoutMs} ms; see ${serverLogFile}`);
}

/** Starts `next start` (a build must exist) with test fixtures on; returns a function that stops it. */
export async function startServer(): Promise<() => Promise<void>> {
  if (!fs.existsSync('.next/BUILD_ID')) throw new Error('No production build: run `npx next build` first');
  fs.mkdirSync(path.dirname(serverLogFile), { recursive: true });
  const log = fs.openSync(serverLogFile, 'w');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-'));
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(e2ePort)], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(e2ePort),
      DATABASE_FILE: path.join(dataDir, 'gateway.db'),
      GATEWAY_TEST_FIXTURES: '1',
    },
    stdio: ['ignore', log, log],
  });
  await waitUntilReady(`${e2eBaseURL}/api/users`, child, 30_000);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
