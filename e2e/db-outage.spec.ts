// A PostgreSQL outage under load, on a real gateway with the board open in a browser: 503 + Retry-After (REST) and
// isError (MCP) within a second while it is down, recovery by itself once it is back, the board resynced without a reload.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { createOwnPostgres } from '../test/support/own-postgres';
import { mcpHeaders, postMcp, toolCall } from './support/json-rpc';
import { attempt, writeFigures } from './support/reliability';
import { e2ePort, startServer } from './support/server';

const OUTAGE_MS = 3000;

/** One request of the load: when it was sent, how long it took, and what came back. */
type Sample = { door: 'rest' | 'mcp'; sentAt: number; ms: number; kind: 'ok' | 'unavailable' | 'other'; detail: string };

/** REST: 503 with Retry-After and the database message. MCP: an isError result saying so. */
function classify(door: Sample['door'], status: number | undefined, text: string, retryAfter?: string): Sample['kind'] {
  if (status === 200 && door === 'rest') return 'ok';
  if (door === 'rest') return status === 503 && retryAfter === '2' && /database is unavailable/.test(text) ? 'unavailable' : 'other';
  if (status !== 200) return 'other';
  if (!/"isError":true/.test(text)) return 'ok';
  return /database is unavailable/.test(text) ? 'unavailable' : 'other';
}

/** Readers and a slow writer on REST, readers on MCP, until `stop()`; `writes(false)` pauses the writer. */
function runLoad(base: string) {
  const samples: Sample[] = [];
  let stopped = false;
  let writing = true;
  const loop = async (door: Sample['door'], send: () => Promise<{ status?: number; text: string; retryAfter?: string }>, pauseMs = 0, writes = false) => {
    while (!stopped) {
      if (writes && !writing) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const sentAt = performance.now();
      const { status, text, retryAfter } = await send().catch((error: Error) => ({ status: undefined, text: String(error), retryAfter: undefined }));
      samples.push({ door, sentAt, ms: performance.now() - sentAt, kind: classify(door, status, text, retryAfter), detail: `${status} ${text.slice(0, 160)}` });
      if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const rest = (path: string, init: { method?: string; body?: string } = {}) => async () => {
    const outcome = await attempt(`${base}${path}`, { ...init, headers: { 'content-type': 'application/json' } });
    return { status: outcome.status, text: outcome.text ?? outcome.error ?? '', retryAfter: outcome.retryAfter };
  };
  const mcp = (name: string, args: Record<string, unknown>) => async () => postMcp(base, toolCall(1, name, args), mcpHeaders);
  let created = 0;
  const loops = [
    loop('rest', rest('/api/tasks')),
    loop('rest', rest('/api/board')),
    loop('rest', rest('/api/users/1')),
    loop('rest', () => rest('/api/tasks', { method: 'POST', body: JSON.stringify({ title: `Load ${++created}` }) })(), 100, true),
    loop('mcp', mcp('TaskController_listTasks', {})),
    loop('mcp', mcp('UserController_getUser', { params: { id: 1 } })),
  ];
  return {
    samples,
    writes: (on: boolean) => (writing = on),
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

test('PostgreSQL stopped and started under load: 503 + Retry-After at once, recovery by itself, the open board resyncs', async ({ browser }) => {
  test.setTimeout(90_000);
  const cluster = await createOwnPostgres();
  const server = await startServer(e2ePort + 55, { DATABASE_URL: cluster.url }, 'test-results/outage-server.log');
  const base = server.baseURL;
  const page = await browser.newPage();
  try {
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto(`${base}/board`);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    const card = (title: string) => page.getByRole('region', { name: 'To do' }).getByRole('listitem', { name: title });

    expect((await attempt(`${base}/readyz`)).status, '/readyz before the outage').toBe(200);
    const load = runLoad(base);
    await expect.poll(() => load.samples.filter((sample) => sample.kind === 'ok').length).toBeGreaterThan(30);
    // The board's own reloads settle before the outage (a reload that fails is retried, which would also resync it).
    load.writes(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = performance.now();
    await cluster.stop();
    const downAt = performance.now();
    load.writes(true);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    // The probes while the database is down: alive, not ready (a balancer that reads /readyz sends traffic elsewhere).
    expect((await attempt(`${base}/livez`)).status, '/livez during the outage').toBe(200);
    const readyWhileDown = await attempt(`${base}/readyz`);
    expect(readyWhileDown, '/readyz during the outage').toMatchObject({ status: 503, retryAfter: '2' });
    expect(JSON.parse(readyWhileDown.text!)).toMatchObject({ reason: expect.stringMatching(/database/) });

    // A change the gateway cannot hear of: made while the cluster is up on another port only.
    const missedTitle = `Made during the outage ${Date.now()}`;
    const sidePort = cluster.port + 1;
    await cluster.start(sidePort);
    const direct = new pg.Client({ connectionString: cluster.url.replace(`:${cluster.port}/`, `:${sidePort}/`) });
    await direct.connect();
    await direct.query(
      `INSERT INTO tasks (title, status, position, created_at, updated_at)
       SELECT $1, 'todo', COUNT(*), now(), now() FROM tasks WHERE status = 'todo'`,
      [missedTitle],
    );
    await direct.end();
    await cluster.stop();

    // From here on nothing writes through the gateway until the board shows the missed task: only the fresh snapshot
    // pushed when LISTEN is back can bring it.
    load.writes(false);
    // PostgreSQL accepts connections a little before `pg_ctl start` returns: the outage ends when the start begins.
    const startingAt = performance.now();
    await cluster.start();
    const upAt = performance.now();
    const recovered = () => load.samples.filter((sample) => sample.door === 'rest' && sample.sentAt > startingAt && sample.kind === 'ok');
    await expect.poll(() => recovered().length, { timeout: 15_000 }).toBeGreaterThan(0);
    const restRecoveredAt = Math.min(...recovered().map((sample) => sample.sentAt + sample.ms));
    await expect(card(missedTitle)).toBeVisible({ timeout: 15_000 });
    expect((await attempt(`${base}/readyz`)).status, '/readyz after the outage').toBe(200);
    const boardResyncedAt = performance.now();

    // LISTEN is back: a change through this gateway reaches the board through NOTIFY (PostgreSQL tells every instance).
    const afterTitle = `After the outage ${Date.now()}`;
    expect((await attempt(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: afterTitle }) })).status).toBe(200);
    await expect(card(afterTitle)).toBeVisible({ timeout: 5000 });
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    expect(loads, 'page loads').toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 500));
    await load.stop();
    const during = load.samples.filter((sample) => sample.sentAt > downAt && sample.sentAt + sample.ms < startingAt);
    const other = load.samples.filter((sample) => sample.kind === 'other');
    expect(other.map((sample) => `${sample.door} ${sample.detail}`), 'answers that are neither a success nor a clean 503').toEqual([]);
    expect(during.length).toBeGreaterThan(20);
    expect(during.filter((sample) => sample.kind !== 'unavailable').map((sample) => `${sample.door} ${sample.detail}`), 'answers while down').toEqual([]);
    const slowest = Math.max(...load.samples.map((sample) => sample.ms));
    expect(slowest, 'slowest answer (ms)').toBeLessThan(5000);
    const afterRecovery = load.samples.filter((sample) => sample.sentAt > restRecoveredAt);
    expect(afterRecovery.every((sample) => sample.kind === 'ok')).toBe(true);

    // A connection that dies while a request holds it must fail that request, not become an uncaught exception.
    expect(fs.readFileSync(server.logFile, 'utf8')).not.toMatch(/uncaughtException|unhandledRejection/);

    const count = (samples: Sample[], door: Sample['door'], kind: Sample['kind']) => samples.filter((s) => s.door === door && s.kind === kind).length;
    writeFigures('db-outage', {
      outageMs: Math.round(startingAt - stoppedAt),
      postgresStartMs: Math.round(upAt - startingAt),
      requests: load.samples.length,
      duringOutage: {
        rest503WithRetryAfter: count(during, 'rest', 'unavailable'),
        mcpIsErrorUnavailable: count(during, 'mcp', 'unavailable'),
        slowestMs: Math.round(Math.max(...during.map((sample) => sample.ms))),
        medianMs: Math.round(during.map((sample) => sample.ms).sort((a, b) => a - b)[Math.floor(during.length / 2)]),
      },
      otherAnswers: other.length,
      slowestAnswerMs: Math.round(slowest),
      restRecoveryMs: Math.round(restRecoveredAt - startingAt),
      boardResyncMs: Math.round(boardResyncedAt - startingAt),
      pageReloads: loads - 1,
    });
  } finally {
    await page.close();
    await server.stop();
    await cluster.remove();
  }
});
