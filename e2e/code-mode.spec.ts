// Code mode end to end (issue 25): ?tools=code lists search_tools (hits with TypeScript signatures) and execute; a
// program of several calls answers only its result, through the SDK clients of both eras and two client libraries of
// other projects; each inner call keeps every guard (selection, scopes, rate limit, confirmation without a second write,
// cancellation, progress, log line, span); the sandbox reaches nothing of the host and its limits name themselves.
import { expect, test } from '@playwright/test';
import { clientKinds, connectAny, SEARCH_TOOLS, type SearchHit, searchTools, selectingURL } from './support/catalogue';
import { modernHeaders, modernToolCall, postMcp } from './support/json-rpc';
import { connect, type ElicitationAnswer, type ElicitationRequest, eras, type GatewayClient, type Progress, type ToolResult, using } from './support/mcp';
import { scriptToken, startOAuthGateway, type OAuthGateway } from './support/oauth';
import { type OtlpReceiver, type ReceivedSpan, startTracedServer } from './support/otlp-receiver';
import { createTask, restStatus, type Task } from './support/rest-data';
import { e2ePort, logLinesOfTrace, type RunningServer, startServer, stoppedAfterAll } from './support/server';
import { countsRunning } from './support/tasks';

const EXECUTE = 'execute';
const CODE = { tools: 'code' };

/** What this spec starts, stopped together once its tests are done. */
const kept = stoppedAfterAll();

/** The main server: the test build with short code-mode limits, so that a limit is reached in a test's time. */
let main: RunningServer;
const WALL_MS = 2_000;
const MAX_CALLS = 12;
const MEMORY_BYTES = 16 * 1024 * 1024;
test.beforeAll(async () => {
  const limits = { CODE_MODE_WALL_MS: String(WALL_MS), CODE_MODE_MAX_CALLS: String(MAX_CALLS), CODE_MODE_MEMORY_BYTES: String(MEMORY_BYTES) };
  main = kept(await startServer(e2ePort + 250, limits, 'test-results/code-mode-server.log'));
});


/** What `execute` answers: the program's result, what it printed, its calls. */
interface Executed {
  result: unknown;
  logs: string[];
  calls: Array<{ tool: string; ms: number; ok: boolean; error?: string }>;
}

/** Runs `code` through `execute`; a failed program's text is thrown. */
async function execute(client: GatewayClient, code: string, options?: Parameters<GatewayClient['callTool']>[2]): Promise<Executed> {
  const answer = await client.callTool(EXECUTE, { code }, options);
  if (answer.isError) throw new Error(String(answer.content[0]?.text));
  return answer.structuredContent as unknown as Executed;
}

/** The text of a failed `execute` (a program's error, a limit), checked to be an isError result. */
async function failureOf(client: GatewayClient, code: string): Promise<string> {
  const answer = await client.callTool(EXECUTE, { code });
  expect(answer.isError, JSON.stringify(answer)).toBe(true);
  expect(answer.structuredContent).toBeUndefined();
  return String(answer.content[0].text);
}

const tasksTitled = async (baseURL: string, title: string) =>
  ((await (await fetch(`${baseURL}/api/tasks`)).json()) as Task[]).filter((task) => task.title === title);

test.describe('the code surface', () => {
  for (const era of eras) {
    test(`${era}: lists search_tools and execute; a program of several calls answers only its result, its logs and a line per call`, async () => {
      await using(connect(era, selectingURL(main.baseURL, CODE)), async (client) => {
        expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([EXECUTE, SEARCH_TOOLS]);
        const code = `
          const users = await tools.UserController_listUsers();
          let emails = 0;
          for (const user of users.slice(0, 3)) {
            const one = await tools.UserController_getUser({ params: { id: user.id } });
            if (one.email.includes('@')) emails += 1;
          }
          console.log('checked', emails, { of: users.length });
          return { users: users.length, emails };`;
        const answer = await client.callTool(EXECUTE, { code });
        const executed = answer.structuredContent as unknown as Executed;
        expect(executed.result).toEqual({ users: expect.any(Number), emails: 3 });
        expect(executed.logs).toEqual([`checked 3 {"of":${(executed.result as { users: number }).users}}`]);
        expect(executed.calls.map(({ tool, ok }) => ({ tool, ok }))).toEqual([
          { tool: 'UserController_listUsers', ok: true },
          ...Array(3).fill({ tool: 'UserController_getUser', ok: true }),
        ]);
        for (const call of executed.calls) expect(call.ms).toBeGreaterThanOrEqual(0);
        // Nothing of the intermediate results comes back: no user's name or email is in the answer.
        expect(Object.keys(answer.structuredContent ?? {}).sort()).toEqual(['calls', 'logs', 'result']);
        expect(JSON.stringify(answer)).not.toMatch(/Ada Lovelace|@example/);
        // A TypeScript program: its types are stripped.
        expect((await execute(client, 'const n: number = (await tools.sum_numbers({ a: 2, b: 3 })) as unknown as number; return n')).result).toBe('5');
      });
    });
  }

  test('search_tools hits carry each tool’s TypeScript signature on the code surface (not on search)', async () => {
    await using(connect(eras[1], selectingURL(main.baseURL, CODE)), async (client) => {
      const hit = (await searchTools(client, 'UserController_getUser', 1))[0] as SearchHit & { signature?: string };
      expect(hit.name).toBe('UserController_getUser');
      expect(hit.signature).toMatch(/^UserController_getUser\(args: \{\n {2}\/\*\* Path parameters \*\/\n {2}params: \{\n/);
      expect(hit.signature).toMatch(/ {4}id: number;\n/);
      expect(hit.signature).toMatch(/\): Promise<\{\n[\s\S]*name: string;[\s\S]*\}>$/);
      const list = (await searchTools(client, 'UserController_listUsers', 1))[0] as SearchHit & { signature?: string };
      // An array result is the array in a program; its paging arguments are optional.
      expect(list.signature).toMatch(/^UserController_listUsers\(args\?: \{\n[\s\S]*offset\?: number;[\s\S]*\}\): Promise<\{[\s\S]*\}\[\]>$/);
    });
    await using(connect(eras[1], selectingURL(main.baseURL, { tools: 'search' })), async (client) => {
      expect((await searchTools(client, 'UserController_getUser', 1))[0]).not.toHaveProperty('signature');
    });
  });

  test('what a program gets of each kind of result: structured as it is, an array as the array, text as text, media as { type, mimeType, data }, an error thrown', async () => {
    await using(connect(eras[1], selectingURL(main.baseURL, CODE)), async (client) => {
      const direct = (name: string, args: Record<string, unknown> = {}) => client.callTool(name, args);
      const textOf = (result: ToolResult) => result.content.map((item) => item.text).join('\n');
      const mediaOf = (result: ToolResult) => ({ type: result.content[0].type, mimeType: result.content[0].mimeType, data: result.content[0].data });
      const kinds: Array<[string, Record<string, unknown>, (result: ToolResult) => unknown]> = [
        ['UserController_getUser', { params: { id: 1 } }, (result) => ({ ok: true, value: result.structuredContent })],
        ['UserController_listUsers', {}, (result) => ({ ok: true, value: result.structuredContent?.items })],
        ['TextController_getGreeting', {}, (result) => ({ ok: true, value: textOf(result) })],
        ['MediaController_getImage', {}, (result) => ({ ok: true, value: mediaOf(result) })],
        ['MediaController_getAudio', {}, (result) => ({ ok: true, value: mediaOf(result) })],
        ['UserController_getUser', { params: { id: 424242 } }, (result) => ({ ok: false, message: textOf(result) })],
        ['FixtureController_getPdf', {}, (result) => ({ ok: false, message: textOf(result) })],
        ['UserController_getUser', { params: { id: 'abc' } }, () => ({ ok: false, message: expect.stringMatching(/^Invalid arguments for tool UserController_getUser: .*params\.id/) })],
      ];
      for (const [name, args, expected] of kinds) {
        const code = `try { return { ok: true, value: await tools.${name}(${JSON.stringify(args)}) } } catch (error) { return { ok: false, message: error.message } }`;
        const directResult = await direct(name, args);
        expect((await execute(client, code)).result, `${name} ${JSON.stringify(args)}`).toEqual(expected(directResult));
      }
    });
  });

  for (const kind of clientKinds.slice(2)) {
    test(`${kind}: lists execute and search_tools, and runs a program of several calls`, async () => {
      const client = await connectAny(kind, selectingURL(main.baseURL, CODE));
      try {
        expect((await client.toolNames()).sort()).toEqual([EXECUTE, SEARCH_TOOLS]);
        const code = 'const a = await tools.sum_numbers({ a: 1, b: 2 }); const b = await tools.sum_numbers({ a: Number(a), b: 4 }); return Number(b) * 10';
        const seen = await client.call(EXECUTE, { code });
        expect(seen.isError).toBe(false);
        expect(JSON.parse(seen.texts[0])).toMatchObject({ result: 70, logs: [], calls: [{ tool: 'sum_numbers', ok: true }, { tool: 'sum_numbers', ok: true }] });
        const failed = await client.call(EXECUTE, { code: 'await tools.UserController_getUser({ params: { id: 424242 } })' });
        expect(failed.isError).toBe(true);
        expect(failed.texts.join('\n')).toContain('The program failed: Error: User 424242 not found');
      } finally {
        await client.close();
      }
    });
  }

  test('toolsets and readonly apply to a program’s calls: outside the selection, or a write on a read-only connection, is refused by name', async () => {
    await using(connect(eras[1], selectingURL(main.baseURL, { ...CODE, toolsets: 'UserController', readonly: '1' })), async (client) => {
      const code = `
        const outcomes = [];
        for (const call of [() => tools.UserController_getUser({ params: { id: 1 } }), () => tools.TaskController_listTasks(), () => tools.UserController_createUser({ body: { name: 'Never', email: 'never@example.com' } }), () => tools.no_such_tool()]) {
          try { await call(); outcomes.push('ok') } catch (error) { outcomes.push(error.message) }
        }
        return { outcomes, names: Object.keys(tools).sort() }`;
      const { result } = await execute(client, code);
      expect(result).toEqual({
        outcomes: [
          'ok',
          expect.stringMatching(/^Tool TaskController_listTasks is not in this connection's toolsets \(UserController\)/),
          expect.stringMatching(/^Tool UserController_createUser \(toolset UserController\) changes data, and this connection is read-only/),
          expect.stringMatching(/^Unknown tool no_such_tool/),
        ],
        names: ['UserController_getUser', 'UserController_listUsers'],
      });
      // On a read-only connection execute says it only reads.
      expect((await client.listTools()).find((tool) => tool.name === EXECUTE)?.annotations).toMatchObject({ readOnlyHint: true });
    });
  });
});

test.describe('a confirmation inside a program never makes a write run twice', () => {
  for (const era of eras) {
    test(`${era}: create a task, then delete another — accepted: exactly one task created and the other gone; declined: still one created, nothing deleted`, async () => {
      let answer: ElicitationAnswer = { action: 'accept', content: { confirm: true } };
      const questions: ElicitationRequest[] = [];
      const elicit = (question: ElicitationRequest) => {
        questions.push(question);
        return answer;
      };
      await using(connect(era, selectingURL(main.baseURL, CODE), { elicit }), async (client) => {
        for (const action of ['accept', 'decline'] as const) {
          if (action === 'decline') answer = { action: 'decline' };
          questions.length = 0;
          const victim = await createTask(main.baseURL, `To delete (${action})`);
          const title = `Made by a program (${era}, ${action}) ${Date.now()}`;
          const code = `
            const made = await tools.TaskController_createTask({ body: { title: ${JSON.stringify(title)} } });
            await tools.TaskController_deleteTask({ params: { id: ${victim.id} } });
            return made.title`;
          const outcome = await client.callTool(EXECUTE, { code });
          expect(questions.map((question) => question.message)).toEqual([`Delete the task “${victim.title}” (id ${victim.id})? It cannot be undone.`]);
          expect(await tasksTitled(main.baseURL, title)).toHaveLength(1);
          if (action === 'accept') {
            expect(outcome.structuredContent).toMatchObject({
              result: title,
              calls: [
                { tool: 'TaskController_createTask', ok: true },
                { tool: 'TaskController_deleteTask', ok: true },
              ],
            });
            expect(await restStatus(main.baseURL, `/api/tasks/${victim.id}`)).toBe(404);
          } else {
            expect(outcome.isError).toBe(true);
            expect(outcome.content[0].text).toMatch(/^The program failed: Error: Not done: the user declined the confirmation/);
            expect(await restStatus(main.baseURL, `/api/tasks/${victim.id}`)).toBe(200);
          }
        }
      });
    });
  }

  test('2026-07-28 by hand: the input_required answer names the inner call’s request; the re-sent call with its signed state runs the create once', async () => {
    const victim = await createTask(main.baseURL, 'To delete by hand');
    const title = `Made once by hand ${Date.now()}`;
    const code = `await tools.TaskController_createTask({ body: { title: ${JSON.stringify(title)} } }); await tools.TaskController_deleteTask({ params: { id: ${victim.id} } }); return 'done'`;
    const url = selectingURL(main.baseURL, CODE);
    const capabilities = { elicitation: { form: {} } };
    const first = await postMcp(url, modernToolCall(1, EXECUTE, { code }, { capabilities }), modernHeaders('tools/call', EXECUTE));
    const asked = first.message?.result as { resultType?: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(asked.resultType).toBe('input_required');
    expect(Object.keys(asked.inputRequests)).toEqual(['call2.confirmation']);
    expect(await tasksTitled(main.baseURL, title)).toHaveLength(1);
    const again = { capabilities, inputResponses: { 'call2.confirmation': { action: 'accept', content: { confirm: true } } }, requestState: asked.requestState };
    const second = await postMcp(url, modernToolCall(2, EXECUTE, { code }, again), modernHeaders('tools/call', EXECUTE));
    expect((second.message?.result as ToolResult).structuredContent).toMatchObject({ result: 'done' });
    expect(await tasksTitled(main.baseURL, title)).toHaveLength(1);
    expect(await restStatus(main.baseURL, `/api/tasks/${victim.id}`)).toBe(404);
    // A forged journal does not verify: the state is signed.
    const forged = { ...again, requestState: `${asked.requestState.slice(0, -4)}AAAA` };
    const third = await postMcp(url, modernToolCall(3, EXECUTE, { code }, forged), modernHeaders('tools/call', EXECUTE));
    expect(third.message?.error?.message).toMatch(/requestState/);
  });
});

test.describe('cancellation and progress of inner calls', () => {
  for (const era of eras) {
    test(`${era}: cancelling execute stops the inner call running`, async () => {
      const label = `code-cancel-${era.slice(0, 6)}`;
      await using(connect(era, selectingURL(main.baseURL, CODE)), async (client) => {
        const controller = new AbortController();
        const code = `await tools.FixtureController_countSlowly({ body: { to: 200, stepMs: 100, label: ${JSON.stringify(label)} } }); return 'finished'`;
        const call = client.callTool(EXECUTE, { code }, { signal: controller.signal, onprogress: () => controller.abort('enough') });
        await expect(call).rejects.toThrow();
        await expect.poll(() => countsRunning(main.baseURL, label), { timeout: 10_000 }).toBe(0);
        // The instance still serves programs.
        expect((await execute(client, 'return 1')).result).toBe(1);
      });
    });

    test(`${era}: inner progress surfaces as execute's, in order, naming the inner tool`, async () => {
      await using(connect(era, selectingURL(main.baseURL, CODE)), async (client) => {
        const seen: Progress[] = [];
        const code = `await tools.FixtureController_countSlowly({ body: { to: 3, stepMs: 30 } }); return (await tools.UserController_getUser({ params: { id: 1 } })).id`;
        expect((await execute(client, code, { onprogress: (progress) => void seen.push(progress) })).result).toBe(1);
        const steps = seen.map((progress) => progress.progress);
        expect(steps).toEqual([...steps].sort((a, b) => a - b));
        expect(new Set(steps).size).toBe(steps.length);
        const messages = seen.map((progress) => progress.message);
        expect(messages[0]).toBe('FixtureController_countSlowly: running');
        expect(messages).toContain('UserController_getUser: running');
        expect(messages.at(-1)).toMatch(/^UserController_getUser: done in [\d.]+ ms$/);
        // The count's own progress, between its start and its end.
        const own = messages.filter((message) => /^FixtureController_countSlowly: (?!running|done)/.test(message ?? ''));
        expect(own.length).toBeGreaterThan(0);
      });
    });
  }
});

test.describe('the sandbox and its limits, through the server', () => {
  test('the program reaches nothing of the host: process, require, fetch, timers absent; import() fails', async () => {
    await using(connect(eras[1], selectingURL(main.baseURL, CODE)), async (client) => {
      const names = ['process', 'require', 'fetch', 'setTimeout', 'setInterval', 'Buffer', 'XMLHttpRequest', 'WebSocket'];
      const { result } = await execute(client, `return ${JSON.stringify(names)}.map((name) => typeof globalThis[name]).concat(({}).constructor.constructor('return typeof process')())`);
      expect(result).toEqual([...names.map(() => 'undefined'), 'undefined']);
      expect(await failureOf(client, "await import('node:fs')")).toMatch(/^The program failed: .*fs/);
    });
  });

  test('limits end the program naming the setting: wall time, tool calls, result size, logs', async () => {
    await using(connect(eras[1], selectingURL(main.baseURL, CODE)), async (client) => {
      expect(await failureOf(client, 'while (true) {}')).toMatch(`The program was stopped: it passed the wall time limit of ${WALL_MS} ms (CODE_MODE_WALL_MS)`);
      expect(await failureOf(client, 'for (;;) await tools.sum_numbers({ a: 1, b: 1 })')).toMatch(
        new RegExp(`^The program was stopped: it passed the limit of ${MAX_CALLS} tool calls \\(CODE_MODE_MAX_CALLS\\)[\\s\\S]*\\nCalls: sum_numbers`),
      );
      expect(await failureOf(client, "return 'x'.repeat(300 * 1024)")).toMatch(/result size limit of 262144 bytes \(CODE_MODE_MAX_RESULT_BYTES\)/);
      expect(await failureOf(client, "for (;;) console.log('x'.repeat(1000))")).toMatch(/log size limit of 65536 bytes \(CODE_MODE_MAX_LOG_BYTES\)/);
      expect(await failureOf(client, "const keep = []; for (;;) keep.push({ n: Math.random() })")).toMatch(`memory limit of ${MEMORY_BYTES} bytes (CODE_MODE_MEMORY_BYTES)`);
    });
  });

  test('while a program loops, REST on the same instance answers (before the program ends)', async () => {
    await using(connect(eras[1], selectingURL(main.baseURL, CODE)), async (client) => {
      const order: string[] = [];
      const looping = client.callTool(EXECUTE, { code: 'while (true) {}' }).then((answer) => order.push(`execute ${answer.isError}`));
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 3; i++) {
        const reply = await fetch(`${main.baseURL}/api/users/1`);
        order.push(`REST ${reply.status}`);
      }
      await looping;
      expect(order).toEqual(['REST 200', 'REST 200', 'REST 200', 'execute true']);
    });
  });
});

test.describe('what one caller may hold', () => {
  test('CODE_MODE_MAX_PER_CALLER: a caller running 2 programs gets an error naming the limit for a third; another caller runs at once', async () => {
    const url = selectingURL(`http://127.0.0.1:${new URL(main.baseURL).port}`, CODE);
    const call = (id: number, code: string, localAddress: string) =>
      postMcp(url, modernToolCall(id, EXECUTE, { code }), modernHeaders('tools/call', EXECUTE), { localAddress });
    const label = 'code-per-caller';
    const slow = `await tools.FixtureController_countSlowly({ body: { to: 100, stepMs: 100, label: ${JSON.stringify(label)} } })`;
    const holding = [call(1, slow, '127.0.0.93'), call(2, slow, '127.0.0.93')];
    await expect.poll(() => countsRunning(main.baseURL, label), { timeout: 10_000 }).toBe(2);
    const third = await call(3, 'return 1', '127.0.0.93');
    expect(third.message?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Too many programs at once: this caller runs 2 already \(CODE_MODE_MAX_PER_CALLER\)/) }] });
    const other = await call(4, 'return 1', '127.0.0.94');
    expect((other.message?.result as ToolResult).structuredContent).toMatchObject({ result: 1 });
    // The two end at the wall time; then the caller runs again.
    for (const answer of await Promise.all(holding)) expect(JSON.stringify(answer.message)).toContain('CODE_MODE_WALL_MS');
    expect(((await call(5, 'return 2', '127.0.0.93')).message?.result as ToolResult).structuredContent).toMatchObject({ result: 2 });
  });
});

test.describe('what crosses is bounded by MCP_MAX_BODY_BYTES', () => {
  const BODY = 4096;
  let server: RunningServer;
  test.beforeAll(async () => {
    server = kept(await startServer(e2ePort + 255, { MCP_MAX_BODY_BYTES: String(BODY) }, 'test-results/code-mode-small-bodies.log'));
  });

  test('an inner call’s arguments larger than a request may be are refused; a confirmation after calls that returned too much to carry stops the program, nothing deleted', async () => {
    const elicit = () => ({ action: 'accept' as const, content: { confirm: true } });
    await using(connect(eras[1], selectingURL(server.baseURL, CODE), { elicit }), async (client) => {
      const big = `try { await tools.sum_numbers({ a: 1, b: 2, note: 'x'.repeat(${BODY}) }) } catch (error) { return error.message }`;
      expect((await execute(client, big)).result).toBe(`The arguments of sum_numbers are larger than a request may be (MCP_MAX_BODY_BYTES = ${BODY} bytes)`);
      const victim = await createTask(server.baseURL, 'Kept: the journal was too large');
      const code = `for (let i = 0; i < 20; i++) await tools.UserController_listUsers(); await tools.TaskController_deleteTask({ params: { id: ${victim.id} } }); return 'deleted'`;
      expect(await failureOf(client, code)).toMatch(/^The program was stopped: a call asks the user, but the calls before it returned too much .*MCP_MAX_BODY_BYTES = 4096/);
      expect(await restStatus(server.baseURL, `/api/tasks/${victim.id}`)).toBe(200);
      // Asked first, the same delete goes ahead.
      expect((await execute(client, `await tools.TaskController_deleteTask({ params: { id: ${victim.id} } }); return 'deleted'`)).result).toBe('deleted');
      expect(await restStatus(server.baseURL, `/api/tasks/${victim.id}`)).toBe(404);
    });
  });
});

test.describe('scopes of inner calls (OAuth on)', () => {
  let setup: OAuthGateway;
  test.beforeAll(async () => {
    setup = kept(await startOAuthGateway(e2ePort + 251));
  });
  const bearer = async (scope: string) => ({ authorization: `Bearer ${await scriptToken(setup.as, setup.resource, scope)}` });

  for (const era of eras) {
    test(`${era}: a token without gateway:write cannot create through execute (the call throws naming the scope); with it the program creates`, async () => {
      const base = setup.gateway.baseURL;
      const title = `Through execute over ${era} ${Date.now()}`;
      const code = `try { return await tools.TaskController_createTask({ body: { title: ${JSON.stringify(title)} } }) } catch (error) { return error.message }`;
      await using(connect(era, selectingURL(base, CODE), { headers: await bearer('gateway:read') }), async (client) => {
        expect((await execute(client, code)).result).toBe(
          'Tool TaskController_createTask needs the scope gateway:write, which this caller\'s token does not have (insufficient_scope)',
        );
        // search_tools finds only what the token allows.
        expect((await searchTools(client, 'create a task', 25)).map((hit) => hit.name)).not.toContain('TaskController_createTask');
      });
      await using(connect(era, selectingURL(base, CODE), { headers: await bearer('gateway:read gateway:write') }), async (client) => {
        expect((await execute(client, code)).result).toMatchObject({ title, createdBy: setup.as.clients.script.clientId });
      });
      const tasks = (await (await fetch(`${base}/api/tasks`, { headers: await bearer('gateway:read') })).json()) as Task[];
      expect(tasks.filter((task) => task.title === title)).toHaveLength(1);
    });
  }
});

test.describe('rate limits count inner calls', () => {
  const BURST = 3;
  let server: RunningServer;
  test.beforeAll(async () => {
    server = kept(
      await startServer(e2ePort + 252, { GATEWAY_RATE_LIMIT: '0.001', GATEWAY_RATE_LIMIT_BURST: String(BURST) }, 'test-results/code-mode-rate-limit.log'),
    );
  });

  test('GATEWAY_RATE_LIMIT: the execute request takes one, each inner call one more; past the burst an inner call throws Too Many Requests, and the next request gets 429', async () => {
    const flooder = `http://127.0.0.1:${new URL(server.baseURL).port}`;
    const code = `const outcomes = []; for (let i = 0; i < 3; i++) { try { outcomes.push(await tools.sum_numbers({ a: i, b: 1 })) } catch (error) { outcomes.push(error.message) } } return outcomes`;
    const localAddress = '127.0.0.61';
    const answer = await postMcp(selectingURL(flooder, CODE), modernToolCall(1, EXECUTE, { code }), modernHeaders('tools/call', EXECUTE), { localAddress });
    expect(answer.status).toBe(200);
    expect((answer.message?.result as ToolResult).structuredContent?.result).toEqual(['1', '2', expect.stringMatching(/^Too Many Requests/)]);
    const next = await postMcp(selectingURL(flooder, CODE), modernToolCall(2, EXECUTE, { code: 'return 1' }), modernHeaders('tools/call', EXECUTE), { localAddress });
    expect(next.status).toBe(429);
  });
});

test.describe('logs and spans of inner calls', () => {
  let receiver: OtlpReceiver;
  let server: RunningServer;
  const logFile = 'test-results/code-mode-tracing.log';
  test.beforeAll(async () => {
    ({ receiver, server } = kept(await startTracedServer(e2ePort + 253, e2ePort + 254, logFile)));
  });

  for (const era of eras) {
    test(`${era}: one span per inner call under execute's, and a log line per inner call in the trace of the execute request`, async () => {
      await using(connect(era, selectingURL(server.baseURL, CODE)), async (client) => {
        const code = `await tools.UserController_getUser({ params: { id: 1 } }); try { await tools.UserController_getUser({ params: { id: 424242 } }) } catch {} return 'ok'`;
        expect((await execute(client, code)).result).toBe('ok');
      });
      const isInner = ({ name, attributes }: ReceivedSpan) => name === 'tools/call UserController_getUser' && attributes['dev.vovk.called_through'] === EXECUTE;
      const parentOf = (span: ReceivedSpan) => receiver.spans.find((parent) => parent.spanId === span.parentSpanId);
      const spans = await receiver.waitFor('two inner getUser spans, each under its execute span', (all) => {
        const inner = all.filter(isInner).filter((span) => !seenTraces.has(span.traceId));
        return inner.length === 2 && inner.every((span) => parentOf(span));
      });
      const inner = spans.filter(isInner).filter((span) => !seenTraces.has(span.traceId));
      for (const span of inner) seenTraces.add(span.traceId);
      expect(inner.map((span) => span.statusCode).sort()).toEqual([0, 2]);
      expect(new Set(inner.map((span) => span.parentSpanId)).size).toBe(1);
      const parent = parentOf(inner[0])!;
      expect(parent.name).toBe(`${EXECUTE} program`);
      // mcp-handler's span of the execute call is in the same trace (it records it once the call is answered).
      expect(receiver.spans.some((span) => span.traceId === parent.traceId && span.name === `tools/call ${EXECUTE}`)).toBe(true);
      await expect
        .poll(() => logLinesOfTrace(logFile, parent.traceId).map(({ msg, tool, through, ok }) => ({ msg, tool, through, ok })))
        .toEqual([
          { msg: 'tool call', tool: 'UserController_getUser', through: EXECUTE, ok: true },
          { msg: 'tool call', tool: 'UserController_getUser', through: EXECUTE, ok: false },
          { msg: 'request', tool: EXECUTE, through: undefined, ok: undefined },
        ]);
    });
  }
});

/** Traces already checked by an earlier test of the tracing server (each test looks at its own). */
const seenTraces = new Set<string>();
