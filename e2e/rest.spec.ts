// The REST door: the same procedures as plain HTTP routes, unchanged by their MCP-only metadata.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { connect } from './support/mcp';

test('[R19][R23] the annotated image and the overridden record keep their REST responses', async ({ request }) => {
  const image = await request.get('/api/annotated/annotated-image');
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/jpeg');
  expect(Buffer.compare(await image.body(), fs.readFileSync('public/media/sample.jpg'))).toBe(0);
  const record = await request.get('/api/fixture/overridden');
  expect(await record.json()).toEqual({ summary: 'short', details: 'the full record REST clients get' });
});

test('REST ↔ MCP parity: every JSON tool’s structuredContent deep-equals the REST body', async ({ request, baseURL }) => {
  const client = await connect('sdk-v1 (2025 era)', baseURL!);
  try {
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['/api/users/1', 'UserController_getUser', { params: { id: 1 } }],
      ['/api/users/3', 'UserController_getUser', { params: { id: 3 } }],
      ['/api/users', 'UserController_listUsers', {}],
      ['/api/tasks', 'TaskController_listTasks', {}],
      ['/api/board', 'BoardController_getBoard', {}],
      ['/api/fixture/vnd-json', 'FixtureController_getVndJson', {}],
    ];
    for (const [path, tool, args] of cases) {
      const body = await (await request.get(path)).json();
      const { structuredContent } = await client.callTool(tool, args);
      expect(structuredContent, path).toEqual(Array.isArray(body) ? { items: body } : body);
    }
  } finally {
    await client.close();
  }
});

test('REST errors: unknown user 404, invalid id 400, disallowed media URL 403', async ({ request }) => {
  expect((await request.get('/api/users/999')).status()).toBe(404);
  expect((await request.get('/api/users/abc')).status()).toBe(400);
  const refused = await request.get('/api/media/from-url?url=http%3A%2F%2F169.254.169.254%2F');
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toMatch(/not allowed/);
});

test('REST errors of the board: unknown task 404, unknown assignee 422, taken email 409, invalid input 400', async ({ request }) => {
  expect((await request.get('/api/tasks/424242')).status()).toBe(404);
  expect((await request.put('/api/tasks/424242/move', { data: { status: 'done' } })).status()).toBe(404);
  expect((await request.delete('/api/users/424242')).status()).toBe(404);
  const orphan = await request.post('/api/tasks', { data: { title: 'Orphan', assigneeId: 424242 } });
  expect(orphan.status()).toBe(422);
  expect((await orphan.json()).message).toBe('User 424242 not found: a task can only be assigned to an existing user');
  expect((await request.post('/api/users', { data: { name: 'Ada', email: 'ada@example.com' } })).status()).toBe(409);
  expect((await request.post('/api/tasks', { data: { title: '' } })).status()).toBe(400);
  expect((await request.post('/api/users', { data: { name: 'No email', email: 'not-an-email' } })).status()).toBe(400);
  expect((await request.put('/api/tasks/1/move', { data: { status: 'archived' } })).status()).toBe(400);
  // None of the refused writes left a task behind (other tests share this server: look for these titles only).
  const titles = ((await (await request.get('/api/tasks')).json()) as { title: string }[]).map((task) => task.title);
  expect(titles).not.toContain('Orphan');
  expect(titles).not.toContain('');
});

test('the board stream (REST only): JSON Lines, starting with the board as GET /api/board has it', async ({ request, baseURL }) => {
  const stop = new AbortController();
  try {
    const headers = { Accept: 'application/jsonl' };
    const response = await fetch(`${baseURL}/api/board/stream`, { signal: stop.signal, headers });
    expect(response.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    const board = await (await request.get('/api/board')).json();
    expect(JSON.parse(text.split('\n')[0])).toEqual({ type: 'board', board });
    expect(board.columns.map((column: { status: string }) => column.status)).toEqual(['todo', 'in_progress', 'done']);
    // A client that does not ask for JSON Lines (a browser tab) gets the same lines as plain text.
    const plain = await fetch(`${baseURL}/api/board/stream`, { signal: stop.signal });
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  } finally {
    stop.abort();
  }
});
