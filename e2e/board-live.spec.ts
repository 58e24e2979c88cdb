// The board kept live without a per-second poll (issue 26): the app-only tool BoardController_waitForChange over REST
// and MCP (at once when `after` differs, on a change, after its timeout, across two instances, at a shutdown); the
// board app in the explorer repainted on the updates the host forwards, on the long wait when the host forwards
// nothing, by a poll only when that tool is refused; the explorer's Resources view listing and reading the board.
import type { FrameLocator, Page, Request } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { expect, type ExplorerPage, test } from './support/explorer';
import { connect, eras, using } from './support/mcp';
import { createTask, type Task } from './support/rest-data';
import { e2ePort, startServer, stoppedAfterAll } from './support/server';

const WAIT_TOOL = 'BoardController_waitForChange';
const BOARD_TOOL = 'BoardController_getBoard';
const BOARD_URI = 'vovk://gateway/api/board';

type BoardChange = { board: { columns: Array<{ tasks: Task[] }> }; version: string; changed: boolean };

/** This spec's gateway (SQLite): the explorer's board app and the REST writes meet no other spec's cards there. */
const baseURL = `http://localhost:${e2ePort + 270}`;
const kept = stoppedAfterAll();
test.beforeAll(async () => {
  kept(await startServer(e2ePort + 270, {}, 'test-results/board-live.log'));
});
test.use({ baseURL });

/** `GET /api/board/changes` with `query`, timed. */
async function waitOver(base: string, query: Record<string, string> = {}, signal?: AbortSignal) {
  const started = performance.now();
  const response = await fetch(`${base}/api/board/changes?${new URLSearchParams(query)}`, { signal });
  return { status: response.status, body: (await response.json()) as BoardChange, ms: performance.now() - started };
}

const titlesOf = (change: BoardChange) => change.board.columns.flatMap((column) => column.tasks.map((task) => task.title));
const later = (ms: number, then: () => Promise<unknown>) => new Promise((resolve) => setTimeout(resolve, ms)).then(then);

test.describe('the app-only tool over REST', () => {
  test('without `after` it answers at once: the board GET /api/board answers, its version, changed', async () => {
    await waitOver(baseURL); // the route's first load is not what is timed below
    const [{ status, body, ms }, board] = await Promise.all([waitOver(baseURL), fetch(`${baseURL}/api/board`).then((r) => r.json())]);
    expect(status).toBe(200);
    expect(body).toEqual({ board, version: expect.stringMatching(/^[\w-]{22}$/), changed: true });
    expect(ms).toBeLessThan(2000);
    expect((await waitOver(baseURL, { after: 'an older version' })).body).toMatchObject({ version: body.version, changed: true });
  });

  test('with the version shown it answers when the board changes, else after its timeout unchanged', async () => {
    const { version } = (await waitOver(baseURL)).body;
    const quiet = await waitOver(baseURL, { after: version, timeoutMs: '600' });
    expect(quiet.body).toMatchObject({ version, changed: false });
    expect(quiet.ms).toBeGreaterThanOrEqual(550);
    const [changed, task] = await Promise.all([waitOver(baseURL, { after: version }), later(500, () => createTask(baseURL, 'Waited for over REST'))]);
    expect(changed.body.changed).toBe(true);
    expect(changed.body.version).not.toBe(version);
    expect(titlesOf(changed.body)).toContain((task as Task).title);
    expect(changed.ms).toBeLessThan(5000); // the write came after 500 ms; the default wait is 25 s
  });

  test('bad input is a 400 naming what is wrong', async () => {
    const queries: Array<Record<string, string>> = [{ timeoutMs: '25001' }, { timeoutMs: '-1' }, { timeoutMs: 'soon' }, { after: 'x'.repeat(65) }];
    for (const query of queries) {
      const response = await fetch(`${baseURL}/api/board/changes?${new URLSearchParams(query)}`);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect((await response.json()).message, JSON.stringify(query)).toMatch(Object.keys(query)[0]);
    }
  });
});

for (const era of eras) {
  test.describe(`the app-only tool over MCP (${era})`, () => {
    test('it is listed for the board app only, and answers as REST does: the same version, a change, a timeout', async () => {
      await using(connect(era, baseURL), async (client) => {
        const tool = (await client.listTools()).find((each) => each.name === WAIT_TOOL)!;
        expect(tool._meta?.ui).toEqual({ resourceUri: 'ui://vovk-mcp-gateway/board.html', visibility: ['app'] });
        expect(tool.annotations).toMatchObject({ readOnlyHint: true });
        const now = (await client.callTool(WAIT_TOOL)).structuredContent as BoardChange;
        expect(now.version).toBe((await waitOver(baseURL)).body.version);
        const quiet = await client.callTool(WAIT_TOOL, { query: { after: now.version, timeoutMs: 300 } });
        expect(quiet.structuredContent).toMatchObject({ version: now.version, changed: false });
        const [changed] = await Promise.all([
          client.callTool(WAIT_TOOL, { query: { after: now.version } }),
          later(300, () => createTask(baseURL, `Waited for over MCP ${era}`)),
        ]);
        expect(changed.structuredContent).toMatchObject({ changed: true });
        const refused = await client.callTool(WAIT_TOOL, { query: { timeoutMs: 99_999 } });
        expect(refused.isError).toBe(true);
        expect(String(refused.content[0].text)).toMatch(/timeoutMs/);
      });
    });
  });
}

test.describe('the app-only tool on two instances sharing PostgreSQL', () => {
  let database: TestDatabase;
  const instances: string[] = [];
  const stopped = stoppedAfterAll(); // before the database is dropped (hooks run in this order)
  test.beforeAll(async () => {
    database = await createTestDatabase('postgres');
    for (const offset of [271, 272]) {
      instances.push(stopped(await startServer(e2ePort + offset, database.env, `test-results/board-live-pg-${offset}.log`)).baseURL);
    }
  });
  test.afterAll(async () => database?.drop());

  test('both give the same board the same version; a wait on B answers a write on A', async () => {
    const [a, b] = instances;
    const [onA, onB] = await Promise.all([waitOver(a), waitOver(b)]);
    expect(onB.body.version).toBe(onA.body.version);
    const [changed, task] = await Promise.all([waitOver(b, { after: onA.body.version }), later(500, () => createTask(a, 'Written on A'))]);
    expect(changed.body.changed).toBe(true);
    expect(titlesOf(changed.body)).toContain((task as Task).title);
    expect(changed.ms).toBeLessThan(5000);
    expect((await waitOver(a)).body.version).toBe(changed.body.version);
  });
});

test('a wait in progress answers at once, unchanged, when its server shuts down', async () => {
  const server = await startServer(e2ePort + 273, {}, 'test-results/board-live-shutdown.log');
  try {
    const { version } = (await waitOver(server.baseURL)).body;
    const [waited] = await Promise.all([waitOver(server.baseURL, { after: version }), later(500, () => server.stop())]);
    expect(waited.status).toBe(200);
    expect(waited.body).toMatchObject({ version, changed: false });
    expect(waited.ms).toBeLessThan(10_000); // not the 25 s of its wait
  } finally {
    await server.stop();
  }
});

/** The MCP requests the page sends, by what they are, with when each started; the listen streams it opened. */
function watchMcp(page: Page) {
  const calls: Array<{ name: string; at: number }> = [];
  const listens: Request[] = [];
  const ended = new Set<Request>();
  page.on('request', (request) => {
    if (new URL(request.url()).pathname !== '/api/mcp' || request.method() !== 'POST') return;
    const message = request.postDataJSON() as { method?: string; params?: { name?: string } };
    if (message.method === 'tools/call' && message.params?.name) calls.push({ name: message.params.name, at: Date.now() });
    if (message.method === 'subscriptions/listen') listens.push(request);
  });
  page.on('requestfinished', (request) => ended.add(request));
  page.on('requestfailed', (request) => ended.add(request));
  return {
    /** Calls of `name` started since `since` (a Date.now()). */
    callsOf: (name: string, since = 0) => calls.filter((call) => call.name === name && call.at >= since).length,
    listens,
    open: () => listens.filter((request) => !ended.has(request)),
  };
}

/** Runs the board tool in the explorer and waits until its app painted; returns the app's frame and the page's requests. */
async function openBoardApp(explorer: ExplorerPage) {
  const mcp = watchMcp(explorer.page);
  await explorer.open();
  await explorer.run(BOARD_TOOL);
  const app = explorer.card(BOARD_TOOL).frameLocator('[data-testid="app-frame"]');
  await expect(app.getByRole('region', { name: 'To do' })).toBeVisible();
  return { app, mcp };
}

/** Hosts the app again as a host that forwards nothing, and waits until it says how it keeps up. */
async function withoutForwarding(explorer: ExplorerPage, app: FrameLocator, mode: 'wait' | 'poll') {
  await explorer.card(BOARD_TOOL).getByLabel('Forward resource updates').uncheck();
  await expect(app.getByTestId('sync-mode')).toHaveAttribute('data-mode', mode);
}

/** `count` tasks created over REST one after another, each seen in the app within `withinMs`. */
async function writesShowIn(app: FrameLocator, count: number, withinMs: number): Promise<Task[]> {
  const tasks: Task[] = [];
  for (let n = 0; n < count; n++) {
    const task = await createTask(baseURL, `Live card ${n}`);
    await expect(app.getByRole('listitem', { name: task.title })).toBeVisible({ timeout: withinMs });
    tasks.push(task);
  }
  return tasks;
}

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe('the board app in the explorer', () => {
  test.describe.configure({ timeout: 60_000 });

  test('repaints on the updates the explorer forwards: no request while idle, one board per change, the stream closed with the app', async ({
    explorer,
  }) => {
    const { app, mcp } = await openBoardApp(explorer);
    await expect(app.getByTestId('sync-mode')).toHaveAttribute('data-mode', 'push');
    await expect.poll(() => mcp.open().length).toBe(1);
    const since = Date.now();
    await idle(6000);
    expect(mcp.callsOf(BOARD_TOOL, since) + mcp.callsOf(WAIT_TOOL, since), 'tool calls while idle').toBe(0);
    const writes = await writesShowIn(app, 3, 2000);
    expect(mcp.callsOf(BOARD_TOOL, since)).toBeGreaterThanOrEqual(1);
    expect(mcp.callsOf(BOARD_TOOL, since), 'getBoard calls for 3 changes').toBeLessThanOrEqual(writes.length);
    expect(mcp.callsOf(WAIT_TOOL)).toBe(0);
    expect(mcp.listens).toHaveLength(1);
    // Shown again (a new run: a new app), it is kept current over one stream still; hosted as by a host that forwards
    // nothing, no app watches the board any more and the stream is closed.
    await explorer.run(BOARD_TOOL);
    await expect(app.getByTestId('sync-mode')).toHaveAttribute('data-mode', 'push');
    await writesShowIn(app, 1, 2000);
    expect(mcp.open()).toHaveLength(1);
    await withoutForwarding(explorer, app, 'wait');
    await expect.poll(() => mcp.open().length).toBe(0);
  });

  test('a host that forwards nothing: the app waits through the app-only tool — a request per change, next to none while idle', async ({
    explorer,
  }) => {
    const { app, mcp } = await openBoardApp(explorer);
    await withoutForwarding(explorer, app, 'wait');
    await expect.poll(() => mcp.open().length, { message: 'no listen stream without forwarding' }).toBe(0);
    await idle(1000); // the first wait (no `after`) has answered at once
    const since = Date.now();
    await idle(12_000);
    expect(mcp.callsOf(WAIT_TOOL, since), 'waits started in 12 idle seconds (each lasts 25 s)').toBeLessThanOrEqual(1);
    expect(mcp.callsOf(BOARD_TOOL, since)).toBe(0);
    const writing = Date.now();
    const writes = await writesShowIn(app, 3, 2000);
    expect(mcp.callsOf(WAIT_TOOL, writing), 'waits for 3 changes').toBeLessThanOrEqual(writes.length + 1);
    expect(mcp.callsOf(BOARD_TOOL, since)).toBe(0);
  });

  test('only when the app-only tool is refused as unknown does the app poll the board every second', async ({ explorer, page }) => {
    await page.route('**/api/mcp*', (route) => {
      const message = route.request().postDataJSON() as { id?: unknown; method?: string; params?: { name?: string } };
      if (message?.method !== 'tools/call' || message.params?.name !== WAIT_TOOL) return route.fallback();
      const error = { code: -32602, message: `Tool ${WAIT_TOOL} not found` };
      return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: message.id, error }) });
    });
    const { app, mcp } = await openBoardApp(explorer);
    await withoutForwarding(explorer, app, 'poll');
    // Polls keep coming (3 within 10 s, whatever the machine's load), and never faster than one a second.
    const since = Date.now();
    await expect.poll(() => mcp.callsOf(BOARD_TOOL, since), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await idle(2000);
    const seconds = (Date.now() - since) / 1000;
    expect(mcp.callsOf(BOARD_TOOL, since)).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    await writesShowIn(app, 1, 3000);
  });
});

test.describe('the explorer', () => {
  test('the app-only tool’s card says only its app calls it; its result shows without the app', async ({ explorer }) => {
    await explorer.open();
    const card = explorer.card(WAIT_TOOL);
    await expect(card.getByTestId('app-only')).toBeVisible();
    await explorer.run(WAIT_TOOL);
    await expect(card.getByTestId('structured-content')).toContainText('"changed": true');
    await expect(card.getByTestId('mcp-app')).toHaveCount(0);
  });

  test('its Resources view lists the board with the tool behind it and reads it; a template is filled in, then read; a missing one says so', async ({
    explorer,
    page,
  }) => {
    const task = await createTask(baseURL, 'Read as a resource');
    await explorer.open();
    await page.getByRole('tab', { name: 'Resources' }).click();
    const view = page.getByRole('region', { name: 'Resources' });
    const board = view.getByRole('article', { name: BOARD_URI });
    await expect(board).toContainText('served by BoardController_getBoard');
    await expect(board).toContainText('application/json');
    await board.getByRole('button', { name: 'Read' }).click();
    await expect(board.getByTestId('resource-content').getByTestId('json-view')).toContainText(task.title);

    const app = view.getByRole('article', { name: 'ui://vovk-mcp-gateway/board.html' });
    await app.getByRole('button', { name: 'Read' }).click();
    await expect(app.getByTestId('text-view')).toContainText(/<!doctype html>/i);

    const template = view.getByRole('article', { name: 'vovk://gateway/api/tasks/{id}' });
    await expect(template.getByRole('button', { name: 'Read' })).toBeDisabled();
    await template.getByLabel('id').fill(String(task.id));
    await expect(template).toContainText(`vovk://gateway/api/tasks/${task.id}`);
    await template.getByRole('button', { name: 'Read' }).click();
    await expect(template.getByTestId('json-view')).toContainText(`"title": "${task.title}"`);
    await template.getByLabel('id').fill('424242');
    await template.getByRole('button', { name: 'Read' }).click();
    await expect(template.getByRole('alert')).toContainText('Reading vovk://gateway/api/tasks/424242 failed');
  });
});
