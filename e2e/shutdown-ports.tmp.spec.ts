// Graceful shutdown on a real `next start`: on SIGTERM requests in flight finish, later ones get 503 + Connection: close,
// board streams end with a reconnect line (the page reconnects at once), the store closes, the process exits 0.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createTestDatabase } from '../test/support/databases';
import { mcpHeaders, toolCall } from './support/json-rpc';
import { attempt, openBoardStream, type Outcome, tally, waitForLog, writeFigures } from './support/reliability';
import { e2ePort, startServer } from './support/server';

const GRACE_MS = 8000;
const IN_FLIGHT = 20;
/** Each slow request waits this long (plus 20 ms per request), so that all are still running at the signal. */
const SLOW_MS = 2000;

test('SIGTERM: 20 requests in flight all finish with 200, later ones get 503 + Connection: close, streams get "reconnect", exit 0 within the grace', async () => {
  test.setTimeout(60_000);
  const server = await startServer(e2ePort + 24, { SHUTDOWN_GRACE_MS: String(GRACE_MS) }, 'test-results/shutdown-server.log');
  const base = server.baseURL;
  try {
    // Every route used below answers once before the load, so that none is still loading at the signal.
    expect((await attempt(`${base}/api/fixture/slow?ms=0`)).status).toBe(200);
    expect((await attempt(`${base}/api/users`)).status).toBe(200);
    expect((await attempt(`${base}/api/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(toolCall(1, 'sum_numbers', { a: 1, b: 2 })) })).status).toBe(200);
    const streams = await Promise.all([openBoardStream(base), openBoardStream(base)]);

    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) => attempt(`${base}/api/fixture/slow?ms=${SLOW_MS + i * 20}`));
    // The signal comes once the server is handling every one of them.
    await expect
      .poll(async () => JSON.parse((await attempt(`${base}/api/fixture/slow-waiting`)).text ?? '{}').waiting, { intervals: [20] })
      .toBe(IN_FLIGHT);
    const signalledAt = performance.now();
    process.kill(server.pid, 'SIGTERM');
    // Once the server says it is shutting down (without a handler of ours it never does: the checks below say what happens).
    await waitForLog(server, /SIGTERM: shutting down/, 2000).catch(() => undefined);

    // Requests that arrive during the shutdown, on both doors: refused cleanly, never dropped.
    const later = await Promise.all([
      attempt(`${base}/api/users`),
      attempt(`${base}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"too late"}' }),
      attempt(`${base}/api/board/stream`),
      attempt(`${base}/api/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(toolCall(2, 'sum_numbers', { a: 1, b: 2 })) }),
      attempt(`${base}/board`),
    ]);
    for (const outcome of later) {
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: 503, connection: 'close', retryAfter: '1' });
    }
    expect(JSON.parse(later[0].text!)).toMatchObject({ statusCode: 503, isError: true, message: expect.stringMatching(/shutting down/) });
    expect(JSON.parse(later[3].text!)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/shutting down/) } });

    const answers: Outcome[] = await Promise.all(inFlight);
    expect(tally(answers)).toEqual({ '200 close': IN_FLIGHT });
    answers.forEach((answer, i) => expect(JSON.parse(answer.text!)).toEqual({ waitedMs: SLOW_MS + i * 20 }));

    for (const stream of streams) {
      expect(await stream.ended).toBe('end');
      expect(stream.events.at(-1)).toEqual({ type: 'reconnect' });
      expect(stream.events[0].type).toBe('board');
    }

    const exit = await server.exited;
    const shutdownMs = Math.round(performance.now() - signalledAt);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeGreaterThanOrEqual(SLOW_MS - 500);
    expect(shutdownMs).toBeLessThan(GRACE_MS);
    await waitForLog(server, /Stopped in \d+ ms/);
    // Once the process is gone the port is closed: a connection is refused, not reset.
    const afterExit = await attempt(`${base}/api/users`);
    expect(afterExit).toEqual({ error: 'ECONNREFUSED' });
    writeFigures('shutdown', {
      graceMs: GRACE_MS,
      inFlightAtSignal: IN_FLIGHT,
      inFlightAnswers: tally(answers),
      duringShutdown: tally(later),
      afterExit: afterExit.error,
      boardStreamsEndedWithReconnect: streams.length,
      exitCode: exit.code,
      shutdownMs,
      longestRequestMs: SLOW_MS + (IN_FLIGHT - 1) * 20,
    });
  } finally {
    await server.stop();
  }
});

test('the board page reconnects as soon as the stream says "reconnect"; the store was closed; the page is live again on the restarted server without a reload', async ({ browser }) => {
  test.setTimeout(60_000);
  const database = await createTestDatabase('sqlite');
  const port = e2ePort + 25;
  let server = await startServer(port, database.env, 'test-results/shutdown-board-1.log');
  const page = await browser.newPage();
  try {
    let loads = 0;
    page.on('load', () => loads++);
    const streamRequests: number[] = [];
    const streamEnds: number[] = [];
    page.on('request', (request) => request.url().endsWith('/api/board/stream') && streamRequests.push(Date.now()));
    page.on('requestfinished', (request) => request.url().endsWith('/api/board/stream') && streamEnds.push(Date.now()));
    await page.goto(`${server.baseURL}/board`);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    expect(streamRequests).toHaveLength(1);

    await server.stop(); // SIGTERM: the stream's last line says reconnect, then the server exits
    // The store was closed: SQLite checkpoints its write-ahead log into the database and removes it when the last
    // connection closes (a process that just exits leaves it behind).
    expect(fs.existsSync(`${database.options.databaseFile}-wal`), 'SQLite WAL file after the shutdown').toBe(false);
    // (A reconnect that reaches the server while it is still closing ends at once too: count the first end only.)
    await expect.poll(() => streamEnds.length).toBeGreaterThanOrEqual(1);
    await expect.poll(() => streamRequests.length).toBeGreaterThan(1);
    // The page retries a failed stream after 1 s; after "reconnect" it asks again at once.
    const reconnectMs = streamRequests[1] - streamEnds[0];
    expect(reconnectMs).toBeLessThan(500);

    server = await startServer(port, database.env, 'test-results/shutdown-board-2.log');
    const title = `After the restart ${Date.now()}`;
    expect((await attempt(`${server.baseURL}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) })).status).toBe(200);
    await expect(page.getByRole('region', { name: 'To do' }).getByRole('listitem', { name: title })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    expect(loads).toBe(1);
    writeFigures('shutdown-board-page', { reconnectAfterStreamEndMs: reconnectMs, pageReloads: loads - 1 });
  } finally {
    await page.close();
    await server.stop();
    await database.drop();
  }
});
