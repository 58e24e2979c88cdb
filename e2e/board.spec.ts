// The task board end to end on servers of its own: MCP clients of both eras create, move and delete; /board updates
// live. On SQLite (one instance) and on PostgreSQL (instances A and B sharing one database).
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { type Backend, createTestDatabase, type TestDatabase } from '../test/support/databases';
import { ConsoleGuard } from './support/explorer';
import { connect, type Era, eras, type GatewayClient } from './support/mcp';
import { e2ePort, type RunningServer, startServer } from './support/server';

/** This spec's own instances, A and B, listen on the two ports after the shared server's. */
const instancePorts = [e2ePort + 1, e2ePort + 2];

// Both describes use the same two ports: one after the other, in one worker.
test.describe.configure({ mode: 'serial' });

type User = { id: number; name: string; email: string; role: string; createdAt: string };
type Task = { id: number; title: string; description: string; status: string; position: number; assigneeId: number | null };

/** Calls a tool that must succeed; checks its text is the JSON of its structuredContent, and returns that. */
async function succeed<T>(client: GatewayClient, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool(name, args);
  expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeUndefined();
  const structured = result.structuredContent as { items?: unknown };
  expect(JSON.parse(result.content[0].text as string), name).toEqual(structured.items ?? structured);
  return (structured.items ?? structured) as T;
}

/** Create a user and two tasks, move, list, reassign, delete the user (tasks unassigned), delete the tasks. */
async function mcpRoundTrip(era: Era, baseURL: string, request: APIRequestContext): Promise<void> {
  const client = await connect(era, baseURL);
  const rest = async (path: string) => (await request.get(`${baseURL}${path}`)).json();
  try {
    await client.listTools(); // from here on the client checks each structuredContent against the tool's outputSchema
    const email = `${era.replace(/\W+/g, '-')}-${Date.now()}@example.com`;
    const user = await succeed<User>(client, 'UserController_createUser', { body: { name: 'Katherine Johnson', email } });
    expect(user).toMatchObject({ name: 'Katherine Johnson', email, role: 'member' });
    const renamed = await succeed<User>(client, 'UserController_updateUser', {
      params: { id: user.id },
      body: { name: 'Katherine G. Johnson', role: 'admin' },
    });
    expect(renamed).toEqual({ ...user, name: 'Katherine G. Johnson', role: 'admin' });
    expect(await rest(`/api/users/${user.id}`)).toEqual(renamed);

    const spec = await succeed<Task>(client, 'TaskController_createTask', { body: { title: `Spec (${era})`, assigneeId: user.id } });
    expect(spec).toMatchObject({ status: 'todo', assigneeId: user.id, description: '' });
    const review = await succeed<Task>(client, 'TaskController_createTask', {
      body: { title: `Review (${era})`, description: 'Look it over', status: 'in_progress' },
    });
    const moved = await succeed<Task>(client, 'TaskController_moveTask', {
      params: { id: spec.id },
      body: { status: 'in_progress', position: 0 },
    });
    expect(moved).toMatchObject({ id: spec.id, status: 'in_progress', position: 0 });
    expect(await rest(`/api/tasks/${spec.id}`)).toEqual(moved);
    const inProgress = await succeed<Task[]>(client, 'TaskController_listTasks', { query: { status: 'in_progress' } });
    expect(inProgress.map((task) => task.id).filter((id) => id === spec.id || id === review.id)).toEqual([spec.id, review.id]);

    const reassigned = await succeed<Task>(client, 'TaskController_updateTask', {
      params: { id: review.id },
      body: { title: `Review it (${era})`, assigneeId: user.id },
    });
    expect(reassigned).toMatchObject({ title: `Review it (${era})`, description: 'Look it over', assigneeId: user.id });
    const theirs = await succeed<Task[]>(client, 'TaskController_listTasks', { query: { assigneeId: user.id } });
    expect(theirs.map((task) => task.id)).toEqual([spec.id, review.id]);

    const deleted = await succeed(client, 'UserController_deleteUser', { params: { id: user.id } });
    expect(deleted).toEqual({ user: renamed, unassignedTaskIds: [spec.id, review.id] });
    expect((await request.get(`${baseURL}/api/users/${user.id}`)).status()).toBe(404);
    expect(await succeed<Task>(client, 'TaskController_getTask', { params: { id: spec.id } })).toMatchObject({ assigneeId: null });

    const gone = await succeed<Task>(client, 'TaskController_deleteTask', { params: { id: spec.id } });
    expect(gone).toMatchObject({ id: spec.id, status: 'in_progress', assigneeId: null });
    expect(await client.callTool('TaskController_getTask', { params: { id: spec.id } })).toEqual({
      content: [{ type: 'text', text: `Task ${spec.id} not found` }],
      isError: true,
    });
    await succeed(client, 'TaskController_deleteTask', { params: { id: review.id } });
    expect((await request.get(`${baseURL}/api/tasks/${review.id}`)).status()).toBe(404);
  } finally {
    await client.close();
  }
}

type OpenBoard = { page: Page; reloads: () => number; consoleGuard: ConsoleGuard };

async function openBoard(browser: Browser, baseURL: string): Promise<OpenBoard> {
  const page = await browser.newPage();
  const consoleGuard = new ConsoleGuard(page);
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto(`${baseURL}/board`);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  return { page, reloads: () => loads - 1, consoleGuard };
}

const card = (page: Page, column: string, title: string) =>
  page.getByRole('region', { name: column }).getByRole('listitem', { name: title });

/**
 * MCP creates a task on `mcpBase`; it appears within 2 s on every board (the first is where the UI acts) without a
 * reload; a drag in the UI reaches REST and MCP on `mcpBase` and the other boards; deleting the assignee unassigns it.
 */
async function liveBoard(browser: Browser, request: APIRequestContext, mcpBase: string, boardBases: string[]) {
  const boards = await Promise.all(boardBases.map((base) => openBoard(browser, base)));
  const [{ page }] = boards;
  const client = await connect('client-v2 (2026-07-28)', mcpBase);
  try {
    await client.listTools();
    const user = await succeed<User>(client, 'UserController_createUser', {
      body: { name: 'Dorothy Vaughan', email: `dorothy-${Date.now()}@example.com` },
    });
    const title = `Live card ${Date.now()}`;
    const started = Date.now();
    const task = await succeed<Task>(client, 'TaskController_createTask', { body: { title, assigneeId: user.id } });
    for (const board of boards) await expect(card(board.page, 'To do', title)).toBeVisible({ timeout: 2000 });
    test.info().annotations.push({ type: 'live update (MCP create → card on every board)', description: `${Date.now() - started} ms` });
    await expect(card(page, 'To do', title).getByRole('combobox', { name: 'Assignee' })).toHaveValue(String(user.id));

    await card(page, 'To do', title).getByText(title).dragTo(page.getByRole('region', { name: 'In progress' }));
    for (const board of boards) await expect(card(board.page, 'In progress', title)).toBeVisible({ timeout: 2000 });
    expect(await (await request.get(`${mcpBase}/api/tasks/${task.id}`)).json()).toMatchObject({ status: 'in_progress' });
    expect(await succeed<Task>(client, 'TaskController_getTask', { params: { id: task.id } })).toMatchObject({
      status: 'in_progress',
      assigneeId: user.id,
    });

    await card(page, 'In progress', title).getByRole('button', { name: 'Move right' }).click();
    await expect.poll(async () => (await request.get(`${mcpBase}/api/tasks/${task.id}`)).json()).toMatchObject({ status: 'done' });
    await succeed(client, 'UserController_deleteUser', { params: { id: user.id } });
    for (const board of boards) {
      await expect(card(board.page, 'Done', title).getByRole('combobox', { name: 'Assignee' })).toHaveValue('');
      await expect(board.page.getByRole('option', { name: 'Dorothy Vaughan' })).toHaveCount(0);
    }

    await card(page, 'Done', title).getByRole('button', { name: 'Delete task' }).click();
    for (const board of boards) await expect(card(board.page, 'Done', title)).toHaveCount(0);
    expect(await client.callTool('TaskController_getTask', { params: { id: task.id } })).toMatchObject({ isError: true });
    expect(boards.map((board) => board.reloads())).toEqual(boards.map(() => 0));
  } finally {
    await client.close();
    await Promise.all(boards.map((board) => board.page.close()));
  }
}

/** Starts `count` instances on one fresh database of `backend`; stops them and drops it afterwards. */
function instancesOn(backend: Backend, count: 1 | 2): RunningServer[] {
  const servers: RunningServer[] = [];
  let database: TestDatabase;
  test.beforeAll(async () => {
    database = await createTestDatabase(backend);
    for (const [index, port] of instancePorts.slice(0, count).entries()) {
      servers.push(await startServer(port, database.env, `test-results/board-${backend}-${'AB'[index]}.log`));
    }
  });
  test.afterAll(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await database?.drop();
  });
  return servers;
}

test.describe('task board on SQLite, one instance', () => {
  const servers = instancesOn('sqlite', 1);
  for (const era of eras) {
    test(`MCP over ${era}: create a user and tasks, move, reassign, delete`, async ({ request }) => {
      await mcpRoundTrip(era, servers[0].baseURL, request);
    });
  }
  test('/board: an MCP-created card appears live; a drag in the UI reaches REST and MCP', async ({ browser, request }) => {
    await liveBoard(browser, request, servers[0].baseURL, [servers[0].baseURL]);
  });
  test('/board: the form adds a card for a user and its select unassigns it, no console errors', async ({ browser, request }) => {
    const base = servers[0].baseURL;
    const taskOf = async (id: number) => (await request.get(`${base}/api/tasks/${id}`)).json();
    const { page, consoleGuard } = await openBoard(browser, base);
    const title = `Form card ${Date.now()}`;
    try {
      await page.getByLabel('New task title').fill(title);
      await page.getByLabel('Assignee of the new task').selectOption({ label: 'Ada Lovelace' });
      await page.getByRole('button', { name: 'Add task' }).click();
      const assignee = card(page, 'To do', title).getByRole('combobox', { name: 'Assignee' });
      await expect(assignee).toHaveValue('1');
      const tasks: Task[] = await (await request.get(`${base}/api/tasks`)).json();
      const created = tasks.find((task) => task.title === title)!;
      expect(created).toMatchObject({ status: 'todo', description: '', assigneeId: 1 });
      await assignee.selectOption('');
      await expect.poll(() => taskOf(created.id)).toMatchObject({ assigneeId: null });
      await expect(assignee).toHaveValue('');
      expect(consoleGuard.unexpected(), 'console errors in the page').toEqual([]);
    } finally {
      await page.close();
    }
  });
});

test.describe('task board on PostgreSQL, two instances sharing the database', () => {
  const servers = instancesOn('postgres', 2);
  for (const era of eras) {
    test(`MCP over ${era}: create a user and tasks, move, reassign, delete`, async ({ request }) => {
      await mcpRoundTrip(era, servers[0].baseURL, request);
    });
  }
  test('a card created by MCP on A appears on B’s board and A’s; a drag on B reaches A’s REST and MCP', async ({
    browser,
    request,
  }) => {
    const [a, b] = servers;
    await liveBoard(browser, request, a.baseURL, [b.baseURL, a.baseURL]);
  });
});
