// Every tool, through real MCP clients of both eras, against the production server: exact outputs, REST parity.
import { isDeepStrictEqual } from 'node:util';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { connect, eras, type GatewayClient, type ToolResult } from './support/mcp';
import { serverLogFile } from './support/server';

const demoTools = [
  'UserController_getUser',
  'UserController_listUsers',
  'UserController_createUser',
  'UserController_updateUser',
  'UserController_deleteUser',
  'TaskController_listTasks',
  'TaskController_getTask',
  'TaskController_createTask',
  'TaskController_updateTask',
  'TaskController_moveTask',
  'TaskController_deleteTask',
  'TaskController_importTasks',
  'BoardController_getBoard',
  'BoardController_waitForChange',
  'MediaController_getImage',
  'MediaController_getAudio',
  'MediaController_getAudioFromURL',
  'TextController_getGreeting',
  'TextController_getFeed',
  'AnnotatedController_getAnnotatedImage',
  'sum_numbers',
];

type RestGet = (path: string) => Promise<Response>;
const asset = (name: string) => fs.readFileSync(`public/media/${name}`).toString('base64');
const restBase64 = async (rest: RestGet, path: string) => Buffer.from(await (await rest(path)).arrayBuffer()).toString('base64');
const annotations = { audience: ['user'], priority: 0.8 };
const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });
/** The output of a JSON tool whose REST twin answers `path`: text + structuredContent (an array under `items`). */
const restJson = async (rest: RestGet, path: string): Promise<ToolResult> => {
  const body = await (await rest(path)).json();
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: Array.isArray(body) ? { items: body } : body };
};

/** For each tool: the calls made and the exact output expected, computed from REST or the app's own files. */
const expectations: Record<string, (rest: RestGet) => Promise<Array<[Record<string, unknown>, ToolResult]>>> = {
  UserController_getUser: async (rest) => {
    const user = await (await rest('/api/users/1')).json();
    return [
      [{ params: { id: 1 } }, { content: [{ type: 'text', text: JSON.stringify(user) }], structuredContent: user }],
      [{ params: { id: '1' } }, { content: [{ type: 'text', text: JSON.stringify(user) }], structuredContent: user }],
      [{ params: { id: 999 } }, { content: [{ type: 'text', text: 'User 999 not found' }], isError: true }],
    ];
  },
  UserController_listUsers: async (rest) => {
    const users = await (await rest('/api/users')).json();
    return [[{}, { content: [{ type: 'text', text: JSON.stringify(users) }], structuredContent: { items: users } }]];
  },
  // This server's data stays as seeded (other specs rely on it): the writing tools are called here only on their refusal
  // paths; e2e/board.spec.ts drives them to success against servers of its own.
  UserController_createUser: async () => [
    [{ body: { name: 'Ada again', email: 'ada@example.com' } }, failure('A user with email ada@example.com already exists')],
  ],
  UserController_updateUser: async () => [
    [{ params: { id: 424242 }, body: { name: 'Nobody' } }, failure('User 424242 not found')],
    [{ params: { id: 2 }, body: { email: 'ada@example.com' } }, failure('A user with email ada@example.com already exists')],
  ],
  UserController_deleteUser: async () => [[{ params: { id: 424242 } }, failure('User 424242 not found')]],
  TaskController_listTasks: async (rest) => [
    [{}, await restJson(rest, '/api/tasks')],
    [{ query: { status: 'done', assigneeId: 1 } }, await restJson(rest, '/api/tasks?status=done&assigneeId=1')],
  ],
  TaskController_getTask: async () => [[{ params: { id: 424242 } }, failure('Task 424242 not found')]],
  TaskController_completeTaskId: async (rest) => [[{ query: { value: '1' } }, await restJson(rest, '/api/tasks/id-completions?value=1')]],
  TaskController_createTask: async () => [
    [
      { body: { title: 'Orphan', assigneeId: 424242 } },
      failure('User 424242 not found: a task can only be assigned to an existing user'),
    ],
  ],
  TaskController_updateTask: async () => [[{ params: { id: 424242 }, body: { title: 'x' } }, failure('Task 424242 not found')]],
  TaskController_moveTask: async () => [[{ params: { id: 424242 }, body: { status: 'done' } }, failure('Task 424242 not found')]],
  TaskController_deleteTask: async () => [[{ params: { id: 424242 } }, failure('Task 424242 not found')]],
  // This server allows no import URL (IMPORT_ALLOWED_ORIGINS is empty); e2e/task-import.spec.ts imports on its own.
  TaskController_importTasks: async () => [
    [
      { body: { rows: [{ title: 'Assigned to nobody', assigneeId: 424242 }] } },
      {
        content: [
          { type: 'text', text: 'Row 1 is not a valid task (errors says why); nothing was imported' },
          { type: 'text', text: JSON.stringify({ errors: [{ row: 1, reason: 'assigneeId: user 424242 does not exist' }] }) },
        ],
        isError: true,
      },
    ],
    [
      { body: { url: 'http://127.0.0.1:9/tasks.csv' } },
      failure('The CSV URL http://127.0.0.1:9 is not allowed: its origin is not listed in IMPORT_ALLOWED_ORIGINS (it is empty)'),
    ],
  ],
  BoardController_getBoard: async (rest) => [[{}, await restJson(rest, '/api/board')]],
  // Without `after` it answers the board at once, with its version (e2e/board-changes.spec.ts waits for changes).
  BoardController_waitForChange: async (rest) => [[{}, await restJson(rest, '/api/board/changes')]],
  MediaController_getImage: async (rest) => [
    [{}, { content: [{ type: 'image', data: await restBase64(rest, '/api/media/image'), mimeType: 'image/png' }] }],
  ],
  MediaController_getAudio: async (rest) => [
    [{}, { content: [{ type: 'audio', data: await restBase64(rest, '/api/media/audio'), mimeType: 'audio/mpeg' }] }],
  ],
  MediaController_getAudioFromURL: async (rest) => [
    [{}, { content: [{ type: 'audio', data: await restBase64(rest, '/media/sample.mp3'), mimeType: 'audio/mpeg' }] }],
    [{ query: {} }, { content: [{ type: 'audio', data: asset('sample.mp3'), mimeType: 'audio/mpeg' }] }],
  ],
  TextController_getGreeting: async () => [[{}, { content: [{ type: 'text', text: 'Hello, world!' }] }]],
  TextController_getFeed: async (rest) => [[{}, { content: [{ type: 'text', text: await (await rest('/api/text/feed')).text() }] }]],
  AnnotatedController_getAnnotatedImage: async () => [
    [{}, { content: [{ type: 'image', data: asset('sample.jpg'), mimeType: 'image/jpeg', annotations }] }],
  ],
  sum_numbers: async () => [[{ a: 2, b: 3.5 }, { content: [{ type: 'text', text: '5.5' }] }]],
  FixtureController_getProblem: async (rest) => [
    [{}, { content: [{ type: 'text', text: await (await rest('/api/fixture/problem')).text() }], isError: true }],
  ],
  FixtureController_getVndJson: async () => [
    [
      {},
      {
        content: [{ type: 'text', text: '{"data":{"type":"users","id":"1"}}' }],
        structuredContent: { data: { type: 'users', id: '1' } },
      },
    ],
  ],
  FixtureController_getDecorated: async () => [
    [{ params: { id: 1 } }, { content: [{ type: 'text', text: 'The fixture key is missing' }], isError: true }],
  ],
  // Small answers fit the result budget as they are (e2e/result-budget.spec.ts calls them over it).
  FixtureController_getBigList: async (rest) => {
    const rows = await (await rest('/api/fixture/big-list?count=3')).json();
    return [[{ query: { count: 3 } }, { content: [{ type: 'text', text: JSON.stringify(rows) }], structuredContent: { items: rows } }]];
  },
  FixtureController_getBigReport: async () => [[{ query: { words: 2 } }, { content: [{ type: 'text', text: '# Report\n\nword word ' }] }]],
  FixtureController_getPdf: async () => [
    [{}, { content: [{ type: 'text', text: 'Unsupported response content type application/pdf' }], isError: true }],
  ],
  // A client that declares no tasks extension gets the answer within the call (e2e/tasks.spec.ts runs it as a task).
  FixtureController_countSlowly: async () => [
    [{ body: { to: 2, stepMs: 0 } }, { content: [{ type: 'text', text: '{"counted":2}' }], structuredContent: { counted: 2 } }],
  ],
  // A plain client cannot be asked: the fixture says so instead of asking (e2e/explorer.spec.ts answers its questions).
  FixtureController_askAbout: async () => [
    [{}, { content: [{ type: 'text', text: '{"action":"not asked"}' }], structuredContent: { action: 'not asked' } }],
  ],
  FixtureController_getOverridden: async () => [
    [
      {},
      {
        content: [{ type: 'text', text: 'A short summary for the model', annotations: { audience: ['assistant'], priority: 0.2 } }],
        structuredContent: { summary: 'short' },
      },
    ],
  ],
};

for (const era of eras) {
  test.describe(`MCP over ${era}`, () => {
    let client: GatewayClient;
    test.beforeAll(async ({ baseURL }) => {
      client = await connect(era, baseURL!);
    });
    test.afterAll(async () => client?.close());

    test('[R01][R24] tools/list serves every registered procedure and the standalone tool, with titles and descriptions', async () => {
      const tools = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(demoTools));
      const getUser = tools.find((tool) => tool.name === 'UserController_getUser')!;
      expect(getUser.title).toBe('Get user');
      expect(getUser.description).toMatch(/^Get user\n.*404/s);
      expect(getUser._meta?.['dev.vovk/rest']).toEqual({ method: 'GET', path: '/api/users/{id}' });
      const listUsers = tools.find((tool) => tool.name === 'UserController_listUsers')!;
      expect(listUsers._meta?.['dev.vovk/rest']).toEqual({ method: 'GET', path: '/api/users' });
      expect(tools.find((tool) => tool.name === 'sum_numbers')!._meta?.['dev.vovk/rest']).toBeUndefined();
    });

    test('[R25] inputSchema is the JSON Schema of the procedure, as registered (params/query/body slots, described)', async () => {
      const tools = await client.listTools();
      const getUser = tools.find((tool) => tool.name === 'UserController_getUser')!;
      expect(getUser.inputSchema).toMatchObject({
        type: 'object',
        required: ['params'],
        properties: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
      });
      const fromUrl = tools.find((tool) => tool.name === 'MediaController_getAudioFromURL')!;
      expect(fromUrl.inputSchema).toMatchObject({ required: [], properties: { query: { properties: { url: { type: 'string' } } } } });
      const sum = tools.find((tool) => tool.name === 'sum_numbers')!;
      expect(sum.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' } } });
    });

    test('tools/list: annotations follow the HTTP method, with per-procedure overrides', async () => {
      const tools = Object.fromEntries((await client.listTools()).map((tool) => [tool.name, tool]));
      const deleting = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
      expect(tools.UserController_getUser.annotations).toEqual({ readOnlyHint: true });
      expect(tools.MediaController_getImage.annotations).toEqual({ readOnlyHint: true });
      expect(tools.TaskController_deleteTask.annotations).toEqual(deleting);
      expect(tools.UserController_deleteUser.annotations).toEqual(deleting);
      expect(tools.TaskController_updateTask.annotations).toEqual({ readOnlyHint: false });
      // PUT and POST, each with `x-tool-annotations: { destructiveHint: false }` on its @operation
      expect(tools.TaskController_moveTask.annotations).toEqual({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
      expect(tools.TaskController_createTask.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
      expect(tools.TaskController_importTasks.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
      expect(tools.sum_numbers.annotations).toEqual({ readOnlyHint: true }); // declared by the standalone tool
    });

    test('tools/list: JSON tools declare their outputSchema (arrays as { items }), others none; the stream is no tool', async () => {
      const tools = Object.fromEntries((await client.listTools()).map((tool) => [tool.name, tool]));
      expect(tools.UserController_getUser.outputSchema).toMatchObject({
        type: 'object',
        required: ['id', 'name', 'email', 'role', 'createdAt'],
        properties: { id: { type: 'integer' }, role: { enum: ['admin', 'member'] } },
      });
      for (const name of ['UserController_listUsers', 'TaskController_listTasks']) {
        expect(tools[name].outputSchema, name).toMatchObject({
          type: 'object',
          required: ['items'],
          properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } },
        });
      }
      expect(tools.TaskController_moveTask.outputSchema).toMatchObject({
        properties: { status: { enum: ['todo', 'in_progress', 'done'] }, assigneeId: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
      });
      expect(tools.BoardController_getBoard.outputSchema).toMatchObject({ type: 'object', required: ['columns', 'users'] });
      for (const name of ['MediaController_getImage', 'TextController_getGreeting', 'FixtureController_getVndJson', 'sum_numbers']) {
        expect(tools[name].outputSchema, name).toBeUndefined();
      }
      expect(Object.keys(tools)).not.toContain('BoardController_streamBoard');
    });

    test('the client checks structuredContent against the outputSchema: a reply changed on the way is refused', async ({ baseURL }) => {
      const tampered = await connect(era, baseURL!, {
        tamper: ({ result }) => {
          const structured = result?.structuredContent as { role?: string; items?: unknown[] } | undefined;
          if (structured?.role) structured.role = 'pirate';
          structured?.items?.push({ id: 'not a user' });
        },
      });
      try {
        await tampered.listTools();
        await expect(tampered.callTool('UserController_getUser', { params: { id: 1 } })).rejects.toThrow(/structured content/i);
        await expect(tampered.callTool('UserController_listUsers')).rejects.toThrow(/structured content/i);
        await client.listTools();
        expect((await client.callTool('UserController_getUser', { params: { id: 1 } })).structuredContent).toMatchObject({ role: 'admin' });
      } finally {
        await tampered.close();
      }
    });

    test('[R01][R04][R06][R10][R11][R12][R13][R14][R15][R16][R21][R28][R29] every tool answers with the exact output', async ({ request }) => {
      const rest: RestGet = async (path) => {
        const response = await request.get(path);
        return new Response(new Uint8Array(await response.body()), { status: response.status(), headers: response.headers() });
      };
      const names = (await client.listTools()).map((tool) => tool.name);
      // The Vovk-style fixtures (src/testing/vovk-styles) are compared with REST, style by style, in vovk-styles.spec.ts.
      const comparedElsewhere = (name: string) => /^[A-Za-z]+StyleController_/.test(name);
      const untested = names.filter((name) => !(name in expectations) && name !== 'FixtureController_throwError' && !comparedElsewhere(name));
      expect(untested, 'every listed tool has an expected output').toEqual([]);
      // Other specs write to this shared server meanwhile: a result that differs from what REST said just before is
      // compared again with a fresh REST read (a real mismatch differs every time).
      for (const name of names.filter((name) => name in expectations)) {
        const cases = await expectations[name](rest);
        for (const [index, [args, firstExpected]] of cases.entries()) {
          let [actual, expected] = [await client.callTool(name, args), firstExpected];
          for (let attempt = 0; attempt < 2 && !isDeepStrictEqual(actual, expected); attempt++) {
            expected = (await expectations[name](rest))[index][1];
            actual = await client.callTool(name, args);
          }
          expect(actual, `${name}(${JSON.stringify(args)})`).toEqual(expected);
        }
      }
    });

    test('[R05][R07][R17] +json success, +json error status and an unsupported type, through the real server', async () => {
      expect((await client.callTool('FixtureController_getVndJson')).structuredContent).toEqual({ data: { type: 'users', id: '1' } });
      const problem = await client.callTool('FixtureController_getProblem');
      expect(problem.isError).toBe(true);
      expect(problem).not.toHaveProperty('structuredContent');
      expect((await client.callTool('FixtureController_getPdf')).content[0].text).toBe(
        'Unsupported response content type application/pdf',
      );
    });

    test('[R08][R09] a thrown error is masked in production, and logged with the id the output carries', async () => {
      const result = await client.callTool('FixtureController_throwError');
      expect(result.content).toEqual([{ type: 'text', text: 'Internal server error' }]);
      expect(result.isError).toBe(true);
      expect(result).not.toHaveProperty('structuredContent');
      expect(JSON.stringify(result)).not.toContain('hunter2');
      const errorId = (result._meta as { errorId: string }).errorId;
      await expect.poll(() => fs.readFileSync(serverLogFile, 'utf8')).toContain(errorId);
      const logLine = fs.readFileSync(serverLogFile, 'utf8').split('\n').find((line) => line.includes(errorId));
      expect(logLine).toContain('hunter2');
    });

    test('[R09] an HttpException keeps its message in production', async () => {
      expect(await client.callTool('UserController_getUser', { params: { id: 424242 } })).toEqual({
        content: [{ type: 'text', text: 'User 424242 not found' }],
        isError: true,
      });
    });

    test('invalid arguments are an isError result with the reason, not a crash', async () => {
      const wrongType = await client.callTool('UserController_getUser', { params: { id: 'abc' } });
      expect(wrongType.isError).toBe(true);
      expect(wrongType.content[0].text).toMatch(/id/);
      const missing = await client.callTool('sum_numbers', { a: 1 });
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toMatch(/b/);
    });

    test('getAudioFromURL refuses URLs outside the allowed origins and API routes with a clear error', async ({ baseURL }) => {
      for (const url of ['http://169.254.169.254/latest/meta-data', 'file:///etc/passwd', `${baseURL}/api/users`]) {
        const result = await client.callTool('MediaController_getAudioFromURL', { query: { url } });
        expect(result.isError, url).toBe(true);
        expect(result.content[0].text, url).toMatch(/not allowed|Not an http/);
      }
    });
  });
}
