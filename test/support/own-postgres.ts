// A throwaway PostgreSQL cluster a test may stop and start at will (outages), apart from the shared test cluster.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs one of PostgreSQL's programs (initdb, pg_ctl) through scripts/lib.sh, which finds Debian's binaries and runs them
 * as the `postgres` user when we are root (PostgreSQL refuses to run as root).
 */
async function postgresProgram(program: string, args: string[]): Promise<void> {
  const script = `source scripts/lib.sh && dir=$(postgres_bin_dir) && as_postgres_user "$dir/${program}" "$@"`;
  await run('bash', ['-c', script, 'postgres-program', ...args]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface OwnPostgres {
  /** The cluster's `postgres` database, as DATABASE_URL. */
  url: string;
  port: number;
  /** Stops the server (`pg_ctl -m fast`: clients are disconnected at once). */
  stop(): Promise<void>;
  /** Starts it again; `port` starts it on another port instead (unreachable to its usual clients). */
  start(port?: number): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

/** Creates and starts a cluster in a temp dir on a free loopback port (trust auth, no fsync: test data only). */
export async function createOwnPostgres(): Promise<OwnPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-own-pg-'));
  if (process.getuid?.() === 0) await run('chown', ['postgres:', dir]);
  const data = path.join(dir, 'data');
  await postgresProgram('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  let running = false;
  const start = async (onPort = port) => {
    const options = `-c listen_addresses=127.0.0.1 -p ${onPort} -k ${dir} -c fsync=off -c synchronous_commit=off`;
    await postgresProgram('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-s', '-o', options, 'start']);
    running = true;
  };
  const stop = async () => {
    await postgresProgram('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-s', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    remove: async () => {
      if (running) await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
