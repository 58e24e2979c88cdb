// The catalogue end to end (issue 24): toolsets and readonly select what a connection sees and may call, in both eras
// and both forms (query, X-MCP-* headers); 2025 sessions keep their initialize's selection; the default and the search
// surface; call_tool answers exactly as the direct call, for every kind of result and every guard (confirmations, input
// requests, tasks, progress, scopes and their 403, rate limits, logs, spans); and the SDK clients and two client
// libraries of other projects (Vercel's AI SDK, LangChain) on each surface.
import fs from 'node:fs';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, GetTaskPayloadResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { expect, test } from '@playwright/test';
import {
  CALL_TOOL,
  clientKinds,
  connectAny,
  connectSelecting,
  outcomeOf,
  SEARCH_TOOLS,
  type SearchHit,
  searchTools,
  type Selection,
  selectingURL,
  selectionForms,
  selectionHeaders,
  throughCallTool,
  TOOLSETS_META_KEY,
} from './support/catalogue';
import { mcpHeaders, modernEnvelope, modernHeaders, modernToolCall, postMcp, toolCall } from './support/json-rpc';
import {
  connect,
  type ElicitationAnswer,
  type ElicitationRequest,
  eras,
  type GatewayClient,
  type Progress,
  type ToolResult,
  using,
} from './support/mcp';
import { scriptToken, startOAuthGateway, type OAuthGateway } from './support/oauth';
import { type OtlpReceiver, type ReceivedSpan, startTracedServer } from './support/otlp-receiver';
import { createTask, restStatus, type Task } from './support/rest-data';
import { E2E_LIST_MAX, e2eBaseURL, e2ePort, logLinesOfTrace, type RunningServer, startServer, stoppedAfterAll } from './support/server';
import { connectTaskClient, taskRequest } from './support/tasks';

/** The most tools the catalogue server lists flat: fewer than its whole catalogue, more than one toolset's. */
const LIST_MAX = 20;
const MAIN_LOG = 'test-results/catalogue-server.log';
const COUNT = 'FixtureController_countSlowly';
const DELETE_TASK = 'TaskController_deleteTask';
const UUID = /^[0-9a-f-]{36}$/;

/** The catalogue server: the test build with MCP_LIST_MAX below its catalogue, and a database of its own. */
let main: RunningServer;
/** A server of the test build with MCP_LIST_MAX left at its default (40). */
let defaults: RunningServer;
/** Every tool of the catalogue as tools/list shows it on the all surface (SDK v2), to compare selections with. */
let catalogue: Awaited<ReturnType<GatewayClient['listTools']>>;

/** What this spec starts, stopped together once its tests are done. */
const kept = stoppedAfterAll();

test.beforeAll(async () => {
  main = kept(await startServer(e2ePort + 200, { MCP_LIST_MAX: String(LIST_MAX) }, MAIN_LOG));
  defaults = kept(await startServer(e2ePort + 209, { MCP_LIST_MAX: '' }, 'test-results/catalogue-defaults-server.log'));
  const client = await connect(eras[1], selectingURL(main.baseURL, { tools: 'all' }));
  catalogue = await client.listTools();
  await client.close();
});

const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name).sort();
/** The catalogue's tools in any of `toolsets` (their `_meta` names them), optionally only the read-only ones. */
const toolsOf = (toolsets: string[] | undefined, readOnly = false) =>
  names(
    catalogue.filter(
      (tool) =>
        (!toolsets || (tool._meta?.[TOOLSETS_META_KEY] as string[]).some((name) => toolsets.includes(name))) &&
        (!readOnly || tool.annotations?.readOnlyHint === true),
    ),
  );
const listedNames = async (client: GatewayClient) => names(await client.listTools());


/** The refusal of a call outside the selection: a JSON-RPC -32602 error whose message says `why`. */
const refused = (why: RegExp | string) => ({ error: { code: -32602, message: expect.stringMatching(why) } });

test.describe('toolsets and readonly select what a connection sees and may call', () => {
  for (const era of eras) {
    for (const form of selectionForms) {
      test(`${era}, ${form}: toolsets (several, any case) list exactly their tools, each naming its toolsets in _meta`, async () => {
        await using(connectSelecting(era, main.baseURL, { toolsets: 'taskcontroller, STANDALONE', tools: 'all' }, form), async (client) => {
          const tools = await client.listTools();
          expect(names(tools)).toEqual(toolsOf(['TaskController', 'standalone']));
          expect(names(tools)).toContain('sum_numbers');
          // Its module's toolset first (a standalone tool's: standalone), then any it declares.
          for (const tool of tools) {
            expect((tool._meta?.[TOOLSETS_META_KEY] as string[])[0], tool.name).toBe(tool.name === 'sum_numbers' ? 'standalone' : 'TaskController');
          }
        });
        await using(connectSelecting(era, main.baseURL, { toolsets: 'all', tools: 'all' }, form), async (client) => {
          expect(await listedNames(client)).toEqual(toolsOf(undefined));
        });
      });

      test(`${era}, ${form}: readonly lists only readOnlyHint tools, alone and with toolsets`, async () => {
        await using(connectSelecting(era, main.baseURL, { readonly: '1', tools: 'all' }, form), async (client) => {
          const listed = await listedNames(client);
          expect(listed).toEqual(toolsOf(undefined, true));
          expect(listed).toContain('UserController_getUser');
          expect(listed).not.toContain('UserController_createUser');
        });
        await using(connectSelecting(era, main.baseURL, { toolsets: 'UserController', readonly: 'true', tools: 'all' }, form), async (client) => {
          expect(await listedNames(client)).toEqual(['UserController_getUser', 'UserController_listUsers']);
        });
      });

      test(`${era}, ${form}: a tool outside the selection is refused (-32602) naming its toolset, directly and through call_tool; a write on a read-only connection says so`, async () => {
        await using(connectSelecting(era, main.baseURL, { toolsets: 'TaskController' }, form), async (client) => {
          const direct = await outcomeOf(client.callTool('UserController_getUser', { params: { id: 1 } }));
          expect(direct).toEqual(refused(/Tool UserController_getUser is not in this connection's toolsets \(TaskController\): it is in toolset UserController/));
          expect(await outcomeOf(throughCallTool(client, 'UserController_getUser', { params: { id: 1 } }))).toEqual(direct);
          // A tool of the selection is served, both ways.
          expect((await client.callTool('TaskController_getTask', { params: { id: 424242 } })).content[0].text).toBe('Task 424242 not found');
        });
        await using(connectSelecting(era, main.baseURL, { readonly: '1' }, form), async (client) => {
          const direct = await outcomeOf(client.callTool('TaskController_createTask', { body: { title: 'Never' } }));
          expect(direct).toEqual(refused(/Tool TaskController_createTask \(toolset TaskController\) changes data, and this connection is read-only/));
          expect(await outcomeOf(throughCallTool(client, 'TaskController_createTask', { body: { title: 'Never' } }))).toEqual(direct);
        });
      });
    }

    test(`${era}: the URL wins over a header (toolsets, readonly, tools)`, async () => {
      const headers = selectionHeaders({ toolsets: 'TaskController', readonly: '1', tools: 'search' });
      const url = selectingURL(main.baseURL, { toolsets: 'UserController', readonly: '0', tools: 'all' });
      await using(connect(era, url, { headers }), async (client) => {
        expect(await listedNames(client)).toEqual(toolsOf(['UserController']));
      });
    });

    test(`${era}: the default surface lists every selected tool up to MCP_LIST_MAX (40 unless set), search_tools and call_tool above it; ?tools= and X-MCP-Tools choose`, async () => {
      // The shared test server lists up to the e2e servers' MCP_LIST_MAX: its whole catalogue, more than 40, flat.
      await using(connect(era, e2eBaseURL), async (client) => {
        const listed = await listedNames(client);
        expect(listed.length).toBeGreaterThan(40);
        expect(listed.length).toBeLessThanOrEqual(E2E_LIST_MAX);
        expect(listed).toContain('UserController_getUser');
        expect(listed).not.toContain(SEARCH_TOOLS);
      });
      // MCP_LIST_MAX unset (empty): 40, which that catalogue passes, so the search surface; one toolset is listed flat.
      await using(connect(era, defaults.baseURL), async (client) => {
        expect(await listedNames(client)).toEqual([CALL_TOOL, SEARCH_TOOLS]);
      });
      await using(connect(era, selectingURL(defaults.baseURL, { toolsets: 'TaskController' })), async (client) => {
        expect(await listedNames(client)).toEqual(toolsOf(['TaskController']));
      });
      // The catalogue server lists at most LIST_MAX flat: nothing configured gets the search surface.
      expect(catalogue.length).toBeGreaterThan(LIST_MAX);
      await using(connect(era, main.baseURL), async (client) => {
        expect(await listedNames(client)).toEqual([CALL_TOOL, SEARCH_TOOLS]);
      });
      const oneToolset = toolsOf(['TaskController']);
      expect(oneToolset.length).toBeLessThanOrEqual(LIST_MAX);
      await using(connect(era, selectingURL(main.baseURL, { toolsets: 'TaskController' })), async (client) => {
        expect(await listedNames(client)).toEqual(oneToolset);
      });
      await using(connect(era, main.baseURL, { headers: selectionHeaders({ toolsets: 'TaskController', tools: 'search' }) }), async (client) => {
        expect(await listedNames(client)).toEqual([CALL_TOOL, SEARCH_TOOLS]);
      });
      await using(connect(era, main.baseURL, { headers: selectionHeaders({ tools: 'ALL' }) }), async (client) => {
        expect(await listedNames(client)).toEqual(toolsOf(undefined));
      });
    });
  }

  test('an unknown toolset or a bad readonly or tools value is HTTP 400 with JSON-RPC -32602 "Invalid tool selection: …", in both eras, from the query and the header', async () => {
    const bad: Array<[Selection, RegExp]> = [
      [{ toolsets: 'TaskController,Nope' }, /^Invalid tool selection: Unknown toolset "Nope": the toolsets are all, UserController, TaskController, .*standalone/],
      [{ readonly: 'yes' }, /^Invalid tool selection: readonly must be 1 or 0 \(true or false\), not "yes"/],
      [{ tools: 'sandbox' }, /^Invalid tool selection: tools must be one of all, search, code, not "sandbox"/],
    ];
    const requests = [
      { era: '2025', headers: mcpHeaders, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      { era: '2026-07-28', headers: modernHeaders('tools/list'), body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernEnvelope() } } },
    ];
    for (const [selection, message] of bad) {
      for (const { era, headers, body } of requests) {
        const fromQuery = await postMcp(selectingURL(main.baseURL, selection), body, headers);
        const fromHeader = await postMcp(main.baseURL, body, { ...headers, ...selectionHeaders(selection) });
        for (const [form, answer] of [['query', fromQuery], ['header', fromHeader]] as const) {
          const what = `${era} ${form} ${JSON.stringify(selection)}`;
          expect(answer.status, what).toBe(400);
          expect(answer.message, what).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32602, message: expect.stringMatching(message) } });
        }
      }
    }
  });

  for (const form of selectionForms) {
    test(`2025 session (${form}): it keeps its initialize's selection; later requests sent without it, or with another, see and may call only what it selected`, async () => {
      const later: Array<{ method?: string; url: string; toolsets: string | null }> = [];
      // The initialize goes as the client wrote it; every later request of the session without the query, with other headers.
      const otherSelectionAfterInitialize: typeof fetch = (input, init) => {
        const method = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }).method : undefined;
        if (method === 'initialize') return fetch(input, init);
        const url = new URL(input instanceof Request ? input.url : input);
        url.search = '';
        const headers = new Headers(init?.headers);
        for (const name of ['x-mcp-toolsets', 'x-mcp-readonly', 'x-mcp-tools']) headers.delete(name);
        if (method === 'tools/call') for (const [name, value] of Object.entries(selectionHeaders({ toolsets: 'MediaController', tools: 'all' }))) headers.set(name, value);
        later.push({ method, url: url.href, toolsets: headers.get('x-mcp-toolsets') });
        return fetch(url, { ...init, headers });
      };
      const selection = { toolsets: 'UserController,TaskController', tools: 'search' };
      await using(connectSelecting('sdk-v1 (2025 era)', main.baseURL, selection, form, { fetch: otherSelectionAfterInitialize }), async (client) => {
        expect(client.sessionId).toMatch(UUID);
        expect(await listedNames(client)).toEqual([CALL_TOOL, SEARCH_TOOLS]);
        const hits = await searchTools(client, 'get list create image audio greeting board', 25);
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) expect(['UserController', 'TaskController'], hit.name).toContain(hit.toolset);
        expect((await throughCallTool(client, 'UserController_getUser', { params: { id: 1 } })).structuredContent).toMatchObject({ id: 1 });
        const outside = await outcomeOf(client.callTool('MediaController_getImage'));
        expect(outside).toEqual(refused(/Tool MediaController_getImage is not in this connection's toolsets \(TaskController, UserController\): it is in toolset MediaController/));
        expect(await outcomeOf(throughCallTool(client, 'MediaController_getImage'))).toEqual(outside);
      });
      // The later requests really went without the initialize's selection (the calls with another one).
      expect(later.length).toBeGreaterThanOrEqual(5);
      for (const request of later) {
        expect(request.url).toBe(new URL('/api/mcp', main.baseURL).href);
        expect(request.toolsets).toBe(request.method === 'tools/call' ? 'MediaController' : null);
      }
    });
  }
});

test.describe('the search surface', () => {
  for (const era of eras) {
    test(`${era}: ?tools=search lists exactly search_tools and call_tool; search_tools answers the selection's tools as tools/list shows them, with toolset and score`, async () => {
      const byName = new Map(catalogue.map((tool) => [tool.name, tool]));
      await using(connect(era, selectingURL(main.baseURL, { tools: 'search' })), async (client) => {
        const listed = await client.listTools();
        expect(names(listed)).toEqual([CALL_TOOL, SEARCH_TOOLS]);
        for (const tool of listed) expect(tool._meta?.[TOOLSETS_META_KEY]).toEqual(['catalogue']);
        const hits = await searchTools(client, 'delete a task', 3);
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.length).toBeLessThanOrEqual(3);
        expect(hits.map((hit) => hit.name)).toContain(DELETE_TASK);
        for (const hit of hits) {
          const tool = byName.get(hit.name)!;
          expect(hit).toEqual({
            name: tool.name,
            ...(tool.title && { title: tool.title }),
            description: tool.description,
            inputSchema: tool.inputSchema,
            ...(tool.annotations && { annotations: tool.annotations }),
            toolset: (tool._meta?.[TOOLSETS_META_KEY] as string[])[0],
            toolsets: tool._meta?.[TOOLSETS_META_KEY],
            score: expect.any(Number),
          });
        }
        expect(hits.map((hit) => hit.score)).toEqual(hits.map((hit) => hit.score).sort((a, b) => b - a));
      });
      await using(connect(era, selectingURL(main.baseURL, { toolsets: 'UserController', tools: 'search' })), async (client) => {
        const hits = await searchTools(client, 'delete a task', 25);
        expect(hits.map((hit) => hit.name)).not.toContain(DELETE_TASK);
        for (const hit of hits) expect(hit.toolset).toBe('UserController');
      });
    });

    test(`${era}: search_tools and call_tool are callable on the all surface too, though not listed there`, async () => {
      await using(connect(era, selectingURL(main.baseURL, { tools: 'all' })), async (client) => {
        expect(await listedNames(client)).not.toContain(CALL_TOOL);
        expect((await searchTools(client, 'greeting')).map((hit) => hit.name)).toContain('TextController_getGreeting');
        expect((await throughCallTool(client, 'TextController_getGreeting')).content).toEqual([{ type: 'text', text: 'Hello, world!' }]);
      });
    });
  }
});

const png = fs.readFileSync('public/media/sample.png').toString('base64');
const jpeg = fs.readFileSync('public/media/sample.jpg').toString('base64');
const mp3 = fs.readFileSync('public/media/sample.mp3').toString('base64');

/** A tool's error result: one text item saying what went wrong (a string or a matcher), and isError. */
const failure = (text: unknown) => ({ content: [{ type: 'text', text }], isError: true });

/** Each kind of result a tool answers: a call of a tool that answers it, and what shows the result is of that kind. */
const resultKinds: Array<{ kind: string; tool: string; args?: Record<string, unknown>; shows: (result: ToolResult) => void }> = [
  {
    kind: 'a JSON object (text + structuredContent)',
    tool: 'UserController_getUser',
    args: { params: { id: 1 } },
    shows: (result) => expect(result.structuredContent).toMatchObject({ id: 1, name: 'Ada Lovelace' }),
  },
  {
    kind: 'a JSON array (structuredContent.items)',
    tool: 'UserController_listUsers',
    shows: (result) => expect(result.structuredContent?.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: 1 })])),
  },
  {
    kind: 'a +json document',
    tool: 'FixtureController_getVndJson',
    shows: (result) => expect(result.structuredContent).toEqual({ data: { type: 'users', id: '1' } }),
  },
  {
    kind: 'plain text',
    tool: 'TextController_getGreeting',
    shows: (result) => expect(result).toEqual({ content: [{ type: 'text', text: 'Hello, world!' }] }),
  },
  {
    kind: 'text of another type (RSS)',
    tool: 'TextController_getFeed',
    shows: (result) => expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('<rss') }]),
  },
  {
    kind: 'an image (base64 PNG)',
    tool: 'MediaController_getImage',
    shows: (result) => expect(result).toEqual({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] }),
  },
  {
    kind: 'an image with per-item annotations',
    tool: 'AnnotatedController_getAnnotatedImage',
    shows: (result) =>
      expect(result.content).toEqual([{ type: 'image', data: jpeg, mimeType: 'image/jpeg', annotations: { audience: ['user'], priority: 0.8 } }]),
  },
  {
    kind: 'audio (base64 MP3)',
    tool: 'MediaController_getAudio',
    shows: (result) => expect(result).toEqual({ content: [{ type: 'audio', data: mp3, mimeType: 'audio/mpeg' }] }),
  },
  {
    kind: 'audio the tool fetched from an allowed URL',
    tool: 'MediaController_getAudioFromURL',
    shows: (result) => expect(result).toEqual({ content: [{ type: 'audio', data: mp3, mimeType: 'audio/mpeg' }] }),
  },
  {
    kind: "a standalone tool's text",
    tool: 'sum_numbers',
    args: { a: 2, b: 3.5 },
    shows: (result) => expect(result).toEqual({ content: [{ type: 'text', text: '5.5' }] }),
  },
  {
    kind: 'an MCP output the procedure sets itself (annotated text + structuredContent)',
    tool: 'FixtureController_getOverridden',
    shows: (result) => expect(result.content[0].annotations).toEqual({ audience: ['assistant'], priority: 0.2 }),
  },
  {
    kind: 'an error status (404) as isError with its message',
    tool: 'UserController_getUser',
    args: { params: { id: 424242 } },
    shows: (result) => expect(result).toEqual(failure('User 424242 not found')),
  },
  {
    kind: 'an error body (422 problem+json) as isError, without structuredContent',
    tool: 'FixtureController_getProblem',
    shows: (result) => {
      expect(result.isError).toBe(true);
      expect(result).not.toHaveProperty('structuredContent');
    },
  },
  {
    kind: 'an unsupported content type (PDF) as isError',
    tool: 'FixtureController_getPdf',
    shows: (result) => expect(result).toEqual(failure('Unsupported response content type application/pdf')),
  },
  {
    kind: 'arguments its input schema refuses as isError naming them',
    tool: 'UserController_getUser',
    args: { params: { id: 'abc' } },
    shows: (result) => expect(result).toEqual(failure(expect.stringMatching(/^Input validation error: .*params\.id/))),
  },
  {
    kind: "a decorator's refusal (403) as isError",
    tool: 'FixtureController_getDecorated',
    args: { params: { id: 1 } },
    shows: (result) => expect(result).toEqual(failure('The fixture key is missing')),
  },
  {
    kind: 'what a procedure that would ask answers a client that cannot be asked',
    tool: 'FixtureController_askAbout',
    shows: (result) => expect(result.structuredContent).toEqual({ action: 'not asked' }),
  },
];

const countArgs = (to: number, stepMs: number, extra: Record<string, unknown> = {}) => ({ body: { to, stepMs, ...extra } });

for (const era of eras) {
  test.describe(`call_tool answers as the direct call (${era})`, () => {
    let client: GatewayClient;
    test.beforeAll(async () => {
      client = await connect(era, main.baseURL);
    });
    test.afterAll(async () => client?.close());

    for (const { kind, tool, args = {}, shows } of resultKinds) {
      test(`${kind}: the same content, structuredContent and isError (${tool})`, async () => {
        const direct = await client.callTool(tool, args);
        shows(direct);
        expect(await throughCallTool(client, tool, args)).toEqual(direct);
      });
    }

    test('a thrown error: masked alike ("Internal server error", an errorId of its own), and the log line of the call_tool request names the real tool and that errorId', async () => {
      const direct = await client.callTool('FixtureController_throwError');
      const through = await throughCallTool(client, 'FixtureController_throwError');
      const masked = { content: [{ type: 'text', text: 'Internal server error' }], isError: true, _meta: { errorId: expect.stringMatching(UUID) } };
      expect(direct).toEqual(masked);
      expect(through).toEqual(masked);
      expect(JSON.stringify(through)).not.toContain('hunter2');
      const errorId = (through._meta as { errorId: string }).errorId;
      expect(errorId).not.toBe((direct._meta as { errorId: string }).errorId);
      const logged = () =>
        fs
          .readFileSync(MAIN_LOG, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('{') && line.includes(errorId))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      await expect.poll(logged).toEqual([expect.objectContaining({ msg: 'request', door: 'mcp', tool: 'FixtureController_throwError', errorIds: [errorId] })]);
      expect(fs.readFileSync(MAIN_LOG, 'utf8')).toContain(`[gateway] error ${errorId}`);
    });

    test('call_tool with its arguments left out runs the tool with none, as a direct call without arguments', async () => {
      const direct = await client.callTool('TextController_getGreeting');
      expect(await client.callTool(CALL_TOOL, { name: 'TextController_getGreeting' })).toEqual(direct);
    });

    test('call_tool naming itself answers an error result saying what it runs, not a server error', async () => {
      expect(await throughCallTool(client, CALL_TOOL)).toEqual(failure('call_tool runs another tool of the catalogue, not call_tool'));
    });

    test('a call outside the catalogue: the same error as the direct call of an unknown tool', async () => {
      const direct = await outcomeOf(client.callTool('no_such_tool'));
      expect(direct).toEqual(refused('Tool no_such_tool not found'));
      expect(await outcomeOf(throughCallTool(client, 'no_such_tool'))).toEqual(direct);
    });

    test('progress: a long-running tool called with a progressToken sends notifications/progress through call_tool as directly (its steps in order, the first and the last always)', async () => {
      const seen: Record<'direct' | 'through', Progress[]> = { direct: [], through: [] };
      const args = countArgs(3, 150);
      const direct = await client.callTool(COUNT, args, { onprogress: (progress) => void seen.direct.push(progress) });
      const through = await throughCallTool(client, COUNT, args, { onprogress: (progress) => void seen.through.push(progress) });
      expect(direct.structuredContent).toEqual({ counted: 3 });
      expect(through).toEqual(direct);
      const every = [1, 2, 3].map((done) => ({ progress: done, total: 3, message: `${done} of 3 counted` }));
      for (const [how, progress] of Object.entries(seen)) {
        // Throttled to 4 a second: the first and the last always come, in order, and nothing else than the steps.
        expect(progress.length, how).toBeGreaterThanOrEqual(2);
        expect(progress[0], how).toEqual(every[0]);
        expect(progress.at(-1), how).toEqual(every[2]);
        expect(every, how).toEqual(expect.arrayContaining(progress));
        const steps = progress.map((update) => update.progress);
        expect(steps, how).toEqual([...new Set(steps)].sort((a, b) => a - b));
      }
    });
  });

  test.describe(`guards through call_tool (${era})`, () => {
    /**
     * A client that answers every question with `answer()` (changeable) and keeps the questions it was asked: their
     * message and form (a request's `_meta` differs from one to the next: the SDK's own numbering).
     */
    async function askedClient(answer: () => ElicitationAnswer) {
      const questions: ElicitationRequest[] = [];
      const client = await connect(era, main.baseURL, {
        elicit: ({ message, requestedSchema }) => {
          questions.push({ message, requestedSchema });
          return answer();
        },
      });
      return { client, questions };
    }
    const deleted = (task: Task) => ({ content: [{ type: 'text', text: JSON.stringify(task) }], structuredContent: task });

    test('a destructive tool asks the same confirmation: declined it changes nothing and answers as the direct call; accepted it deletes', async () => {
      let answer: ElicitationAnswer = { action: 'decline' };
      const { client, questions } = await askedClient(() => answer);
      try {
        const task = await createTask(main.baseURL, 'Confirm through call_tool');
        const direct = await client.callTool(DELETE_TASK, { params: { id: task.id } });
        expect(direct).toEqual(failure(expect.stringMatching(/^Not done: the user declined the confirmation/)));
        expect(await throughCallTool(client, DELETE_TASK, { params: { id: task.id } })).toEqual(direct);
        expect(questions).toHaveLength(2);
        expect(questions[0].message).toBe(`Delete the task “${task.title}” (id ${task.id})? It cannot be undone.`);
        expect(questions[1]).toEqual(questions[0]);
        expect(await restStatus(main.baseURL, `/api/tasks/${task.id}`)).toBe(200);

        answer = { action: 'accept', content: { confirm: true } };
        const other = await createTask(main.baseURL, 'Confirm directly');
        expect(await client.callTool(DELETE_TASK, { params: { id: other.id } })).toEqual(deleted(other));
        expect(await throughCallTool(client, DELETE_TASK, { params: { id: task.id } })).toEqual(deleted(task));
        expect(questions.map((question) => question.message).slice(2)).toEqual([
          `Delete the task “${other.title}” (id ${other.id})? It cannot be undone.`,
          questions[0].message,
        ]);
        expect(await restStatus(main.baseURL, `/api/tasks/${task.id}`)).toBe(404);
        expect(await restStatus(main.baseURL, `/api/tasks/${other.id}`)).toBe(404);
      } finally {
        await client.close();
      }
    });

    test('an input request (askClient): the same question, and the same result for each answer', async () => {
      let answer: ElicitationAnswer = { action: 'accept', content: { name: 'Ada', colour: 'green' } };
      const { client, questions } = await askedClient(() => answer);
      try {
        for (const expected of [{ action: 'accept', content: { name: 'Ada', colour: 'green' } }, { action: 'decline', content: null }]) {
          if (expected.action === 'decline') answer = { action: 'decline' };
          const direct = await client.callTool('FixtureController_askAbout');
          expect(direct.structuredContent).toEqual(expected);
          expect(await throughCallTool(client, 'FixtureController_askAbout')).toEqual(direct);
        }
        expect(questions).toHaveLength(4);
        expect(questions[0]).toMatchObject({ message: 'Tell the fixture about your tea.', requestedSchema: { required: ['name', 'colour'] } });
        for (const question of questions) expect(question).toEqual(questions[0]);
      } finally {
        await client.close();
      }
    });
  });
}

test.describe('input requests of every kind through call_tool (the conformance fixtures that ask)', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = kept(await startServer(e2ePort + 205, { MCP_CONFORMANCE: '1' }, 'test-results/catalogue-conformance.log'));
  });

  for (const era of eras) {
    test(`${era}: elicitation, sampling and roots in one round, and two rounds: the same requests reach the client and the same result comes back`, async () => {
      const asked: unknown[] = [];
      const client = await connect(era, server.baseURL, {
        elicit: ({ message, requestedSchema }) => {
          asked.push({ message, requestedSchema });
          return { action: 'accept', content: { name: 'Ada', color: 'teal' } };
        },
        sample: ({ messages, maxTokens }) => {
          asked.push({ messages, maxTokens });
          return { text: 'Hello there', model: 'e2e-model' };
        },
        roots: [{ uri: 'file:///home/ada/project', name: 'Project' }],
      });
      try {
        for (const [tool, text] of [
          ['test_input_required_result_multiple_inputs', 'Name: action=accept, content={"name":"Ada","color":"teal"}; greeting: Hello there; roots: file:///home/ada/project (Project)'],
          ['test_input_required_result_multi_round', 'Ada likes teal'],
        ]) {
          asked.length = 0;
          const direct = await client.callTool(tool);
          expect(direct, tool).toEqual({ content: [{ type: 'text', text }] });
          const askedDirectly = [...asked];
          asked.length = 0;
          expect(await throughCallTool(client, tool), tool).toEqual(direct);
          expect(asked, tool).toEqual(askedDirectly);
          expect(asked.length, tool).toBe(2);
        }
      } finally {
        await client.close();
      }
    });
  }
});

test.describe('tasks for long-running tools through call_tool', () => {
  test('2026-07-28, the Tasks extension (official requester): call_tool makes the task the direct call makes, with the same result; its input_required is answered with tasks/update', async () => {
    const asked: string[] = [];
    const { session, close } = await connectTaskClient(main.baseURL, {
      elicit: (params) => {
        asked.push(String(params.message));
        return { action: 'accept', content: { go: true } };
      },
    });
    try {
      // The tasks run at once (the requester polls each about once a second).
      await Promise.all(
        [false, true].map(async (ask) => {
          const args = countArgs(2, 50, { ask });
          const direct = await session.callTool(COUNT, args);
          const through = await session.callTool(CALL_TOOL, { name: COUNT, arguments: args });
          expect([direct.kind, through.kind]).toEqual(['task', 'task']);
          const [directResult, throughResult] = await Promise.all(
            [direct, through].map(async (execution) => resultFromTaskOutcome((await execution.settle()).outcome)),
          );
          expect((directResult as ToolResult).structuredContent).toEqual({ counted: 2, ...(ask && { answer: 'accept' }) });
          expect(throughResult).toEqual(directResult);
          const { result } = await taskRequest(main.baseURL, 'tasks/get', { taskId: through.handle!.taskId });
          expect(result).toMatchObject({ taskId: through.handle!.taskId, status: 'completed' });
        }),
      );
      expect(asked).toEqual(['Count now?', 'Count now?']);
    } finally {
      await close();
    }
  });

  test('2025 session (SDK v1, params.task): call_tool makes a task; tasks/result answers it as for the direct call', async () => {
    const client = new ClientV1({ name: 'e2e-v1-catalogue-tasks', version: '1.0.0' });
    const transport = new TransportV1(new URL('/api/mcp', main.baseURL));
    await client.connect(transport);
    try {
      const resultOf = async (name: string, args: Record<string, unknown>) => {
        const { task } = await client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
        expect(task).toMatchObject({ taskId: expect.any(String), status: 'working' });
        const { _meta, ...result } = await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, GetTaskPayloadResultSchema);
        expect(_meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
        return result;
      };
      const direct = await resultOf(COUNT, countArgs(2, 50));
      expect(direct.structuredContent).toEqual({ counted: 2 });
      expect(await resultOf(CALL_TOOL, { name: COUNT, arguments: countArgs(2, 50) })).toEqual(direct);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});

test.describe('scopes through call_tool (OAuth on)', () => {
  let setup: OAuthGateway;
  test.beforeAll(async () => {
    setup = kept(await startOAuthGateway(e2ePort + 201));
  });
  const bearer = async (scope: string) => ({ authorization: `Bearer ${await scriptToken(setup.as, setup.resource, scope)}` });

  for (const era of eras) {
    test(`${era}: a call without the named tool's scopes gets the direct call's HTTP 403 insufficient_scope; search_tools finds only what the token allows; with the scope call_tool runs it`, async () => {
      const base = setup.gateway.baseURL;
      /** The status and challenge of each reply to a tools/call, in order. */
      const challenges: Array<{ status: number; challenge: string | null }> = [];
      const onReply = (reply: Response, method: string | undefined) => {
        if (method === 'tools/call') challenges.push({ status: reply.status, challenge: reply.headers.get('www-authenticate') });
      };
      const createTaskArgs = { body: { title: `Through call_tool over ${era}` } };
      await using(connect(era, selectingURL(base, { tools: 'search' }), { headers: await bearer('gateway:read'), onReply }), async (client) => {
        expect(await listedNames(client)).toEqual([CALL_TOOL, SEARCH_TOOLS]);
        const hits = (await searchTools(client, 'create a task, delete a user, list users', 25)).map((hit) => hit.name);
        expect(hits).toContain('UserController_listUsers');
        expect(hits).not.toContain('TaskController_createTask');
        expect(hits).not.toContain('UserController_deleteUser');
        const direct = await outcomeOf(client.callTool('TaskController_createTask', createTaskArgs));
        const through = await outcomeOf(throughCallTool(client, 'TaskController_createTask', createTaskArgs));
        expect(direct).toHaveProperty('error');
        expect(through).toEqual(direct);
      });
      const refusals = challenges.filter(({ status }) => status === 403);
      expect(refusals).toHaveLength(2);
      expect(refusals[0].challenge).toMatch(/^Bearer error="insufficient_scope"/);
      expect(refusals[0].challenge).toContain('scope="gateway:write"');
      expect(refusals[0].challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`);
      expect(refusals[1]).toEqual(refusals[0]);

      challenges.length = 0;
      await using(connect(era, base, { headers: await bearer('gateway:read gateway:write'), onReply }), async (client) => {
        expect((await searchTools(client, 'create a task', 25)).map((hit) => hit.name)).toContain('TaskController_createTask');
        const created = { title: createTaskArgs.body.title, createdBy: setup.as.clients.script.clientId };
        expect((await client.callTool('TaskController_createTask', createTaskArgs)).structuredContent).toMatchObject(created);
        expect((await throughCallTool(client, 'TaskController_createTask', createTaskArgs)).structuredContent).toMatchObject(created);
        // Deleting a user also needs gateway:admin: the challenge names both scopes, both ways.
        await outcomeOf(client.callTool('UserController_deleteUser', { params: { id: 3 } }));
        await outcomeOf(throughCallTool(client, 'UserController_deleteUser', { params: { id: 3 } }));
      });
      const adminRefusals = challenges.filter(({ status }) => status === 403);
      expect(adminRefusals).toHaveLength(2);
      expect(adminRefusals[0].challenge).toContain('scope="gateway:write gateway:admin"');
      expect(adminRefusals[1]).toEqual(adminRefusals[0]);
    });
  }
});

test.describe('rate limits through call_tool', () => {
  const BURST = 3;
  let server: RunningServer;
  test.beforeAll(async () => {
    // No refill within the test (one request per 1000 s): a caller gets exactly the burst.
    server = kept(
      await startServer(e2ePort + 202, { GATEWAY_RATE_LIMIT: '0.001', GATEWAY_RATE_LIMIT_BURST: String(BURST) }, 'test-results/catalogue-rate-limit.log'),
    );
  });

  test('GATEWAY_RATE_LIMIT: a call through call_tool counts as one request, as a direct call does, in both eras', async () => {
    const flooder = `http://127.0.0.1:${new URL(server.baseURL).port}`;
    const calls = {
      2025: (name: string, args: object) => ({ body: toolCall(1, name, args), headers: mcpHeaders }),
      '2026-07-28': (name: string, args: object) => ({ body: modernToolCall(1, name, args), headers: modernHeaders('tools/call', name) }),
    };
    let address = 20;
    for (const [era, call] of Object.entries(calls)) {
      const sum = { a: 1, b: 2 };
      // Each way from an address of its own: another caller, with a full burst.
      for (const { body, headers } of [call('sum_numbers', sum), call(CALL_TOOL, { name: 'sum_numbers', arguments: sum })]) {
        const localAddress = `127.0.0.${++address}`;
        const answers = [];
        for (let sent = 0; sent <= BURST; sent++) answers.push(await postMcp(flooder, body, headers, { localAddress }));
        expect(answers.map((answer) => answer.status), `${era} ${body.params.name}`).toEqual([...Array(BURST).fill(200), 429]);
        for (const answer of answers.slice(0, BURST)) expect(answer.message?.result).toMatchObject({ content: [{ type: 'text', text: '3' }] });
        expect(answers[BURST].message?.error?.message).toMatch(/Too Many Requests/);
      }
    }
  });
});

test.describe('logs and spans of a call through call_tool name the real tool', () => {
  let receiver: OtlpReceiver;
  let server: RunningServer;
  const logFile = 'test-results/catalogue-tracing.log';
  test.beforeAll(async () => {
    ({ receiver, server } = kept(await startTracedServer(e2ePort + 203, e2ePort + 204, logFile)));
  });

  for (const [era, tool] of [
    [eras[0], 'UserController_getUser'],
    [eras[1], 'TaskController_getTask'],
  ] as const) {
    test(`${era}: a tools/call ${tool} span (gen_ai.tool.name the tool, called through call_tool) in the trace of its request, and the request's log line names the tool`, async () => {
      await using(connect(era, server.baseURL), async (client) => {
        expect((await throughCallTool(client, tool, { params: { id: 1 } })).isError).toBeUndefined();
        expect((await throughCallTool(client, tool, { params: { id: 424242 } })).isError).toBe(true);
      });
      const isThrough = ({ name, attributes }: ReceivedSpan) => name === `tools/call ${tool}` && attributes['dev.vovk.called_through'] === CALL_TOOL;
      const requestOf = (span: ReceivedSpan) =>
        receiver.spans.find((request) => request.traceId === span.traceId && request.attributes['http.status_code'] !== undefined);
      const parentOf = (span: ReceivedSpan) => receiver.spans.find((parent) => parent.spanId === span.parentSpanId);
      const spans = await receiver.waitFor(`two ${tool} spans through call_tool, each with its parent and its request's`, (all) => {
        const through = all.filter(isThrough);
        return through.length === 2 && through.every((span) => requestOf(span) && parentOf(span));
      });
      const through = spans.filter(isThrough);
      expect(through.map((span) => span.statusCode).sort()).toEqual([0, 2]); // the isError one is an error
      for (const span of through) {
        expect(span).toMatchObject({
          scope: 'vovk-mcp-gateway',
          attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' },
        });
        expect(requestOf(span)).toMatchObject({ name: 'POST /api/mcp', attributes: { 'http.status_code': 200 } });
        expect(parentOf(span)?.traceId).toBe(span.traceId);
        await expect.poll(() => logLinesOfTrace(logFile, span.traceId)).toEqual([expect.objectContaining({ msg: 'request', door: 'mcp', tool })]);
      }
    });
  }
});

test.describe('the SDK clients and client libraries of other projects, on each surface', () => {
  let userOne: unknown;
  test.beforeAll(async () => {
    userOne = await (await fetch(`${main.baseURL}/api/users/1`)).json();
  });

  for (const kind of clientKinds) {
    test(`${kind}: with ?tools=all it lists every tool and calls one`, async () => {
      const client = await connectAny(kind, selectingURL(main.baseURL, { tools: 'all' }));
      try {
        expect((await client.toolNames()).sort()).toEqual(names(catalogue));
        const seen = await client.call('UserController_getUser', { params: { id: 1 } });
        expect(seen.isError).toBe(false);
        expect(JSON.parse(seen.texts[0])).toEqual(userOne);
      } finally {
        await client.close();
      }
    });

    test(`${kind}: with ?tools=search it lists exactly search_tools and call_tool, finds a tool with search_tools and runs it with call_tool`, async () => {
      const client = await connectAny(kind, selectingURL(main.baseURL, { tools: 'search' }));
      try {
        expect((await client.toolNames()).sort()).toEqual([CALL_TOOL, SEARCH_TOOLS]);
        const found = await client.call(SEARCH_TOOLS, { query: 'get a user by id', limit: 10 });
        const hit = (JSON.parse(found.texts[0]) as { tools: SearchHit[] }).tools.find((candidate) => candidate.name === 'UserController_getUser');
        expect(hit?.inputSchema).toMatchObject({ required: ['params'] });
        const seen = await client.call(CALL_TOOL, { name: hit!.name, arguments: { params: { id: 1 } } });
        expect(seen.isError).toBe(false);
        expect(JSON.parse(seen.texts[0])).toEqual(userOne);
      } finally {
        await client.close();
      }
    });
  }
});
