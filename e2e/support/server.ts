// Starts and stops gateway servers (the gateway's entry, server/gateway.mjs) for end-to-end tests; each has its own database.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';

export const e2ePort = Number(process.env.E2E_PORT) || 3217;
export const e2eBaseURL = `http://localhost:${e2ePort}`;
/**
 * The most tools the e2e servers list flat (MCP_LIST_MAX, unless a spec sets its own): the test build's catalogue (the
 * product's tools and the fixtures) is larger than the default 40, and the specs read it whole from tools/list.
 */
export const E2E_LIST_MAX = 64;
/** Where the main test server's stdout and stderr go, so tests can find what it logged. */
export const serverLogFile = path.resolve('test-results', 'server.log');

/** How a server process ended: its exit code, or the signal that killed it. */
type ServerExit = { code: number | null; signal: NodeJS.Signals | null };

export interface RunningServer {
  baseURL: string;
  pid: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** Settles when the process has exited, however it ends. */
  exited: Promise<ServerExit>;
  stop(): Promise<void>;
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see ${logFile}`);
    try {
      await fetch(url);
      return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready at ${url} after ${timeoutMs} ms; see ${logFile}`);
}

/** Which build a server runs: the test build (.next-test, with the test-only modules) or the production one (.next). */
export type BuildFlavour = 'test' | 'production';

const builds: Record<BuildFlavour, { dir: string; command: string; flag: string }> = {
  test: { dir: '.next-test', command: 'npm run build:test', flag: '1' },
  production: { dir: '.next', command: 'npm run build', flag: '0' },
};

/** How to start the gateway: its entry directly (the default, as `npm start` does), or through a script that execs it, e.g. `npm start`'s. */
const GATEWAY_ENTRY = ['server/gateway.mjs'];

/** The command line that starts the gateway's entry on `port` (node, the entry, its port): the e2e servers, the bench and the soak start it so. */
export const gatewayCommand = (port: number, hostname?: string) => [
  process.execPath,
  ...GATEWAY_ENTRY,
  '-p',
  String(port),
  ...(hostname ? ['-H', hostname] : []),
];

/** Starts a build (it must exist; the test build by default) on `port` with extra `env`. */
export async function startServer(
  port: number,
  env: Record<string, string> = {},
  logFile = serverLogFile,
  flavour: BuildFlavour = 'test',
  command: string[] = GATEWAY_ENTRY,
): Promise<RunningServer> {
  const build = builds[flavour];
  if (!fs.existsSync(`${build.dir}/BUILD_ID`)) throw new Error(`No ${flavour} build: run \`${build.command}\` first`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-'));
  const [program, ...args] = command === GATEWAY_ENTRY ? gatewayCommand(port) : ['bash', ...command];
  const child = spawn(program, args, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_FILE: path.join(dataDir, 'gateway.db'),
      // Next.js reads the build directory from next.config.mjs, which reads this (`npm start` sets it itself).
      GATEWAY_TEST_BUILD: build.flag,
      MCP_LIST_MAX: String(E2E_LIST_MAX),
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<ServerExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseURL = `http://localhost:${port}`;
  await waitUntilReady(`${baseURL}/favicon.ico`, child, logFile, 30_000);
  return {
    baseURL,
    pid: child.pid!,
    logFile,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process, in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
  const kib = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)?.[1];
  return Number(kib) * 1024;
}

/** Anything a spec starts and must stop: a server, a receiver, several together. */
type Stoppable = { stop(): Promise<void> };

/**
 * What a spec starts, stopped together once its tests are done (`const kept = stoppedAfterAll()`, then
 * `kept(await startServer(…))`): a stop waits out the idle keep-alive connections of its server (about 3 s), so
 * stopping each server after its own tests would add that up.
 */
export function stoppedAfterAll(): <T extends Stoppable>(running: T) => T {
  const started: Stoppable[] = [];
  test.afterAll(async () => void (await Promise.all(started.splice(0).map((running) => running.stop()))));
  return (running) => {
    started.push(running);
    return running;
  };
}

/** The JSON log lines of a server's log file that belong to the trace `traceId`. */
export function logLinesOfTrace(logFile: string, traceId: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.traceId === traceId);
}
