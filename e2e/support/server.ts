// Starts and stops production servers for the end-to-end tests (loopback only, each with its own database).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createTestDatabase } from '../../test/support/databases';

export const e2ePort = Number(process.env.E2E_PORT) || 3217;
export const e2eBaseURL = `http://localhost:${e2ePort}`;
/** Ports of the board tests' own instances (A and B): the two after E2E_PORT. */
export const instancePorts = [e2ePort + 1, e2ePort + 2] as const;
/** Where the shared server's stdout and stderr go, so tests can find what it logged. */
export const serverLogFile = path.resolve('test-results', 'server.log');

export interface RunningServer {
  baseURL: string;
  stop(): Promise<void>;
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready at ${url} after ${timeoutMs} ms; see ${logFile}`);
}

/** Starts `next start` (a build must exist) on `port` with `env` added; resolves once it answers REST. */
export async function startNextServer(port: number, env: Record<string, string>, logFile: string): Promise<RunningServer> {
  if (!fs.existsSync('.next/BUILD_ID')) throw new Error('No production build: run `npx next build` first');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), ...env },
    stdio: ['ignore', log, log],
  });
  const baseURL = `http://localhost:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.closeSync(log);
  };
  try {
    await waitUntilReady(`${baseURL}/api/users`, child, logFile, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, stop };
}

/** The shared server of the run: test fixtures on, a fresh SQLite database; returns a function that stops it. */
export async function startServer(): Promise<() => Promise<void>> {
  const database = await createTestDatabase('sqlite');
  const server = await startNextServer(e2ePort, { ...database.env, GATEWAY_TEST_FIXTURES: '1' }, serverLogFile);
  return async () => {
    await server.stop();
    await database.drop();
  };
}
