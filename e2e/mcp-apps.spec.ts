// MCP Apps end to end: an MCP client (v2) reads the board tool's UI, which then loads standalone in Chromium under the
// CSP its metadata asks for, with no network; the explorer hosts it (and the user card): the app paints the tool
// result, a card moved in the app moves over MCP, a task created over REST shows in the app within 2 s.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { appContentSecurityPolicy } from '@gateway/browser/explorer/app-host';
import { expect, type ExplorerPage, test } from './support/explorer';
import { createTask, restStatus, type Task } from './support/rest-data';
import { e2ePort, type RunningServer, startServer } from './support/server';

const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

async function withClient<T>(baseURL: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'e2e-mcp-apps', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', baseURL)));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** Runs a tool in the explorer and returns its app's frame (once the frame is there). */
async function runWithApp(explorer: ExplorerPage, name: string, fields: Record<string, string> = {}): Promise<FrameLocator> {
  await explorer.run(name, fields);
  const card = explorer.card(name);
  await expect(card.getByTestId('mcp-app')).toBeVisible();
  return card.frameLocator('[data-testid="app-frame"]');
}

/** Records, in every frame of the page, each violation of the frame's Content-Security-Policy. */
async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}

/** The CSP violations recorded in the frame of `root` (an element of it). */
const cspViolations = (root: Locator) => root.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

/** The MCP requests the page sends (tool calls by name), and whether it ever called the REST task routes itself. */
function watchRequests(page: Page) {
  const toolCalls: string[] = [];
  const restCalls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/mcp' && request.method() === 'POST') {
      const message = request.postDataJSON() as { method?: string; params?: { name?: string } };
      if (message.method === 'tools/call' && message.params?.name) toolCalls.push(message.params.name);
    }
    if (url.pathname.startsWith('/api/tasks')) restCalls.push(`${request.method()} ${url.pathname}`);
  });
  return { toolCalls, restCalls };
}

test.describe('the board tool’s UI, read by an MCP client', () => {
  test('tools/list names a ui:// resource; resources/read gives one HTML document of the MCP App type, with an empty CSP', async ({
    baseURL,
  }) => {
    await withClient(baseURL!, async (client) => {
      const { tools } = await client.listTools();
      const board = tools.find((tool) => tool.name === 'BoardController_getBoard')!;
      const uri = (board._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      expect(uri).toMatch(/^ui:\/\/.+/);
      expect(board._meta?.['ui/resourceUri']).toBe(uri);
      const user = tools.find((tool) => tool.name === 'UserController_getUser')!;
      expect(user._meta?.ui).toEqual({ resourceUri: expect.stringMatching(/^ui:\/\//) });
      expect(tools.find((tool) => tool.name === 'TaskController_createTask')!._meta?.ui).toBeUndefined();

      const { resources } = await client.listResources();
      expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri, mimeType: MCP_APP_MIME_TYPE })]));
      const { contents } = await client.readResource({ uri: uri! });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: MCP_APP_MIME_TYPE });
      expect(contents[0]._meta?.ui).toMatchObject({
        csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      });
      const html = (contents[0] as { text: string }).text;
      expect(html).toMatch(/^<!doctype html>/i);
      // Self-contained: no script, stylesheet or frame is loaded from anywhere.
      expect(html).not.toMatch(/<(script|img|iframe)\b[^>]*\ssrc=|<link\b/i);
    });
  });

  test('the document loads standalone in Chromium under the CSP of its metadata, reaching no network at all', async ({
    page,
    baseURL,
  }) => {
    const { html, csp } = await withClient(baseURL!, async (client) => {
      const { contents } = await client.readResource({ uri: 'ui://vovk-mcp-gateway/board.html' });
      return { html: (contents[0] as { text: string }).text, csp: (contents[0]._meta?.ui as { csp: object }).csp };
    });
    // Served from an origin of its own, as a host would, with the policy built from the metadata.
    const documentUrl = 'https://mcp-app.test/board.html';
    const policy = appContentSecurityPolicy(csp);
    expect(policy).toContain("connect-src 'none'");
    const network: string[] = [];
    await page.route('**/*', (route) => {
      if (route.request().url() === documentUrl) {
        return route.fulfill({ body: html, contentType: 'text/html', headers: { 'content-security-policy': policy } });
      }
      network.push(route.request().url());
      return route.abort();
    });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await recordCspViolations(page);
    await page.goto(documentUrl);
    // Its scripts ran (under the policy): outside a host it says what it is.
    await expect(page.getByRole('heading', { name: 'Task board' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('runs inside an MCP Apps host');
    expect(await cspViolations(page.locator('html'))).toEqual([]);
    expect(network).toEqual([]);
    expect(requests).toEqual([documentUrl]);
  });
});

test.describe('the explorer as an MCP Apps host', () => {
  // A gateway of its own: the board app repaints on every change, and on the shared server other specs' cards come and
  // go under the pointer, so a click or a drag in the app could land on a card that had just moved.
  const portOffset = 120;
  let server: RunningServer;
  test.use({ baseURL: `http://localhost:${e2ePort + portOffset}` });
  test.beforeAll(async () => {
    server = await startServer(e2ePort + portOffset, {}, 'test-results/mcp-apps.log');
  });
  test.afterAll(async () => server?.stop());

  test('running BoardController_getBoard shows the board app beside the raw result; a card moved in the app moves over MCP; a task created over REST appears within 2 s', async ({
    explorer,
    page,
    request,
    baseURL,
  }) => {
    const mine = await createTask(baseURL!, 'Moved in the app');
    // A long To do column scrolls inside the frame: a drag whose source and target need different scroll positions
    // grabs whatever card the scroll brought under the pointer. The card goes on top.
    expect((await request.put(`/api/tasks/${mine.id}/move`, { data: { status: 'todo', position: 0 } })).status()).toBe(200);
    const { toolCalls, restCalls } = watchRequests(page);
    await recordCspViolations(page);
    await explorer.open();
    const app = await runWithApp(explorer, 'BoardController_getBoard');
    // The raw result is still shown, and the app painted the same board from it.
    await expect(explorer.card('BoardController_getBoard').getByTestId('structured-content')).toContainText(mine.title);
    const toDo = app.getByRole('region', { name: 'To do' });
    await expect(toDo.getByRole('listitem', { name: mine.title })).toBeVisible();
    // Sandboxed (an opaque origin: none of the explorer's storage or tokens), under the CSP of the app's metadata.
    const frame = explorer.card('BoardController_getBoard').getByTestId('app-frame');
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-forms');
    await expect(app.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /default-src 'none';.*connect-src 'none'/);
    // It follows the host's hints: the theme and the host's colours; the frame grows to the height the app asks for.
    await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await app.locator('html').evaluate((root) => root.style.getPropertyValue('--color-text-primary'))).toBe('#1c2430');
    const appHeight = await app.locator('html').evaluate((root) => root.getBoundingClientRect().height);
    await expect.poll(async () => (await frame.boundingBox())?.height).toBeGreaterThanOrEqual(Math.min(appHeight, 720));

    // Drag the card onto In progress: the app calls TaskController_moveTask through the host, never REST. The app
    // repaints the board on changes, and under load a synthetic drag may start while it does: drag again then.
    const status = async () => ((await (await request.get(`/api/tasks/${mine.id}`)).json()) as Task).status;
    await expect(async () => {
      // Dropped on the column's heading, at its top however many cards it holds.
      const inProgress = app.getByRole('region', { name: 'In progress' });
      const card = toDo.getByRole('listitem', { name: mine.title });
      if ((await status()) === 'todo') await card.dragTo(inProgress, { targetPosition: { x: 24, y: 12 } });
      await expect.poll(status, { timeout: 3000 }).toBe('in_progress');
    }).toPass({ timeout: 15_000 });
    expect(toolCalls).toContain('TaskController_moveTask');
    await expect(app.getByRole('region', { name: 'In progress' }).getByRole('listitem', { name: mine.title })).toBeVisible();

    // A task created anywhere else (here: REST) shows in the app within 2 s.
    const elsewhere = await createTask(baseURL!, 'Created over REST');
    await expect(app.getByRole('region', { name: 'To do' }).getByRole('listitem', { name: elsewhere.title })).toBeVisible({
      timeout: 2000,
    });
    expect(restCalls).toEqual([]);
    // The frame ran under the CSP of the app's metadata (nothing but inline code), and broke none of it.
    expect(await cspViolations(app.locator('html'))).toEqual([]);
    for (const task of [mine, elsewhere]) await request.delete(`/api/tasks/${task.id}`);
  });

  test('adding and deleting a card in the app go through the host too; the host asks its user before the delete', async ({
    explorer,
    page,
    request,
    baseURL,
  }) => {
    const title = `Added in the app ${Date.now()}`;
    const { toolCalls, restCalls } = watchRequests(page);
    await explorer.open();
    const app = await runWithApp(explorer, 'BoardController_getBoard');
    await app.getByLabel('New task title').fill(title);
    await app.getByRole('button', { name: 'Add task' }).click();
    const card = app.getByRole('listitem', { name: title });
    await expect(card).toBeVisible();
    const tasks = (await (await request.get('/api/tasks')).json()) as Task[];
    const added = tasks.find((task) => task.title === title)!;
    expect(added).toMatchObject({ status: 'todo' });
    // A delete is destructive: the explorer, as the host, puts the gateway's question to its user.
    const question = explorer.question();
    await card.getByRole('button', { name: 'Delete task' }).click();
    await expect(question).toHaveAccessibleDescription(`Delete the task “${title}” (id ${added.id})? It cannot be undone.`);
    await question.getByRole('button', { name: 'Decline' }).click();
    await expect(app.getByRole('alert')).toContainText('Not done: the user declined');
    await expect(card).toBeVisible();
    expect(await restStatus(baseURL!, `/api/tasks/${added.id}`)).toBe(200);
    await card.getByRole('button', { name: 'Delete task' }).click();
    await question.getByRole('button', { name: 'Accept' }).click();
    await expect(card).toHaveCount(0);
    expect(await restStatus(baseURL!, `/api/tasks/${added.id}`)).toBe(404);
    expect(toolCalls).toEqual(expect.arrayContaining(['TaskController_createTask', 'TaskController_deleteTask']));
    expect(restCalls).toEqual([]);
  });

  test('running UserController_getUser shows the user card, with the tasks assigned to them', async ({ explorer, request, baseURL }) => {
    const task = await createTask(baseURL!, 'Ada’s card task', { assigneeId: 1 });
    await explorer.open();
    const app = await runWithApp(explorer, 'UserController_getUser', { id: '1' });
    await expect(app.getByRole('heading', { name: /Ada Lovelace/ })).toBeVisible();
    await expect(app.getByText('ada@example.com', { exact: false })).toBeVisible();
    await expect(app.getByRole('list', { name: 'Assigned tasks' })).toContainText(task.title);
    await request.delete(`/api/tasks/${task.id}`);
  });
});
