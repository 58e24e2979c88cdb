// Work that outlasts a request, end to end: REST jobs (Prefer: respond-async), MCP tasks through the official Tasks
// requester (2026-07-28) and 2025-era clients, progress and cancellation on every lane, bad input, and tasks shared by
// three instances on one PostgreSQL (list changes between them too), one of them killed with -9.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskPayloadResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { expect, test } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { eventsOf, mcpHeaders, modernEnvelope, modernHeaders, toolCall } from './support/json-rpc';
import { listenForListChanges } from './support/mcp';
import { SignedInUser, scriptToken, startOAuthGateway } from './support/oauth';
import { e2ePort, type RunningServer, startServer } from './support/server';
import { connectTaskClient, countsRunning, taskRequest } from './support/tasks';

const COUNT = 'FixtureController_countSlowly';
const countArgs = (to: number, stepMs = 100, extra: Record<string, unknown> = {}) => ({ body: { to, stepMs, ...extra } });

type Job = { id: string; status: string; progress: { done: number; total?: number; message?: string }; result?: unknown; error?: Record<string, unknown> };

/** POSTs a count with `Prefer: respond-async`. */
async function startCountJob(baseURL: string, body: Record<string, unknown>) {
  return fetch(`${baseURL}/api/fixture/count`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify(body),
  });
}

const getJob = async (baseURL: string, id: string) => fetch(`${baseURL}/api/jobs/${id}`);



test.describe('REST jobs: Prefer: respond-async', () => {
  test('202 with Location and the job; GET follows its progress to the result; without the header the call is synchronous', async ({ baseURL }) => {
    const response = await startCountJob(baseURL!, { to: 6, stepMs: 150 });
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('respond-async');
    const job = (await response.json()) as Job;
    expect(response.headers.get('location')).toBe(`/api/jobs/${job.id}`);
    expect(job).toMatchObject({ status: 'working', progress: { done: 0 } });
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          const current = (await (await getJob(baseURL!, job.id)).json()) as Job;
          seen.push(current.progress.done);
          return current.status;
        },
        { timeout: 15_000, intervals: [100] },
      )
      .toBe('completed');
    const done = (await (await getJob(baseURL!, job.id)).json()) as Job;
    expect(done).toMatchObject({ status: 'completed', result: { counted: 6 }, progress: { done: 6, total: 6, message: '6 of 6 counted' } });
    expect(seen.some((value) => value > 0 && value < 6)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b)); // monotonic
    const synchronous = await fetch(`${baseURL}/api/fixture/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 1, stepMs: 0 }),
    });
    expect([synchronous.status, await synchronous.json()]).toEqual([200, { counted: 1 }]);
  });

  test('DELETE of a running job: 202 and cancelled, its work stops; of a finished one 409 naming its status; unknown id 404', async ({ baseURL }) => {
    const label = 'rest-cancel';
    const job = (await (await startCountJob(baseURL!, { to: 100, stepMs: 100, label })).json()) as Job;
    await expect.poll(async () => ((await (await getJob(baseURL!, job.id)).json()) as Job).progress.done, { timeout: 10_000 }).toBeGreaterThan(0);
    const cancel = await fetch(`${baseURL}/api/jobs/${job.id}`, { method: 'DELETE' });
    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toMatchObject({ id: job.id, status: 'cancelled' });
    expect(((await (await getJob(baseURL!, job.id)).json()) as Job).status).toBe('cancelled');
    await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(0);
    const again = await fetch(`${baseURL}/api/jobs/${job.id}`, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toContain('(cancelled)');
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'no-such-job']) {
      expect((await getJob(baseURL!, unknown)).status, unknown).toBe(404);
      expect((await fetch(`${baseURL}/api/jobs/${unknown}`, { method: 'DELETE' })).status, unknown).toBe(404);
    }
  });

  test('a synchronous call whose client disconnects stops its work', async ({ baseURL }) => {
    const label = 'rest-disconnect';
    const controller = new AbortController();
    const call = fetch(`${baseURL}/api/fixture/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 200, stepMs: 100, label }),
      signal: controller.signal,
    });
    await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(0);
  });

  test('a failing job ends failed with the error body the synchronous call answers', async ({ baseURL }) => {
    const job = (await (await startCountJob(baseURL!, { to: 1, stepMs: 10, fail: 'http' })).json()) as Job;
    await expect.poll(async () => ((await (await getJob(baseURL!, job.id)).json()) as Job).status, { timeout: 10_000 }).toBe('failed');
    expect(((await (await getJob(baseURL!, job.id)).json()) as Job).error).toEqual({ statusCode: 422, message: 'Counting failed at 1' });
    const synchronous = await fetch(`${baseURL}/api/fixture/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 1, stepMs: 10, fail: 'http' }),
    });
    expect(synchronous.status).toBe(422);
  });
});

test.describe('MCP tasks (2026-07-28) through the official Tasks requester', () => {
  test('a task-capable call becomes a task, polled to its result, with progress in its status message', async ({ baseURL }) => {
    const { session, close } = await connectTaskClient(baseURL!);
    try {
      const execution = await session.callTool(COUNT, countArgs(8, 200));
      expect(execution.kind).toBe('task');
      const settled = execution.settle();
      const messages: string[] = [];
      await expect
        .poll(
          async () => {
            const { result } = await taskRequest(baseURL!, 'tasks/get', { taskId: execution.handle!.taskId });
            if (result?.statusMessage) messages.push(String(result.statusMessage));
            return result?.status;
          },
          { timeout: 15_000, intervals: [100] },
        )
        .toBe('completed');
      const { outcome } = await settled;
      const result = resultFromTaskOutcome(outcome) as { structuredContent?: unknown; isError?: boolean };
      expect(result.structuredContent).toEqual({ counted: 8 });
      expect(result.isError).toBeFalsy();
      expect(messages.some((message) => /^[1-7] of 8 counted$/.test(message))).toBe(true);
    } finally {
      await close();
    }
  });

  test('cancelling a task mid-way: it ends cancelled and its work stops', async ({ baseURL }) => {
    const { session, close } = await connectTaskClient(baseURL!);
    try {
      const label = 'requester-cancel';
      const execution = await session.callTool(COUNT, countArgs(200, 100, { label }));
      expect(execution.kind).toBe('task');
      await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(1);
      await execution.cancel();
      const { result } = await taskRequest(baseURL!, 'tasks/get', { taskId: execution.handle!.taskId });
      expect(result?.status).toBe('cancelled');
      await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(0);
    } finally {
      await close();
    }
  });

  test('a task asks for input (input_required), the requester answers with tasks/update, the task completes', async ({ baseURL }) => {
    const asked: string[] = [];
    const { session, close } = await connectTaskClient(baseURL!, {
      elicit: (params) => {
        asked.push(String(params.message));
        return { action: 'accept', content: { go: true } };
      },
    });
    try {
      const execution = await session.callTool(COUNT, countArgs(2, 50, { ask: true }));
      const { outcome } = await execution.settle();
      expect((resultFromTaskOutcome(outcome) as { structuredContent?: unknown }).structuredContent).toEqual({ counted: 2, answer: 'accept' });
      expect(asked).toEqual(['Count now?']);
    } finally {
      await close();
    }
  });

  test('a tool error inside a task completes it with the isError result; without the extension the call answers at once', async ({ baseURL }) => {
    const created = await taskRequest(baseURL!, 'tools/call', { name: COUNT, arguments: countArgs(1, 10, { fail: 'http' }) });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.result!.taskId);
    await expect.poll(async () => (await taskRequest(baseURL!, 'tasks/get', { taskId })).result?.status, { timeout: 10_000 }).toBe('completed');
    const { result } = await taskRequest(baseURL!, 'tasks/get', { taskId });
    expect(result?.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Counting failed at 1' }] });
    const direct = await taskRequest(baseURL!, 'tools/call', { name: COUNT, arguments: countArgs(1, 10) }, { declare: false });
    expect(direct.result).toMatchObject({ structuredContent: { counted: 1 } });
    expect(direct.result).not.toHaveProperty('taskId');
  });

  test('bad input gets the protocol’s errors: unknown task, tasks/update of a task not waiting for input, malformed params, no extension, refused arguments', async ({ baseURL }) => {
    const unknown = await taskRequest(baseURL!, 'tasks/get', { taskId: 'no-such-task' });
    expect(unknown.error?.code).toBe(-32602);
    const created = await taskRequest(baseURL!, 'tools/call', { name: COUNT, arguments: countArgs(30, 100) });
    const taskId = String(created.result!.taskId);
    const update = await taskRequest(baseURL!, 'tasks/update', { taskId, inputResponses: { goAhead: { action: 'accept', content: { go: true } } } });
    expect(update.error?.code).toBe(-32602);
    expect(update.error?.message).toContain('not waiting for input');
    expect((await taskRequest(baseURL!, 'tasks/get', { taskId })).result?.status).toBe('working');
    const malformed = await taskRequest(baseURL!, 'tasks/get', { task: 42 });
    expect(malformed.error?.code).toBe(-32602);
    const undeclared = await taskRequest(baseURL!, 'tasks/get', { taskId }, { declare: false });
    expect(undeclared.error?.code).toBe(-32021);
    // Arguments the tool refuses make no task: the error result of any call, naming the problem (a model can correct it).
    const badArguments = await taskRequest(baseURL!, 'tools/call', { name: COUNT, arguments: { body: { to: 'many' } } });
    expect(badArguments.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Input validation error: .*body\.to/) }] });
    expect(badArguments.result).not.toHaveProperty('taskId');
    expect((await taskRequest(baseURL!, 'tasks/cancel', { taskId })).result).toEqual(expect.objectContaining({ resultType: 'complete' }));
  });
});

test.describe('task notifications on a listen stream (2026-07-28)', () => {
  const listen = (baseURL: string, taskIds: string[], capabilities: object, signal?: AbortSignal) =>
    fetch(`${baseURL}/api/mcp`, {
      method: 'POST',
      headers: modernHeaders('subscriptions/listen'),
      signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds }, _meta: modernEnvelope(capabilities) },
      }),
    });

  test('a taskIds filter is acknowledged with the caller’s tasks, and each change arrives as notifications/tasks', async ({ baseURL }) => {
    const created = await taskRequest(baseURL!, 'tools/call', { name: COUNT, arguments: countArgs(3, 200) });
    const taskId = String(created.result!.taskId);
    const controller = new AbortController();
    const response = await listen(baseURL!, [taskId, 'not-a-task'], { extensions: { 'io.modelcontextprotocol/tasks': {} } }, controller.signal);
    try {
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const events = eventsOf(response);
      const [ack] = await events.until((event) => event.message?.method === 'notifications/subscriptions/acknowledged');
      expect(ack.message?.params?.notifications).toEqual({ taskIds: [taskId] });
      const pushed = await events.until((event) => event.message?.method === 'notifications/tasks' && event.message.params?.status === 'completed');
      const last = pushed.at(-1)!.message!.params!;
      expect(last).toMatchObject({ taskId, status: 'completed', result: { structuredContent: { counted: 3 } } });
      expect(pushed.some((event) => event.message?.params?.status === 'working')).toBe(true);
    } finally {
      controller.abort();
    }
  });

  test('without the Tasks extension a taskIds filter is refused with -32021', async ({ baseURL }) => {
    const response = await listen(baseURL!, ['any'], {});
    const body = (await response.json()) as { error?: { code: number } };
    expect(body.error?.code).toBe(-32021);
  });
});

test.describe('2025-11-25 tasks on a session (SDK v1 client)', () => {
  test('params.task makes a task: tasks/get, tasks/list, tasks/result (input asked over the session), tasks/cancel, status notifications', async ({ baseURL }) => {
    const asked: unknown[] = [];
    const client = new ClientV1({ name: 'e2e-v1-tasks', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params._meta);
      return { action: 'accept', content: { go: true } };
    });
    const statuses: string[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === 'notifications/tasks/status') statuses.push(String(notification.params?.status));
    };
    const transport = new TransportV1(new URL('/api/mcp', baseURL));
    await client.connect(transport);
    const call = (args: Record<string, unknown>) =>
      client.request({ method: 'tools/call', params: { name: COUNT, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    try {
      expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const listed = (await client.listTools()).tools.find((tool) => tool.name === COUNT);
      expect(listed?.execution).toEqual({ taskSupport: 'optional' });
      const { task } = await call(countArgs(3, 150));
      expect(task.status).toBe('working');
      expect((await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema)).taskId).toBe(task.taskId);
      const { tasks } = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
      expect(tasks.map((listedTask) => listedTask.taskId)).toContain(task.taskId);
      const result = await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, GetTaskPayloadResultSchema);
      expect(result).toMatchObject({ structuredContent: { counted: 3 }, _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } } });
      const asking = await call(countArgs(1, 10, { ask: true }));
      const answered = await client.request({ method: 'tasks/result', params: { taskId: asking.task.taskId } }, GetTaskPayloadResultSchema);
      expect(answered).toMatchObject({ structuredContent: { counted: 1, answer: 'accept' } });
      expect(asked).toEqual([{ 'io.modelcontextprotocol/related-task': { taskId: asking.task.taskId } }]);
      const long = await call(countArgs(200, 100, { label: 'v1-task-cancel' }));
      const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: long.task.taskId } }, CancelTaskResultSchema);
      expect(cancelled.status).toBe('cancelled');
      await expect(client.request({ method: 'tasks/cancel', params: { taskId: long.task.taskId } }, CancelTaskResultSchema)).rejects.toThrow(
        /already ended \(cancelled\)/,
      );
      await expect(client.request({ method: 'tasks/get', params: { taskId: 'nope' } }, GetTaskResultSchema)).rejects.toThrow(/-32602/);
      await expect.poll(() => countsRunning(baseURL!, 'v1-task-cancel'), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => statuses, { timeout: 5000 }).toEqual(expect.arrayContaining(['working', 'input_required', 'completed', 'cancelled']));
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});

test.describe('progress and cancellation within a call, on every lane', () => {
  test('2026-07-28: the v2 client gets notifications/progress, monotonic', async ({ baseURL }) => {
    const client = new ClientV2({ name: 'e2e-progress', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2(new URL('/api/mcp', baseURL)) as never);
    try {
      const seen: number[] = [];
      const result = await client.callTool({ name: COUNT, arguments: countArgs(4, 300) }, { onprogress: ({ progress }) => void seen.push(progress) });
      expect(result.structuredContent).toEqual({ counted: 4 });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.at(-1)).toBe(4);
    } finally {
      await client.close();
    }
  });

  test('2025 stateless lane: a progressToken gets notifications/progress on the SSE reply', async ({ baseURL }) => {
    const call = toolCall(7, COUNT, countArgs(3, 300));
    const body = { ...call, params: { ...call.params, _meta: { progressToken: 'p-1' } } };
    const response = await fetch(`${baseURL}/api/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    });
    const events = await eventsOf(response).until((event) => event.message?.id === 7);
    const progress = events.filter((event) => event.message?.method === 'notifications/progress').map((event) => event.message!.params!);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((params) => params.progressToken === 'p-1' && params.total === 3)).toBe(true);
    expect(events.at(-1)?.message?.result).toMatchObject({ structuredContent: { counted: 3 } });
  });

  test('2025 session (v1 client): progress, then a cancel (notifications/cancelled) stops the work', async ({ baseURL }) => {
    const client = new ClientV1({ name: 'e2e-v1-progress', version: '1.0.0' });
    const transport = new TransportV1(new URL('/api/mcp', baseURL));
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeTruthy();
      const seen: number[] = [];
      const result = await client.callTool({ name: COUNT, arguments: countArgs(3, 300) }, CallToolResultSchema, {
        onprogress: ({ progress }) => void seen.push(progress),
      });
      expect(result.structuredContent).toEqual({ counted: 3 });
      expect(seen.at(-1)).toBe(3);
      const label = 'session-cancel';
      const controller = new AbortController();
      const cancelled = client.callTool({ name: COUNT, arguments: countArgs(200, 100, { label }) }, CallToolResultSchema, {
        signal: controller.signal,
        onprogress: () => controller.abort('enough'),
      });
      await expect(cancelled).rejects.toThrow();
      await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(0);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  test('2026-07-28: dropping the HTTP request of a call stops its work', async ({ baseURL }) => {
    const client = new ClientV2({ name: 'e2e-drop', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2(new URL('/api/mcp', baseURL)) as never);
    try {
      const label = 'dropped-call';
      const controller = new AbortController();
      const call = client.callTool(
        { name: COUNT, arguments: countArgs(200, 100, { label }) },
        { signal: controller.signal, onprogress: () => controller.abort() },
      );
      await expect(call).rejects.toThrow();
      await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(0);
    } finally {
      await client.close();
    }
  });
});

test.describe('bound to the caller, and bounded, on both doors', () => {
  test('another principal reads and cancels neither a REST job nor an MCP task: 404 and -32602', async () => {
    test.setTimeout(60_000);
    const setup = await startOAuthGateway(e2ePort + 84);
    try {
      const base = setup.gateway.baseURL;
      const script = { authorization: `Bearer ${await scriptToken(setup.as, setup.resource, 'gateway:read gateway:write')}` };
      const user = new SignedInUser(setup.as, `${base}/oauth/callback`);
      const transport = new TransportV1(new URL('/api/mcp', base), { authProvider: user });
      await expect(new ClientV1({ name: 'e2e-ada', version: '1.0.0' }).connect(transport)).rejects.toThrow(/unauthorized/i);
      await transport.finishAuth((await user.signIn()).get('code')!);
      const ada = { authorization: `Bearer ${user.tokens()!.access_token}` };

      const job = (await (
        await fetch(`${base}/api/fixture/count`, {
          method: 'POST',
          headers: { ...script, 'content-type': 'application/json', prefer: 'respond-async' },
          body: JSON.stringify({ to: 300, stepMs: 100 }),
        })
      ).json()) as Job;
      expect((await fetch(`${base}/api/jobs/${job.id}`, { headers: ada })).status).toBe(404);
      // Ada's token may only read (403 names the scope); either way the job is not hers to cancel, and goes on.
      expect([403, 404]).toContain((await fetch(`${base}/api/jobs/${job.id}`, { method: 'DELETE', headers: ada })).status);
      expect(((await (await fetch(`${base}/api/jobs/${job.id}`, { headers: script })).json()) as Job).status).toBe('working');

      const created = await taskRequest(base, 'tools/call', { name: COUNT, arguments: countArgs(300, 100) }, { headers: script });
      const taskId = String(created.result!.taskId);
      expect((await taskRequest(base, 'tasks/get', { taskId }, { headers: ada })).error?.code).toBe(-32602);
      expect((await taskRequest(base, 'tasks/cancel', { taskId }, { headers: ada })).error?.code).toBe(-32602);
      expect((await taskRequest(base, 'tasks/get', { taskId }, { headers: script })).result?.status).toBe('working');
      expect((await fetch(`${base}/api/jobs/${job.id}`, { method: 'DELETE', headers: script })).status).toBe(202);
      expect((await taskRequest(base, 'tasks/cancel', { taskId }, { headers: script })).result?.resultType).toBe('complete');
    } finally {
      await setup.stop();
    }
  });

  test('JOB_MAX_PER_CALLER: one job or task more is refused, REST 429 and MCP isError, until one ends', async () => {
    const server = await startServer(e2ePort + 85, { JOB_MAX_PER_CALLER: '1' }, 'test-results/tasks-limits.log');
    try {
      const first = (await (await startCountJob(server.baseURL, { to: 300, stepMs: 100 })).json()) as Job;
      const refused = await startCountJob(server.baseURL, { to: 1, stepMs: 0 });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { message: string }).message).toContain('JOB_MAX_PER_CALLER');
      const task = await taskRequest(server.baseURL, 'tools/call', { name: COUNT, arguments: countArgs(1, 0) });
      expect(task.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('Too many jobs') }] });
      expect((await fetch(`${server.baseURL}/api/jobs/${first.id}`, { method: 'DELETE' })).status).toBe(202);
      const again = await taskRequest(server.baseURL, 'tools/call', { name: COUNT, arguments: countArgs(1, 0) });
      expect(again.result?.resultType).toBe('task');
    } finally {
      await server.stop();
    }
  });
});

test('SQLite: a job whose instance was killed (-9) turns failed, saying why, once an instance runs on the file again', async () => {
  test.setTimeout(60_000);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-jobs-')), 'gateway.db');
  const first = await startServer(e2ePort + 86, { DATABASE_FILE: file }, 'test-results/tasks-sqlite-1.log');
  const job = (await (await startCountJob(first.baseURL, { to: 600, stepMs: 100, label: 'sqlite-kill' })).json()) as Job;
  await expect.poll(() => countsRunning(first.baseURL, 'sqlite-kill'), { timeout: 10_000 }).toBe(1);
  process.kill(first.pid, 'SIGKILL');
  await first.exited;
  const killedAt = Date.now();
  const second = await startServer(e2ePort + 86, { DATABASE_FILE: file }, 'test-results/tasks-sqlite-2.log');
  try {
    await expect.poll(async () => ((await (await getJob(second.baseURL, job.id)).json()) as Job).status, { timeout: 20_000, intervals: [250] }).toBe('failed');
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    const failed = (await (await getJob(second.baseURL, job.id)).json()) as Job & { statusMessage?: string };
    expect(failed.statusMessage).toContain('stopped unexpectedly');
  } finally {
    await second.stop();
  }
});

test.describe('tasks shared by three instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let servers: RunningServer[] = [];
  test.beforeAll(async () => {
    database = await createTestDatabase('postgres');
    servers = await Promise.all(
      // MCP_CONFORMANCE=1 adds the fixture that announces a tool list change (GET /api/conformance/input/tool-change).
      [80, 81, 82].map((offset) =>
        startServer(e2ePort + offset, { ...database.env, MCP_CONFORMANCE: '1' }, `test-results/tasks-pg-${offset}.log`),
      ),
    );
  });
  test.afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  test('created on A, read on B, cancelled on C; a REST job too', async () => {
    const [a, b, c] = servers.map((server) => server.baseURL);
    const created = await taskRequest(a, 'tools/call', { name: COUNT, arguments: countArgs(300, 100, { label: 'pg' }) });
    const taskId = String(created.result!.taskId);
    await expect.poll(async () => (await taskRequest(b, 'tasks/get', { taskId })).result?.statusMessage, { timeout: 10_000 }).toMatch(/counted$/);
    expect((await taskRequest(c, 'tasks/cancel', { taskId })).result?.resultType).toBe('complete');
    expect((await taskRequest(b, 'tasks/get', { taskId })).result?.status).toBe('cancelled');
    await expect.poll(() => countsRunning(a, 'pg'), { timeout: 10_000 }).toBe(0);
    const job = (await (await startCountJob(b, { to: 300, stepMs: 100, label: 'pg' })).json()) as Job;
    expect((await getJob(c, job.id)).status).toBe(200);
    expect((await fetch(`${a}/api/jobs/${job.id}`, { method: 'DELETE' })).status).toBe(202);
    await expect.poll(() => countsRunning(b, 'pg'), { timeout: 10_000 }).toBe(0);
  });

  test('a list change announced on one instance reaches listen streams on another (the event bus over LISTEN/NOTIFY)', async () => {
    const [a, b] = servers.map((server) => server.baseURL);
    const stream = await listenForListChanges(a);
    try {
      expect((await fetch(`${b}/api/conformance/input/tool-change`)).status).toBe(200);
      await expect.poll(() => stream.received, { timeout: 10_000 }).toContain('notifications/tools/list_changed');
    } finally {
      await stream.close();
    }
  });

  test('SIGTERM of the instance running a task and a job: they get the grace, then end failed saying it shut down', async () => {
    const stopping = await startServer(e2ePort + 83, { ...database.env, SHUTDOWN_GRACE_MS: '1500' }, 'test-results/tasks-pg-83.log');
    const [, b] = servers.map((server) => server.baseURL);
    const created = await taskRequest(stopping.baseURL, 'tools/call', { name: COUNT, arguments: countArgs(600, 100, { label: 'term' }) });
    const taskId = String(created.result!.taskId);
    const job = (await (await startCountJob(stopping.baseURL, { to: 600, stepMs: 100, label: 'term' })).json()) as Job;
    await expect.poll(() => countsRunning(stopping.baseURL, 'term'), { timeout: 10_000 }).toBe(2);
    process.kill(stopping.pid, 'SIGTERM');
    expect(await stopping.exited).toEqual({ code: 0, signal: null });
    const { result } = await taskRequest(b, 'tasks/get', { taskId });
    expect(result).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('shut down') });
    expect(((await (await getJob(b, job.id)).json()) as Job).status).toBe('failed');
  });

  test('kill -9 of the instance running a task: it turns failed on the others, saying why, within 15 s', async () => {
    const [, b, c] = servers.map((server) => server.baseURL);
    const created = await taskRequest(c, 'tools/call', { name: COUNT, arguments: countArgs(600, 100, { label: 'killed' }) });
    const taskId = String(created.result!.taskId);
    await expect.poll(() => countsRunning(c, 'killed'), { timeout: 10_000 }).toBe(1);
    process.kill(servers[2].pid, 'SIGKILL');
    await servers[2].exited;
    const killedAt = Date.now();
    await expect.poll(async () => (await taskRequest(b, 'tasks/get', { taskId })).result?.status, { timeout: 20_000, intervals: [250] }).toBe('failed');
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    const { result } = await taskRequest(b, 'tasks/get', { taskId });
    expect(result?.statusMessage).toContain('stopped unexpectedly');
    expect(result?.error).toMatchObject({ code: -32603 });
  });
});
