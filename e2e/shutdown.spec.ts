// Graceful shutdown on a real gateway (the package's server entry, server/gateway.mjs): on SIGTERM requests in flight finish, later ones get 503 + Connection: close,
// board streams end with a reconnect line (the page reconnects at once), MCP listen streams end with their closing
// result, the store closes, the process exits 0.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createTestDatabase } from '../test/support/databases';
import { mcpHeaders, toolCall } from './support/json-rpc';
import { type ListenStream, listenForListChanges } from './support/mcp';
import { attempt, openBoardStream, type Outcome, tally, waitForLog, writeFigures } from './support/reliability';
import { e2ePort, startServer } from './support/server';

const GRACE_MS = 8000;
const IN_FLIGHT = 20;
/** Each slow request waits this long (plus 20 ms per request), so that all are still running at the signal. */
const SLOW_MS = 2000;

/** A server of its own for a shutdown test, `offset` ports above the main one, with the grace above. */
const startGracefulServer = (offset: number, log: string) =>
  startServer(e2ePort + offset, { SHUTDOWN_GRACE_MS: String(GRACE_MS) }, `test-results/${log}.log`);

test('SIGTERM: 20 requests in flight all finish with 200, later ones get 503 + Connection: close, streams get "reconnect", MCP listen streams end gracefully, exit 0 within the grace', async () => {
  test.setTimeout(60_000);
  const server = await startGracefulServer(51, 'shutdown-server');
  const base = server.baseURL;
  let listener: ListenStream | undefined;
  try {
    // Every route used below answers once before the load, so that none is still loading at the signal.
    expect((await attempt(`${base}/api/fixture/slow?ms=0`)).status).toBe(200);
    expect((await attempt(`${base}/api/users`)).status).toBe(200);
    expect((await attempt(`${base}/api/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify(toolCall(1, 'sum_numbers', { a: 1, b: 2 })) })).status).toBe(200);
    const streams = await Promise.all([openBoardStream(base), openBoardStream(base)]);
    listener = await listenForListChanges(base);
    expect(listener.honored).toMatchObject({ toolsListChanged: true });

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
    // The probes: alive, and not ready from the first moment of the drain.
    const [livez, readyz] = await Promise.all([attempt(`${base}/livez`), attempt(`${base}/readyz`)]);
    expect(livez).toMatchObject({ status: 200, connection: 'close' });
    expect(readyz).toMatchObject({ status: 503, retryAfter: '1' });
    expect(JSON.parse(readyz.text!)).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/draining/) });
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
    // Not cut off when the process exits: the gateway sends the closing result of subscriptions/listen first.
    expect(await listener.closed).toBe('graceful');

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
      listenStreamsEndedGracefully: 1,
      exitCode: exit.code,
      shutdownMs,
      longestRequestMs: SLOW_MS + (IN_FLIGHT - 1) * 20,
    });
  } finally {
    await listener?.close();
    await server.stop();
  }
});

test('the board page reconnects as soon as the stream says "reconnect"; the store was closed; the page is live again on the restarted server without a reload', async ({ browser }) => {
  test.setTimeout(60_000);
  const database = await createTestDatabase('sqlite');
  const port = e2ePort + 52;
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

/** Fresh-connection clients: each sends its next request on a new connection (no keep-alive) as soon as the last is answered. */
const FRESH_CLIENTS = 16;
/** How long they keep sending after the signal (as a balancer does until it sees the instance refuse), then stop. */
const SEND_AFTER_SIGNAL_MS = 1500;

test('SIGTERM while clients open a fresh connection per request: every request is answered (200, or 503 + Retry-After), none reset or refused, exit 0', async () => {
  test.setTimeout(60_000);
  const server = await startGracefulServer(100, 'shutdown-fresh-connections');
  const base = server.baseURL;
  try {
    expect((await attempt(`${base}/api/users`, { fresh: true })).status).toBe(200);
    expect((await attempt(`${base}/api/fixture/slow?ms=0`)).status).toBe(200);
    let signalledAt = Number.POSITIVE_INFINITY;
    const outcomes: Array<Outcome & { afterSignal: boolean }> = [];
    const client = async () => {
      while (performance.now() < signalledAt + SEND_AFTER_SIGNAL_MS) {
        const sentAt = performance.now();
        outcomes.push({ ...(await attempt(`${base}/api/users`, { fresh: true })), afterSignal: sentAt >= signalledAt });
      }
    };
    const clients = Array.from({ length: FRESH_CLIENTS }, client);
    // A short request in flight at the signal: the old drain closed the listening socket as soon as it was answered.
    const inFlight = attempt(`${base}/api/fixture/slow?ms=300`);
    await expect.poll(() => outcomes.length, { intervals: [20] }).toBeGreaterThan(4 * FRESH_CLIENTS);
    signalledAt = performance.now();
    process.kill(server.pid, 'SIGTERM');
    await Promise.all(clients);
    expect(await inFlight).toMatchObject({ status: 200 });
    const exit = await server.exited;
    const shutdownMs = Math.round(performance.now() - signalledAt);

    const counts = tally(outcomes);
    const refusedAfterSignal = outcomes.filter((outcome) => outcome.afterSignal && outcome.status === 503);
    // Nothing but answers: no ECONNRESET (a connection reset in the listen backlog), no ECONNREFUSED, no other error.
    expect(outcomes.filter((outcome) => outcome.error), JSON.stringify(counts)).toEqual([]);
    expect(outcomes.every((outcome) => outcome.status === 200 || (outcome.status === 503 && outcome.retryAfter === '1')), JSON.stringify(counts)).toBe(true);
    expect(refusedAfterSignal.length).toBeGreaterThan(FRESH_CLIENTS);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeGreaterThanOrEqual(SEND_AFTER_SIGNAL_MS);
    expect(shutdownMs).toBeLessThan(GRACE_MS);
    test.info().annotations.push({ type: 'fresh connections', description: `${outcomes.length} requests: ${JSON.stringify(counts)}, exit after ${shutdownMs} ms` });
    writeFigures('shutdown-fresh-connections', {
      clients: FRESH_CLIENTS,
      sendAfterSignalMs: SEND_AFTER_SIGNAL_MS,
      requests: outcomes.length,
      outcomes: counts,
      refusedAfterSignal: refusedAfterSignal.length,
      resets: outcomes.filter((outcome) => outcome.error === 'ECONNRESET').length,
      shutdownMs,
    });
  } finally {
    await server.stop();
  }
});
