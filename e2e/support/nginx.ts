// Debian's nginx in front of gateway instances for end-to-end tests, configured from deploy/nginx.conf (the template
// `npm run cluster` uses, rendered by scripts/lib.sh render_nginx_conf); its access log says which instance answered.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs a function of scripts/lib.sh with `args`; its standard output. */
function libSh(fn: string, ...args: string[]): string {
  const run = spawnSync('bash', ['-c', `source scripts/lib.sh && ${fn} "$@"`, fn, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`scripts/lib.sh ${fn} failed: ${run.stderr}`);
  return run.stdout.trim();
}

/** One line of the access log: the request line, the status the client got, the instances tried and what they said. */
export interface AccessLogEntry {
  request: string;
  status: number;
  /** `host:port` of each instance tried, in order (nginx tries the next one after a refusal, a timeout or a 503). */
  upstreams: string[];
  upstreamStatuses: string[];
  requestId: string;
}

export interface RunningNginx {
  baseURL: string;
  accessLog(): AccessLogEntry[];
  errorLog(): string;
  stop(): Promise<void>;
}

const ACCESS_LINE = /"([^"]*)" (\d+) upstream=(.*?) req=(\S*) upstream_status=(.*?) ms=/;
/** nginx lists the instances it tried as `a, b` (and `a : b` across upstream groups); `-` when none. */
const listOf = (field: string) => (field === '-' ? [] : field.split(/\s*[,:]\s+/));

/** Starts nginx on 127.0.0.1:`port` in front of the instances on `instancePorts`; stops it (and removes its directory) with `stop()`. */
export async function startNginx(port: number, instancePorts: number[]): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-nginx-'));
  libSh('render_nginx_conf', dir, String(port), ...instancePorts.map(String));
  const binary = libSh('nginx_bin');
  if (!binary) throw new Error("No nginx: scripts/e2e.sh installs Debian's nginx (ensure_nginx)");
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', 'nginx.conf', '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
    try {
      if ((await fetch(`${baseURL}/livez`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx not ready at ${baseURL}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const read = (file: string) => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : '');
  return {
    baseURL,
    accessLog: () =>
      read('access.log')
        .split('\n')
        .flatMap((line) => {
          const match = ACCESS_LINE.exec(line);
          if (!match) return [];
          const [, request, status, upstreams, requestId, upstreamStatuses] = match;
          return [{ request, status: Number(status), upstreams: listOf(upstreams), upstreamStatuses: listOf(upstreamStatuses), requestId }];
        }),
    errorLog: () => read('error.log'),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
