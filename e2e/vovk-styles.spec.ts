// Every procedure written the way Vovk's docs teach is an MCP tool that answers what REST answers (issue 35): one that
// reads the request itself (json, text, nextUrl, url, method, headers, cookies), JSONLines streams (an `iteration`
// generator, a JSONLinesResponder, failing ones), valibot and arktype schemas, a multipart upload, plain static
// methods, a second segment and an edge one — in both protocol eras, directly, through call_tool and in a code-mode
// program.
// Streams send each item as progress, stop their generator when the call is cancelled, and are cut (with a note) by
// MCP_STREAM_MAX_ITEMS.
import fs from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { selectingURL, throughCallTool } from './support/catalogue';
import { connect, type Era, eras, type GatewayClient, type Progress, type ToolResult, using } from './support/mcp';
import { e2ePort, type RunningServer, startServer, stoppedAfterAll } from './support/server';

/** The server of this spec: the test build with a small stream bound, so that a cut costs nothing. */
let server: RunningServer;
const MAX_ITEMS = 50;
const LOG = 'test-results/vovk-styles-server.log';
const kept = stoppedAfterAll();

/** The cookie every request of this spec carries (the echo procedure reads it), REST and MCP alike. */
const COOKIE = { cookie: 'flavour=oat' };

const REST_META_KEY = 'dev.vovk/rest';
type Route = { method: string; path: string };

/** Every tool of the catalogue as tools/list shows it (2026-07-28 client), by name. */
let listed: Map<string, Awaited<ReturnType<GatewayClient['listTools']>>[number]>;

test.beforeAll(async () => {
  server = kept(await startServer(e2ePort + 330, { MCP_STREAM_MAX_ITEMS: String(MAX_ITEMS) }, LOG));
  await using(connect(eras[1], server.baseURL), async (client) => {
    listed = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
  });
});

type ToolArgs = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** One procedure called one way: its tool and arguments (REST gets the same at the tool's route, `body` as JSON). */
interface Row {
  style: string;
  tool: string;
  args: ToolArgs;
  /** Whether REST answers it as JSON Lines. */
  stream?: boolean;
  /** The REST request when it is not the default one (a multipart form). */
  rest?: (url: string) => Promise<Response>;
}

const UPLOADED = 'Hello, file!\nA second line.\n';
const USER_ID = randomUUID();

const rows: Row[] = [
  {
    style: 'a procedure reading req.json(), text(), arrayBuffer(), nextUrl, url, method, Content-Type, a cookie',
    tool: 'HelloStyleController_echoRequest',
    args: {
      params: { id: USER_ID },
      query: { q: 'hi there & more', lang: 'fr' },
      body: { greeting: 'Bonjour, ça va', times: 2 },
    },
  },
  {
    style: 'a JSONLines stream: an async generator with an iteration schema',
    tool: 'StreamStyleController_streamTicks',
    args: { query: { count: 4, delayMs: 10 } },
    stream: true,
  },
  {
    style: 'a stream whose generator records its run',
    tool: 'StreamStyleController_streamTicks',
    args: { query: { count: 3, run: `whole-${randomUUID()}` } },
    stream: true,
  },
  {
    style: 'a generator that throws mid-way',
    tool: 'StreamStyleController_streamTicks',
    args: { query: { count: 5, fail: 'throw' } },
    stream: true,
  },
  {
    style: 'a generator whose third item its iteration schema refuses',
    tool: 'StreamStyleController_streamTicks',
    args: { query: { count: 5, fail: 'invalid' } },
    stream: true,
  },
  {
    style: 'a JSONLinesResponder fed by a void async IIFE',
    tool: 'StreamStyleController_streamWords',
    args: { query: { words: 'alpha beta gamma' } },
    stream: true,
  },
  // REST sends the error line's reason (`{ isError, reason }`); the tool must say the same, not mask it.
  {
    style: 'a JSONLinesResponder that throws mid-way (responder.throw)',
    tool: 'StreamStyleController_streamWords',
    args: { query: { words: 'alpha boom gamma' } },
    stream: true,
  },
  {
    style: 'valibot schemas (body, params, query, output)',
    tool: 'ValibotStyleController_updateUser',
    args: {
      params: { id: USER_ID },
      query: { notify: 'push' },
      body: { name: 'Ada', age: 36, email: 'a@example.org' },
    },
  },
  {
    style: 'arktype schemas (body, params, query, output), in the second segment (/api/static)',
    tool: 'ArktypeStyleController_updateUser',
    args: {
      params: { id: USER_ID },
      query: { notify: 'email' },
      body: { name: 'Grace', age: 45, email: 'g@example.org' },
    },
  },
  {
    style: 'a multipart upload (z.file()) read back from req.formData()',
    tool: 'UploadStyleController_uploadFile',
    args: {
      body: {
        file: { data: Buffer.from(UPLOADED).toString('base64'), name: 'notes.txt', mimeType: 'text/plain' },
        note: 'for the record',
      },
    },
    rest: (url) => {
      const form = new FormData();
      form.append('file', new File([UPLOADED], 'notes.txt', { type: 'text/plain' }));
      form.append('note', 'for the record');
      return fetch(url, { method: 'POST', body: form, headers: COOKIE });
    },
  },
  { style: 'a plain static GET method', tool: 'PlainStyleController_getHello', args: {} },
  {
    style: 'a plain static POST method reading req.json() (free-form body and query)',
    tool: 'PlainStyleController_postHello',
    args: { body: { greeting: 'Hi' }, query: { from: 'e2e' } },
  },
  {
    style: 'a plain static method reading its path parameter from the second argument',
    tool: 'PlainStyleController_getWord',
    args: { params: { word: 'vovk' } },
  },
  {
    style: 'a procedure of the edge segment (/api/edge)',
    tool: 'EdgeStyleController_shout',
    args: { params: { word: 'hey' }, query: { times: 2 }, body: { text: 'hello' } },
  },
  {
    style: 'an error (422) of the edge segment',
    tool: 'EdgeStyleController_shout',
    args: { params: { word: 'quiet' }, body: { text: 'shh' } },
  },
];

/** The REST route a tool advertises in its `_meta`. */
const routeOf = (tool: string) => listed.get(tool)?._meta?.[REST_META_KEY] as Route;

/** The URL of a call of `route` with `args`: its `{name}` segments from `params`, `query` as the query string. */
function restUrl(route: Route, args: ToolArgs): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(args.params?.[name])));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(args.query ?? {})) search.append(name, String(value));
  return `${server.baseURL}${path}${search.size ? `?${search}` : ''}`;
}

/** What a tool result must hold, read from the REST answer: a JSON value, a stream's items, or an error's message. */
type Expected = { value: unknown } | { items: unknown[] } | { error: string };

/** REST's answer to `row` (status, and what the tool result must agree with). */
async function restAnswer(row: Row): Promise<{ status: number; expected: Expected }> {
  const route = routeOf(row.tool);
  const url = restUrl(route, row.args);
  const response = row.rest
    ? await row.rest(url)
    : await fetch(url, {
        method: route.method,
        headers: { ...COOKIE, ...(row.args.body !== undefined && { 'content-type': 'application/json' }) },
        body: row.args.body === undefined ? undefined : JSON.stringify(row.args.body),
      });
  const text = await response.text();
  if (response.status >= 400) return { status: response.status, expected: { error: JSON.parse(text).message } };
  if (!row.stream) return { status: response.status, expected: { value: JSON.parse(text) } };
  const lines = text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  const last = lines.at(-1);
  return { status: response.status, expected: last?.isError === true ? { error: last.reason } : { items: lines } };
}

/**
 * A tool result agrees with REST: the same JSON as its text and structuredContent (a stream's items: an array, and
 * `{ items }`), or isError with REST's message.
 */
function expectAgreement(result: ToolResult, expected: Expected, how: string): void {
  if ('error' in expected) {
    expect.soft(result, how).toMatchObject({ isError: true, content: [{ type: 'text', text: expected.error }] });
    expect.soft(result, how).not.toHaveProperty('structuredContent');
    return;
  }
  const value = 'items' in expected ? expected.items : expected.value;
  expect.soft(result.isError ?? false, how).toBe(false);
  expect.soft(result.content, how).toHaveLength(1);
  expect.soft(JSON.parse(String(result.content[0].text)), how).toEqual(value);
  expect.soft(result.structuredContent, how).toEqual('items' in expected ? { items: value } : value);
}

/** What `await tools.X(args)` comes to in a program: the value (a stream's items as an array), or the error message. */
function programOutcome(expected: Expected) {
  if ('error' in expected) return { ok: false, message: expected.error };
  return { ok: true, value: 'items' in expected ? expected.items : expected.value };
}

/** Runs `code` through `execute` on a code-surface client; a failed program's text is thrown. */
async function execute(client: GatewayClient, code: string): Promise<unknown> {
  const answer = await client.callTool('execute', { code });
  if (answer.isError) throw new Error(String(answer.content[0]?.text));
  return (answer.structuredContent as { result: unknown }).result;
}

/** The ways into one era's catalogue: every tool listed, the search surface (call_tool), the code surface (execute). */
async function clientsOf(era: Era) {
  const headers = COOKIE;
  return {
    direct: await connect(era, server.baseURL, { headers }),
    search: await connect(era, selectingURL(server.baseURL, { tools: 'search' }), { headers }),
    code: await connect(era, selectingURL(server.baseURL, { tools: 'code' }), { headers }),
  };
}

test('tools/list: each style is a tool at its real REST route (segments too); an octet-stream body is left out', () => {
  const routes: Record<string, Route> = {
    HelloStyleController_echoRequest: { method: 'POST', path: '/api/vovk-styles/hello/echo/{id}' },
    StreamStyleController_streamTicks: { method: 'GET', path: '/api/vovk-styles/streams/ticks' },
    StreamStyleController_streamWords: { method: 'GET', path: '/api/vovk-styles/streams/words' },
    ValibotStyleController_updateUser: { method: 'POST', path: '/api/vovk-styles/valibot/users/{id}' },
    ArktypeStyleController_updateUser: { method: 'POST', path: '/api/static/vovk-styles/arktype/users/{id}' },
    UploadStyleController_uploadFile: { method: 'POST', path: '/api/vovk-styles/upload/files' },
    PlainStyleController_getHello: { method: 'GET', path: '/api/vovk-styles/basic/greeting' },
    PlainStyleController_postHello: { method: 'POST', path: '/api/vovk-styles/basic/greeting' },
    PlainStyleController_getWord: { method: 'GET', path: '/api/vovk-styles/basic/words/{word}' },
    EdgeStyleController_shout: { method: 'POST', path: '/api/edge/vovk-styles/shout/{word}' },
  };
  for (const [tool, route] of Object.entries(routes)) expect(routeOf(tool), tool).toEqual(route);
  // Hidden by `@operation.tool({ hidden: true })`, as any procedure can be; left out because its body cannot be sent.
  expect(listed.has('StreamStyleController_getRun')).toBe(false);
  expect(listed.has('FixtureController_postRawBytes')).toBe(false);
  const why = 'its body is application/octet-stream, which tool arguments cannot carry';
  const line = `[gateway] FixtureController_postRawBytes (POST /api/fixture/raw-bytes) is not an MCP tool: ${why}`;
  expect(fs.readFileSync(LOG, 'utf8')).toContain(line);
});

test('tools/list: valibot and arktype list real JSON Schemas as zod does; a file is base64; a stream has items', () => {
  for (const tool of ['ValibotStyleController_updateUser', 'ArktypeStyleController_updateUser']) {
    const { inputSchema, outputSchema } = listed.get(tool)!;
    const slots = expect.arrayContaining(['body', 'params', 'query']);
    expect(inputSchema, tool).toMatchObject({ type: 'object', required: slots });
    const { body, params, query } = inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(body, tool).toMatchObject({
      type: 'object',
      description: 'The user',
      properties: {
        name: { type: 'string', minLength: 2, description: 'Full name' },
        age: { type: 'integer', minimum: 0, maximum: 120, description: 'Age in years' },
        email: { type: 'string', format: 'email', description: 'Email address' },
      },
      required: expect.arrayContaining(['name', 'age', 'email']),
    });
    expect(params, tool).toMatchObject({ type: 'object', properties: { id: { format: 'uuid' } }, required: ['id'] });
    expect(JSON.stringify(query.properties), tool).toMatch(/"email".*"push".*"none"|"email".*"none".*"push"/);
    expect(outputSchema, tool).toMatchObject({
      type: 'object',
      description: 'What was updated',
      properties: { success: { type: 'boolean', description: 'Whether it worked' }, name: { type: 'string' } },
      required: expect.arrayContaining(['success', 'id', 'name', 'notify']),
    });
  }
  const echo = listed.get('HelloStyleController_echoRequest')!;
  expect(echo.inputSchema).toMatchObject({ required: expect.arrayContaining(['body', 'params', 'query']) });
  expect(echo.outputSchema).toMatchObject({ type: 'object', properties: { url: { type: 'string' } } });

  const { properties } = listed.get('UploadStyleController_uploadFile')!.inputSchema;
  expect((properties as Record<string, unknown>).body).toMatchObject({
    properties: {
      file: { type: 'object', properties: { data: { type: 'string', contentEncoding: 'base64' } }, required: ['data'] },
      note: { type: 'string' },
    },
  });
  const tick = { type: 'object', properties: { n: { type: 'integer' }, message: { type: 'string' } } };
  expect(listed.get('StreamStyleController_streamTicks')!.outputSchema).toMatchObject({
    type: 'object',
    properties: { items: { type: 'array', items: tick } },
    required: ['items'],
  });
  // Plain methods without procedure(): free-form slots, the path parameter named.
  expect(listed.get('PlainStyleController_getWord')!.inputSchema).toMatchObject({
    properties: { params: { required: ['word'] } },
    required: ['params'],
  });
  const postHello = listed.get('PlainStyleController_postHello')!.inputSchema.properties as object;
  expect(Object.keys(postHello).sort()).toEqual(['body', 'query']);
});

test('the REST answers the rows are checked against are what each style answers', async () => {
  const answers = new Map<string, { status: number; expected: Expected }>();
  for (const row of rows) answers.set(row.style, await restAnswer(row));
  const of = (style: string) => answers.get(style)!;
  expect(of(rows[0].style)).toEqual({
    status: 200,
    expected: {
      value: {
        id: USER_ID,
        body: { greeting: 'Bonjour, ça va', times: 2 },
        raw: '{"greeting":"Bonjour, ça va","times":2}',
        bytes: 40,
        q: 'hi there & more',
        lang: 'fr',
        pathname: `/api/vovk-styles/hello/echo/${USER_ID}`,
        url: `${server.baseURL}/api/vovk-styles/hello/echo/${USER_ID}?q=hi+there+%26+more&lang=fr`,
        method: 'POST',
        contentType: 'application/json',
        flavour: 'oat',
      },
    },
  });
  expect(of('a JSONLines stream: an async generator with an iteration schema').expected).toEqual({
    items: [1, 2, 3, 4].map((n) => ({ n, message: `tick ${n} of 4` })),
  });
  const failure = (error: unknown) => ({ status: 200, expected: { error } });
  expect(of('a JSONLinesResponder that throws mid-way (responder.throw)')).toEqual(failure('The word at 1 blew up'));
  expect(of('a generator that throws mid-way')).toEqual(failure('The stream broke after 2 ticks'));
  const refusedItem = expect.stringMatching(/^Validation failed. Invalid iteration #2/);
  expect(of('a generator whose third item its iteration schema refuses')).toEqual(failure(refusedItem));
  const sha256 = createHash('sha256').update(UPLOADED).digest('hex');
  expect(of('a multipart upload (z.file()) read back from req.formData()').expected).toEqual({
    value: { name: 'notes.txt', size: Buffer.byteLength(UPLOADED), type: 'text/plain', sha256, note: 'for the record' },
  });
  expect(of('a procedure of the edge segment (/api/edge)').expected).toEqual({
    value: { word: 'hey', shouted: 'HELLO! HELLO!', pathname: '/api/edge/vovk-styles/shout/hey' },
  });
  expect(of('arktype schemas (body, params, query, output), in the second segment (/api/static)')).toEqual({
    status: 200,
    expected: { value: { success: true, id: USER_ID, name: 'Grace', notify: 'email' } },
  });
  const quiet = { status: 422, expected: { error: 'Quiet words are not shouted' } };
  expect(of('an error (422) of the edge segment')).toEqual(quiet);
});

test('the edge segment is built for the edge runtime; the MCP route that serves it as tools, for Node', () => {
  const manifest = JSON.parse(fs.readFileSync('.next-test/server/middleware-manifest.json', 'utf8'));
  const onTheEdge = Object.keys(manifest.functions as object);
  expect(onTheEdge).toContain('/api/edge/[[...vovk]]/route');
  expect(onTheEdge).not.toContain('/api/mcp/route');
  expect(onTheEdge).not.toContain('/api/static/[[...vovk]]/route');
});

for (const era of eras) {
  test(`${era}: each style answers over MCP what REST answers: directly, through call_tool, as tools.X()`, async () => {
    const clients = await clientsOf(era);
    try {
      const program: Array<[string, ToolArgs]> = [];
      const outcomes: unknown[] = [];
      for (const row of rows) {
        const { expected } = await restAnswer(row);
        expectAgreement(await clients.direct.callTool(row.tool, row.args), expected, `${row.style}: direct`);
        expectAgreement(await throughCallTool(clients.search, row.tool, row.args), expected, `${row.style}: call_tool`);
        program.push([row.tool, row.args]);
        outcomes.push(programOutcome(expected));
      }
      const code = `
        const outcomes = [];
        for (const [name, args] of ${JSON.stringify(program)}) {
          try { outcomes.push({ ok: true, value: await tools[name](args) }) }
          catch (error) { outcomes.push({ ok: false, message: error.message }) }
        }
        return outcomes;`;
      const results = (await execute(clients.code, code)) as unknown[];
      rows.forEach((row, index) => expect.soft(results[index], `${row.style}: code mode`).toEqual(outcomes[index]));
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  });

  test(`${era}: bad arguments are refused alike by zod, valibot and arktype (REST 400, isError)`, async () => {
    const update = (id: string, notify: string, changes: Record<string, unknown> = {}) => ({
      params: { id },
      query: { notify },
      body: { name: 'Ada', age: 36, email: 'ada@example.org', ...changes },
    });
    const echo = { params: { id: 'not-a-uuid' }, query: { q: 'x' }, body: { greeting: 'Hi' } };
    const bad: Array<[string, ToolArgs, RegExp]> = [
      ['HelloStyleController_echoRequest', echo, /params\.id/],
      ['ValibotStyleController_updateUser', update(USER_ID, 'push', { age: 200 }), /body\.age/],
      ['ValibotStyleController_updateUser', update('not-a-uuid', 'push'), /params\.id/],
      ['ArktypeStyleController_updateUser', update(USER_ID, 'loud'), /query\.notify/],
      ['ArktypeStyleController_updateUser', update(USER_ID, 'email', { name: 'A' }), /body\.name/],
    ];
    const clients = await clientsOf(era);
    try {
      for (const [tool, args, names] of bad) {
        const how = `${tool} ${JSON.stringify(args)}`;
        expect((await restAnswer({ style: how, tool, args })).status, how).toBe(400);
        const text = expect.stringMatching(new RegExp(`^Input validation error: .*${names.source}`));
        const refusal = { isError: true, content: [{ type: 'text', text }] };
        expect(await clients.direct.callTool(tool, args), `${how}: direct`).toMatchObject(refusal);
        expect(await throughCallTool(clients.search, tool, args), `${how}: call_tool`).toMatchObject(refusal);
        const code = `try { await tools.${tool}(${JSON.stringify(args)}); return 'ran' }
          catch (error) { return error.message }`;
        const refused = new RegExp(`^Invalid arguments for tool ${tool}: .*${names.source}`);
        expect(await execute(clients.code, code), `${how}: code mode`).toMatch(refused);
      }
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  });

  test(`${era}: a stream sends each item as a progress notification, directly and through call_tool`, async () => {
    const clients = await clientsOf(era);
    try {
      const tool = 'StreamStyleController_streamTicks';
      const args = { query: { count: 5, delayMs: 20 } };
      const items = [1, 2, 3, 4, 5].map((n) => ({ n, message: `tick ${n} of 5` }));
      type Listener = (progress: Progress) => void;
      for (const [how, call] of [
        ['direct', (onprogress: Listener) => clients.direct.callTool(tool, args, { onprogress })],
        ['call_tool', (onprogress: Listener) => throughCallTool(clients.search, tool, args, { onprogress })],
      ] as const) {
        const progress: Progress[] = [];
        const result = await call((update) => progress.push(update));
        expect(result.structuredContent, how).toEqual({ items });
        expect(
          progress.map(({ progress: count, message }) => ({ count, item: JSON.parse(String(message)) })),
          how,
        ).toEqual(items.map((item, index) => ({ count: index + 1, item })));
      }
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  });

  for (const signal of ['heed', 'ignore'] as const) {
    const wait = signal === 'heed' ? 'heeds req.signal' : 'ignores the signal';
    test(`${era}: cancelling a stream’s call stops its generator (one whose wait ${wait})`, async () => {
      await using(connect(era, server.baseURL), async (client) => {
        const run = `cancel-${randomUUID()}`;
        const stop = new AbortController();
        const progress: Progress[] = [];
        const call = client.callTool(
          'StreamStyleController_streamTicks',
          { query: { count: 200, delayMs: 40, run, signal } },
          {
            signal: stop.signal,
            onprogress: (update) => {
              progress.push(update);
              if (progress.length === 3) stop.abort('enough');
            },
          },
        );
        await expect(call).rejects.toThrow();
        const record = async () => (await fetch(`${server.baseURL}/api/vovk-styles/streams/ticks/runs/${run}`)).json();
        // Its `finally` ran before its end: it was stopped, its request's signal aborted (the call's cancellation).
        const stopped = { produced: expect.any(Number), finished: false, stopped: true, aborted: true };
        await expect.poll(record, { timeout: 5_000 }).toEqual(stopped);
        const { produced } = await record();
        expect(produced).toBeGreaterThanOrEqual(3);
        expect(produced).toBeLessThan(10);
        // Stopped for good: nothing more is produced.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await record()).produced).toBe(produced);
      });
    });
  }

  test(`${era}: a stream longer than MCP_STREAM_MAX_ITEMS is cut, with a note of what was left out`, async () => {
    const count = MAX_ITEMS + 12;
    const tool = 'StreamStyleController_streamTicks';
    const row: Row = { style: 'long', tool, args: { query: { count } }, stream: true };
    const { expected } = await restAnswer(row);
    expect((expected as { items: unknown[] }).items).toHaveLength(count);
    await using(connect(era, server.baseURL), async (client) => {
      const result = await client.callTool(row.tool, row.args);
      const shown = (expected as { items: unknown[] }).items.slice(0, MAX_ITEMS);
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual({ items: shown });
      expect(JSON.parse(String(result.content[0].text))).toEqual(shown);
      const bound = `${MAX_ITEMS} items (MCP_STREAM_MAX_ITEMS)`;
      const note = `The stream was cut at ${bound}: ${MAX_ITEMS} items shown, 12 more items left out.`;
      expect(result.content[1]).toEqual({ type: 'text', text: note });
    });
  });
}
