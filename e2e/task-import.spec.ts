// POST /api/tasks/import and TaskController_importTasks on a server of its own: rows, CSV text and a CSV URL through
// REST and real MCP clients of both eras; its 400, 413, 422 and 502 answers, and that a refused import changes nothing;
// as a REST job and an MCP task, cancelled mid-way with nothing imported.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { connect, eras, type GatewayClient } from './support/mcp';
import { connectTaskClient, taskRequest } from './support/tasks';
import { e2ePort, type RunningServer, startServer } from './support/server';

// One server and one board for the whole spec: its tests compare the board before and after, so they run in turn.
test.describe.configure({ mode: 'serial' });

type Task = { id: number; title: string; description: string; status: string; position: number; assigneeId: number | null };

/** The CSV server the gateway may import from (IMPORT_ALLOWED_ORIGINS), on loopback. */
const csvFiles: Record<string, string> = {
  '/tasks.csv': 'title,description,status,assigneeId\r\nFrom the URL,"with a comma, and ""quotes""",in_progress,2\r\n',
  '/bad.csv': 'title,status\nGood,todo\nBad,someday\n',
};
/** The slow CSV's downloads: rows sent by the latest, and how many are open (a cancelled import drops its own). */
const slowDownloads = { rowsSent: 0, open: 0 };

/** A CSV that takes its time: the header, then a row every 200 ms, 50 rows in all (so a cancel lands mid-way). */
function trickle(res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/csv' }).write('title\n');
  slowDownloads.rowsSent = 0;
  slowDownloads.open++;
  const timer = setInterval(() => {
    res.write(`Slow row ${++slowDownloads.rowsSent}\n`);
    if (slowDownloads.rowsSent === 50) {
      clearInterval(timer);
      res.end();
    }
  }, 200);
  res.on('close', () => {
    clearInterval(timer);
    slowDownloads.open--;
  });
}

let csvServer: http.Server;
let csvOrigin: string;
let gateway: RunningServer;

test.beforeAll(async () => {
  csvServer = http.createServer((req, res) => {
    const file = csvFiles[req.url!];
    // /away redirects to the same server under another name: another origin, not listed.
    const elsewhere = `${csvOrigin.replace('127.0.0.1', 'localhost')}/tasks.csv`;
    if (file) res.writeHead(200, { 'Content-Type': 'text/csv' }).end(file);
    else if (req.url === '/slow.csv') trickle(res);
    else if (req.url === '/away') res.writeHead(302, { Location: elsewhere }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => csvServer.listen(0, '127.0.0.1', resolve));
  csvOrigin = `http://127.0.0.1:${(csvServer.address() as AddressInfo).port}`;
  gateway = await startServer(
    e2ePort + 70,
    { IMPORT_ALLOWED_ORIGINS: csvOrigin, IMPORT_MAX_ROWS: '100' },
    'test-results/task-import-server.log',
  );
});

test.afterAll(async () => {
  await gateway?.stop();
  await new Promise((resolve) => csvServer?.close(resolve));
});

/** POST /api/tasks/import with `body`; its status and JSON. */
async function importOverRest(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${gateway.baseURL}/api/tasks/import`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const board = async (): Promise<Task[]> => (await fetch(`${gateway.baseURL}/api/tasks`)).json();

/** The board's tasks with these ids, in that order. */
async function tasksWithIds(ids: number[]): Promise<Task[]> {
  const byId = new Map((await board()).map((task) => [task.id, task]));
  return ids.map((id) => byId.get(id)!);
}

/** Runs `refused` and checks that it left the board exactly as it was. */
async function leavesBoardUnchanged(refused: () => Promise<void>): Promise<void> {
  const before = await board();
  await refused();
  expect(await board()).toEqual(before);
}

test.describe('REST', () => {
  test('rows: every row at the bottom of its column, in order; ids in row order', async () => {
    const todoBefore = (await board()).filter((task) => task.status === 'todo').length;
    const rows = [{ title: 'Row one' }, { title: 'Row two', status: 'done' }, { title: 'Row three', assigneeId: 1 }];
    const { status, json } = await importOverRest({ rows });
    expect(status).toBe(200);
    expect(json).toEqual({ imported: 3, ids: [expect.any(Number), expect.any(Number), expect.any(Number)] });
    expect(await tasksWithIds(json.ids as number[])).toMatchObject([
      { title: 'Row one', status: 'todo', position: todoBefore, assigneeId: null, createdBy: null },
      { title: 'Row two', status: 'done' },
      { title: 'Row three', status: 'todo', position: todoBefore + 1, assigneeId: 1 },
    ]);
  });

  test('csv: columns in any order, quoted fields, CRLF, a BOM, empty cells', async () => {
    const csv = '\uFEFFstatus,title,assigneeId\r\n,"Call Ada, then Alan",3\r\ndone,"Line one\nline two",\r\n';
    const { status, json } = await importOverRest({ csv });
    expect(status).toBe(200);
    expect(await tasksWithIds(json.ids as number[])).toMatchObject([
      { title: 'Call Ada, then Alan', status: 'todo', assigneeId: 3 },
      { title: 'Line one\nline two', status: 'done', assigneeId: null },
    ]);
  });

  test('url: a CSV from an origin in IMPORT_ALLOWED_ORIGINS (loopback)', async () => {
    const { status, json } = await importOverRest({ url: `${csvOrigin}/tasks.csv` });
    expect(status).toBe(200);
    expect(await tasksWithIds(json.ids as number[])).toMatchObject([
      { title: 'From the URL', description: 'with a comma, and "quotes"', status: 'in_progress', assigneeId: 2 },
    ]);
  });

  test('bad rows → 422 { statusCode, message, errors: [{ row, reason }] }, and nothing is imported', async () => {
    await leavesBoardUnchanged(async () => {
      const { status, json } = await importOverRest({ csv: 'title,assigneeId\nFine,\n,\nNobody’s,424242\nToo,many,fields\n' });
      expect(status).toBe(422);
      expect(json).toEqual({
        statusCode: 422,
        isError: true,
        message: '3 rows are not valid tasks (errors says why); nothing was imported',
        errors: [
          { row: 2, reason: expect.stringMatching(/^title: Invalid input: expected string/) },
          { row: 3, reason: 'assigneeId: user 424242 does not exist' },
          { row: 4, reason: 'expected 2 fields, as many as the header names, got 3' },
        ],
      });
      const fromUrl = await importOverRest({ url: `${csvOrigin}/bad.csv` });
      expect(fromUrl.status).toBe(422);
      expect(fromUrl.json.errors).toEqual([{ row: 2, reason: expect.stringMatching(/^status: Invalid option/) }]);
      const unknownColumn = await importOverRest({ csv: 'title,priority\nA,high\n' });
      expect(unknownColumn.status).toBe(422);
      expect(unknownColumn.json.message).toMatch(/Unknown CSV column "priority"/);
    });
  });

  test('400: none or several of rows, csv, url; a URL off IMPORT_ALLOWED_ORIGINS, or redirecting off it', async () => {
    await leavesBoardUnchanged(async () => {
      const none = await importOverRest({});
      expect(none.status).toBe(400);
      expect(none.json.message).toMatch(/Give exactly one of rows, csv or url: got none/);
      const both = await importOverRest({ rows: [{ title: 'A' }], csv: 'title\nB\n' });
      expect(both.status).toBe(400);
      expect(both.json.message).toMatch(/Give exactly one of rows, csv or url: got rows and csv/);
      for (const url of ['http://169.254.169.254/latest/meta-data', `${gateway.baseURL}/api/tasks`, `${csvOrigin}/away`]) {
        const refused = await importOverRest({ url });
        expect(refused.status, url).toBe(400);
        expect(refused.json.message, url).toMatch(/is not allowed: its origin is not listed in IMPORT_ALLOWED_ORIGINS/);
      }
    });
  });

  test('Prefer: respond-async with bad input: the same 400 at once, and no job', async () => {
    await leavesBoardUnchanged(async () => {
      const cases = [
        [{}, /Give exactly one of rows, csv or url: got none/],
        [{ rows: [{ title: 'A' }], url: `${csvOrigin}/tasks.csv` }, /got rows and url/],
        [{ url: 'http://169.254.169.254/latest/meta-data' }, /is not allowed: its origin is not listed in IMPORT_ALLOWED_ORIGINS/],
        [{ url: 'file:///etc/passwd' }, /is not an http\(s\) URL/],
      ] as const;
      for (const [body, why] of cases) {
        const response = await fetch(`${gateway.baseURL}/api/tasks/import`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Prefer: 'respond-async' },
          body: JSON.stringify(body),
        });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(response.headers.get('preference-applied')).toBeNull();
        expect((await response.json()).message).toMatch(why);
      }
    });
  });

  test('the OpenAPI operation: its summary, the body and result schemas, x-task-support (it may run long), Prefer and its 202', async () => {
    const document = await (await fetch(`${gateway.baseURL}/api/openapi.json`)).json();
    const operation = document.paths['/api/tasks/import'].post;
    expect(operation).toMatchObject({ summary: 'Import tasks', 'x-task-support': 'optional' });
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['rows', 'csv', 'url']);
    expect(operation.responses['200'].content['application/json'].schema.required).toEqual(['imported', 'ids']);
    expect(operation.parameters).toEqual([expect.objectContaining({ name: 'Prefer', in: 'header', required: false })]);
    const accepted = operation.responses['202'];
    expect(Object.keys(accepted.headers)).toEqual(['Location', 'Preference-Applied']);
    const job = document.paths['/api/jobs/{id}'].get.responses['200'].content['application/json'].schema;
    expect(accepted.content['application/json'].schema).toEqual(job);
    expect(Object.keys(job.properties)).toEqual(expect.arrayContaining(['id', 'status', 'progress', 'result', 'error']));
    // A procedure that never runs long documents neither.
    const create = document.paths['/api/tasks'].post;
    expect(create.responses).not.toHaveProperty('202');
    expect(create.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Prefer' }));
  });

  test('413 past IMPORT_MAX_ROWS; 502 naming the status of a URL that fails', async () => {
    await leavesBoardUnchanged(async () => {
      const tooMany = await importOverRest({ rows: Array.from({ length: 101 }, (_, index) => ({ title: `T${index}` })) });
      expect(tooMany.status).toBe(413);
      expect(tooMany.json.message).toMatch(/at most 100 rows \(IMPORT_MAX_ROWS\)/);
      const missing = await importOverRest({ url: `${csvOrigin}/nothing-here.csv` });
      expect(missing.status).toBe(502);
      expect(missing.json.message).toBe('The CSV URL answered HTTP 404 Not Found: nothing was imported');
    });
  });
});

for (const era of eras) {
  test.describe(`MCP over ${era}`, () => {
    let client: GatewayClient;
    test.beforeAll(async () => {
      client = await connect(era, gateway.baseURL);
    });
    test.afterAll(async () => client?.close());

    test('tools/list: the tool with its input, outputSchema { imported, ids } and annotations', async () => {
      const tool = (await client.listTools()).find((each) => each.name === 'TaskController_importTasks')!;
      expect(tool.title).toBe('Import tasks');
      expect(tool.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
      expect(tool.inputSchema).toMatchObject({
        properties: {
          body: {
            properties: {
              rows: {
                type: 'array',
                items: { type: 'object', required: ['title'], properties: { status: { enum: ['todo', 'in_progress', 'done'] } } },
              },
              csv: { type: 'string' },
              url: { type: 'string' },
            },
          },
        },
      });
      expect(tool.outputSchema).toMatchObject({
        type: 'object',
        required: ['imported', 'ids'],
        properties: { ids: { type: 'array' } },
      });
    });

    test('rows, csv and url import: structuredContent { imported, ids }, and the tasks are on the board', async () => {
      const sources: Array<[Record<string, unknown>, string]> = [
        [{ rows: [{ title: `MCP row (${era})` }] }, `MCP row (${era})`],
        [{ csv: `title\nMCP csv (${era})\n` }, `MCP csv (${era})`],
        [{ url: `${csvOrigin}/tasks.csv` }, 'From the URL'],
      ];
      for (const [body, title] of sources) {
        const result = await client.callTool('TaskController_importTasks', { body });
        expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
        const structured = result.structuredContent as { imported: number; ids: number[] };
        expect(structured).toEqual({ imported: 1, ids: [expect.any(Number)] });
        expect(JSON.parse(result.content[0].text as string)).toEqual(structured);
        expect((await tasksWithIds(structured.ids))[0].title).toBe(title);
      }
    });

    test('bad rows: isError, the message, then the errors as JSON; nothing is imported', async () => {
      await leavesBoardUnchanged(async () => {
        const rows = [{ title: 'Fine' }, { title: 'x', status: 'later' }];
        const result = await client.callTool('TaskController_importTasks', { body: { rows } });
        expect(result.isError).toBe(true);
        expect(result).not.toHaveProperty('structuredContent');
        const message = 'Row 2 is not a valid task (errors says why); nothing was imported';
        expect(result.content[0]).toEqual({ type: 'text', text: message });
        expect(JSON.parse(result.content[1].text as string)).toEqual({
          errors: [{ row: 2, reason: expect.stringMatching(/^status: Invalid option/) }],
        });
      });
    });

    test('a URL off IMPORT_ALLOWED_ORIGINS, and none of rows, csv, url: isError naming why', async () => {
      await leavesBoardUnchanged(async () => {
        const refused = await client.callTool('TaskController_importTasks', { body: { url: 'http://127.0.0.1:9/tasks.csv' } });
        expect(refused.isError).toBe(true);
        expect(refused.content[0].text).toMatch(/^The CSV URL http:\/\/127\.0\.0\.1:9 is not allowed: .*IMPORT_ALLOWED_ORIGINS/);
        const none = await client.callTool('TaskController_importTasks', { body: {} });
        expect(none.isError).toBe(true);
        expect(none.content[0].text).toMatch(/Give exactly one of rows, csv or url: got none/);
      });
    });
  });
}

test.describe('as a REST job and as an MCP task', () => {
  type Job = { id: string; status: string; result?: unknown; error?: Record<string, unknown> };
  const startJob = async (body: unknown) =>
    (await (
      await fetch(`${gateway.baseURL}/api/tasks/import`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: 'respond-async' },
        body: JSON.stringify(body),
      })
    ).json()) as Job;
  const jobStatus = async (id: string) => ((await (await fetch(`${gateway.baseURL}/api/jobs/${id}`)).json()) as Job).status;
  const slowRows = async () => (await board()).filter((task) => task.title.startsWith('Slow row'));
  /** Waits until the slow CSV is being read (a few rows sent), then, after `cancel`, until its download was dropped. */
  const cancelMidway = async (cancel: () => Promise<void>) => {
    await expect.poll(() => slowDownloads.rowsSent, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await cancel();
    await expect.poll(() => slowDownloads.open, { timeout: 10_000 }).toBe(0);
    expect(slowDownloads.rowsSent).toBeLessThan(50);
    expect(await slowRows()).toEqual([]);
  };

  test('Prefer: respond-async: a job for a URL import, and for rows; its result is the synchronous answer', async () => {
    const fromUrl = await startJob({ url: `${csvOrigin}/tasks.csv` });
    await expect.poll(() => jobStatus(fromUrl.id), { timeout: 10_000 }).toBe('completed');
    const done = (await (await fetch(`${gateway.baseURL}/api/jobs/${fromUrl.id}`)).json()) as Job;
    expect(done.result).toEqual({ imported: 1, ids: [expect.any(Number)] });
    const fromRows = await startJob({ rows: [{ title: 'Job row' }] });
    await expect.poll(() => jobStatus(fromRows.id), { timeout: 10_000 }).toBe('completed');
  });

  test('a job with bad rows ends failed with the 422 body as its error; nothing is imported', async () => {
    await leavesBoardUnchanged(async () => {
      const job = await startJob({ url: `${csvOrigin}/bad.csv` });
      await expect.poll(() => jobStatus(job.id), { timeout: 10_000 }).toBe('failed');
      const failed = (await (await fetch(`${gateway.baseURL}/api/jobs/${job.id}`)).json()) as Job;
      expect(failed.error).toMatchObject({ statusCode: 422, errors: [{ row: 2, reason: expect.stringMatching(/^status/) }] });
    });
  });

  test('DELETE of a running URL import: cancelled, and not one of its rows imported', async () => {
    await leavesBoardUnchanged(async () => {
      const job = await startJob({ url: `${csvOrigin}/slow.csv` });
      await cancelMidway(async () => {
        expect(await jobStatus(job.id)).toBe('working');
        expect((await fetch(`${gateway.baseURL}/api/jobs/${job.id}`, { method: 'DELETE' })).status).toBe(202);
        expect(await jobStatus(job.id)).toBe('cancelled');
      });
    });
  });

  test('MCP (Tasks requester): a URL import runs as a task to its result; inline rows answer at once', async () => {
    const { session, close } = await connectTaskClient(gateway.baseURL);
    try {
      const fromUrl = await session.callTool('TaskController_importTasks', { body: { url: `${csvOrigin}/tasks.csv` } });
      expect(fromUrl.kind).toBe('task');
      const { outcome } = await fromUrl.settle();
      expect((resultFromTaskOutcome(outcome) as { structuredContent?: unknown }).structuredContent).toEqual({ imported: 1, ids: [expect.any(Number)] });
      const inline = await session.callTool('TaskController_importTasks', { body: { rows: [{ title: 'Inline row' }] } });
      expect(inline.kind).toBe('immediate');
    } finally {
      await close();
    }
  });

  test('MCP, the extension declared: a URL off IMPORT_ALLOWED_ORIGINS and refused arguments make no task, but the error result', async () => {
    await leavesBoardUnchanged(async () => {
      const cases = [
        [{ url: 'http://127.0.0.1:9/tasks.csv' }, /The CSV URL http:\/\/127\.0\.0\.1:9 is not allowed: .*IMPORT_ALLOWED_ORIGINS/],
        [{}, /Give exactly one of rows, csv or url: got none/],
      ] as const;
      for (const [body, why] of cases) {
        const { result } = await taskRequest(gateway.baseURL, 'tools/call', { name: 'TaskController_importTasks', arguments: { body } });
        expect(result, JSON.stringify(body)).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(why) }] });
        expect(result).not.toHaveProperty('taskId');
      }
    });
  });

  test('MCP: tasks/cancel of a running URL import: cancelled, nothing imported', async () => {
    await leavesBoardUnchanged(async () => {
      const created = await taskRequest(gateway.baseURL, 'tools/call', {
        name: 'TaskController_importTasks',
        arguments: { body: { url: `${csvOrigin}/slow.csv` } },
      });
      const taskId = String(created.result?.taskId);
      await cancelMidway(async () => {
        expect((await taskRequest(gateway.baseURL, 'tasks/cancel', { taskId })).result?.resultType).toBe('complete');
        expect((await taskRequest(gateway.baseURL, 'tasks/get', { taskId })).result?.status).toBe('cancelled');
      });
    });
  });
});
