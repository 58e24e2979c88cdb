// A fresh Vovk app adopting the package as the README's quickstart says, for the adoption e2e and the benchmark
// (`npm run bench -- --only adoption`): e2e/adoption-app copied into a folder, the packed tarball installed, the
// quickstart's files written as the README writes them, built with `next build`, started with a plain `next start`.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const template = path.join(root, 'e2e/adoption-app');

/** How long each step of making the app took, ms (pack, install, builds). */
export type Timings = Record<string, number>;

const run = (dir: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd: dir, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });

function timed<T>(timings: Timings, name: string, step: () => T): T {
  const started = performance.now();
  const result = step();
  timings[name] = Math.round(performance.now() - started);
  return result;
}

/**
 * The app in `dir` (a new empty folder) before the gateway: the template's files, its package.json with the packed
 * tarball (`npm run gateway:pack`) among the dependencies, installed. Returns the tarball's path.
 */
export function createFreshApp(dir: string, timings: Timings): string {
  const tarball = timed(timings, 'pack', () => run(root, 'npm', ['run', '--silent', 'gateway:pack', '--', path.join(dir, '.pack')]).trim().split('\n').at(-1)!);
  fs.cpSync(template, dir, { recursive: true, filter: (source) => !/README\.md$|package\.json\.template$/.test(source) });
  const manifest = JSON.parse(fs.readFileSync(path.join(template, 'package.json.template'), 'utf8'));
  manifest.dependencies['vovk-mcp-gateway'] = `file:${tarball}`;
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // From the npm cache where it has the packages (the repository's own install filled it), else from the registry.
  // better-sqlite3's native build is the one this repository compiled for the same version and Node (its install
  // script would compile the very same file, for a minute).
  timed(timings, 'install', () => run(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']));
  const nativeBuild = 'node_modules/better-sqlite3/build';
  fs.cpSync(path.join(root, nativeBuild), path.join(dir, nativeBuild), { recursive: true });
  return tarball;
}

/** The README quickstart's files: each fenced block of "Add it to your Vovk app" whose first line is `// <path>`. */
export function quickstartFiles(): Map<string, string> {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Add it to your Vovk app');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const files = new Map<string, string>();
  for (const [, text, file] of section.matchAll(/```tsx?\n(\/\/ (\S+)\n[\s\S]*?)```/g)) files.set(file, text);
  return files;
}

/** Adds the gateway as the quickstart says, and `@resource()` on `UserRPC_getUser` (the quickstart's one-line step). */
export function adoptGateway(dir: string): void {
  for (const [file, text] of quickstartFiles()) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const userController = path.join(dir, 'src/modules/user/user-controller.ts');
  const source = fs.readFileSync(userController, 'utf8');
  fs.writeFileSync(userController, `import { resource } from 'vovk-mcp-gateway';\n${source.replace("  @get('{id}')", "  @resource()\n  @get('{id}')")}`);
}

/** `next build` of the app. */
export function buildApp(dir: string, timings: Timings, name: string): void {
  timed(timings, name, () => run(dir, process.execPath, [path.join(dir, 'node_modules/next/dist/bin/next'), 'build']));
}

export interface RunningApp {
  baseURL: string;
  pid: number;
  /** What the server printed (stdout and stderr). */
  output(): string;
  /** SIGTERM, then its exit code once it ended. */
  stop(): Promise<number | null>;
}

/** How the app is served: a plain `next start`, or the package's server entry (`npx vovk-mcp-gateway start`). */
const ENTRIES = {
  'next start': ['node_modules/next/dist/bin/next', 'start'],
  'vovk-mcp-gateway start': ['node_modules/vovk-mcp-gateway/bin/vovk-mcp-gateway.mjs', 'start'],
};

/** The app served on `port` (the bin run by node itself, so the pid is the server's), once REST answers. */
export async function startApp(dir: string, port: number, entry: keyof typeof ENTRIES = 'next start'): Promise<RunningApp> {
  const baseURL = `http://localhost:${port}`;
  const [bin, command] = ENTRIES[entry];
  const server: ChildProcess = spawn(process.execPath, [path.join(dir, bin), command, '-p', String(port)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  let printed = '';
  for (const stream of [server.stdout!, server.stderr!]) stream.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    return server.exitCode;
  };
  for (let tries = 0; tries < 300; tries += 1) {
    if (server.exitCode !== null) throw new Error(`the fresh app exited with ${server.exitCode}`);
    if (await fetch(`${baseURL}/api/users`).then((response) => response.ok, () => false)) return { baseURL, pid: server.pid!, output: () => printed, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`the fresh app did not answer within 30 s:\n${printed}`);
}
