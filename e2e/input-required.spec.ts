// 2026-07-28 input_required round trips across instances: one shared GATEWAY_STATE_SECRET lets any instance take the
// retry; another secret, a changed byte or a state of another call is refused and nothing is deleted.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, test } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { modernHeaders, modernToolCall, postMcp, type RawAnswer } from './support/json-rpc';
import { createTask, restStatus } from './support/rest-data';
import { e2ePort, type RunningServer, startServer } from './support/server';

const SHARED_SECRET = 'e2e-shared-state-secret-of-at-least-32-bytes';
const ELICITATION = { elicitation: { form: {} } };
const DELETE_TASK = 'TaskController_deleteTask';

let database: TestDatabase;
/**
 * A and B share the secret; C has its own (random per process) and the conformance fixtures. All three share one
 * PostgreSQL database.
 */
let servers: Record<'A' | 'B' | 'C', RunningServer>;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  database = await createTestDatabase('postgres');
  const start = (name: string, offset: number, env: Record<string, string>) =>
    startServer(e2ePort + offset, { ...database.env, ...env }, `test-results/input-required-${name}.log`);
  const [A, B, C] = await Promise.all([
    start('A', 70, { GATEWAY_STATE_SECRET: SHARED_SECRET }),
    start('B', 71, { GATEWAY_STATE_SECRET: SHARED_SECRET }),
    // C also serves the conformance fixtures, whose procedures ask through askClient.
    start('C', 72, { MCP_CONFORMANCE: '1' }),
  ]);
  servers = { A, B, C };
});

test.afterAll(async () => {
  await Promise.all(Object.values(servers ?? {}).map((server) => server.stop()));
  await database?.drop();
});

/** A task of this test's own, created over REST on A; returns its id and its title (with a unique suffix). */
async function newTask(title: string): Promise<{ id: number; title: string }> {
  return createTask(servers.A.baseURL, title);
}

/** Whether the task still exists, read over REST on B. */
async function taskExists(id: number): Promise<boolean> {
  const status = await restStatus(servers.B.baseURL, `/api/tasks/${id}`);
  expect([200, 404]).toContain(status);
  return status === 200;
}

/** A first call of deleteTask by a client that can be asked: it must answer input_required; returns its requestState. */
async function askedToConfirm(baseURL: string, id: number): Promise<string> {
  const answer = await postMcp(baseURL, modernToolCall(1, DELETE_TASK, { params: { id } }, { capabilities: ELICITATION }), modernHeaders('tools/call', DELETE_TASK));
  expect(answer.message?.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirmation: { method: 'elicitation/create' } } });
  return (answer.message?.result as { requestState: string }).requestState;
}

/** The retry of deleteTask with the user's answer and `requestState`, sent to `baseURL`. */
function retry(baseURL: string, id: number, requestState: string, answer: object = { action: 'accept', content: { confirm: true } }): Promise<RawAnswer> {
  const call = modernToolCall(2, DELETE_TASK, { params: { id } }, { capabilities: ELICITATION, inputResponses: { confirmation: answer }, requestState });
  return postMcp(baseURL, call, modernHeaders('tools/call', DELETE_TASK));
}

test('the official v2 client completes confirmations whose retries land on the other instance (shared secret)', async () => {
  const hits = { A: 0, B: 0 };
  let next: 'A' | 'B' = 'A';
  // A load balancer without stickiness: every HTTP request goes to the other instance than the one before.
  const alternating: typeof fetch = (input, init) => {
    const target = next;
    next = next === 'A' ? 'B' : 'A';
    hits[target] += 1;
    const url = new URL(input instanceof Request ? input.url : input.toString());
    return fetch(new URL(url.pathname + url.search, servers[target].baseURL), init);
  };
  const client = new Client({ name: 'e2e-alternating', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: ELICITATION });
  const questions: string[] = [];
  let reply: 'decline' | 'accept' = 'decline';
  client.setRequestHandler('elicitation/create', async (asked) => {
    questions.push(asked.params.message);
    return reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', servers.A.baseURL), { fetch: alternating }));
  try {
    const { id, title } = await newTask('Confirm me across instances');
    const declined = await client.callTool({ name: DELETE_TASK, arguments: { params: { id } } });
    expect(declined).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('the user declined') }] });
    expect(await taskExists(id)).toBe(true);

    reply = 'accept';
    const accepted = await client.callTool({ name: DELETE_TASK, arguments: { params: { id } } });
    expect(accepted.isError).toBeFalsy();
    expect(accepted.structuredContent).toMatchObject({ id, title });
    expect(await taskExists(id)).toBe(false);
    expect(questions).toEqual([expect.stringContaining(`“${title}”`), expect.stringContaining(`“${title}”`)]);
    // Each call was two HTTP requests (the first answer and the retry), so each reached both instances.
    expect(hits.A).toBeGreaterThanOrEqual(2);
    expect(hits.B).toBeGreaterThanOrEqual(2);
  } finally {
    await client.close();
  }
});

test('a raw retry on the instance with the shared secret is accepted', async () => {
  const { id } = await newTask('Minted on A, confirmed on B');
  const state = await askedToConfirm(servers.A.baseURL, id);
  const answer = await retry(servers.B.baseURL, id, state);
  expect(answer.message?.result).toMatchObject({ structuredContent: { id } });
  expect(await taskExists(id)).toBe(false);
});

test('an instance with another secret refuses the state (-32602) and deletes nothing', async () => {
  const { id } = await newTask('Minted on A, sent to C');
  const state = await askedToConfirm(servers.A.baseURL, id);
  const answer = await retry(servers.C.baseURL, id, state);
  expect(answer.message?.error).toMatchObject({ code: -32602, message: expect.stringMatching(/requestState/) });
  expect(answer.text).not.toMatch(/at .+\.js:\d+/);
  expect(await taskExists(id)).toBe(true);
});

test('a forged state — one byte changed, or a state of another call — is refused and deletes nothing', async () => {
  const { id } = await newTask('Forged state target');
  const { id: other } = await newTask('Another task');
  const state = await askedToConfirm(servers.A.baseURL, id);
  const flipped = state.slice(0, -3) + (state.at(-3) === 'A' ? 'B' : 'A') + state.slice(-2);
  const forged = await retry(servers.A.baseURL, id, flipped);
  expect(forged.message?.error).toMatchObject({ code: -32602 });

  // A genuine state of the call on `id`, replayed to delete `other`: refused by the call, as an error result.
  const foreign = await retry(servers.A.baseURL, other, state);
  expect(foreign.message?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/issued for another tool call/) }] });

  // Not a JSON string at all.
  const garbage = await retry(servers.A.baseURL, id, 'not-a-state');
  expect(garbage.message?.error).toMatchObject({ code: -32602 });
  expect(await taskExists(id)).toBe(true);
  expect(await taskExists(other)).toBe(true);
});

test('declining on the retry keeps the task; the REST door never asks', async () => {
  const { id } = await newTask('Declined on the retry');
  const state = await askedToConfirm(servers.B.baseURL, id);
  const declined = await retry(servers.A.baseURL, id, state, { action: 'decline' });
  expect(declined.message?.result).toMatchObject({
    isError: true,
    content: [{ text: expect.stringContaining('the user declined the confirmation, so nothing was changed') }],
  });
  expect(await taskExists(id)).toBe(true);
  expect((await fetch(`${servers.C.baseURL}/api/tasks/${id}`, { method: 'DELETE' })).status).toBe(200);
  expect(await taskExists(id)).toBe(false);
});

test('a procedure that asks the client: REST answers 400 saying so; MCP asks a client that can be asked, and the SDK refuses one that cannot', async () => {
  const rest = await fetch(`${servers.C.baseURL}/api/conformance/input/elicitation`);
  expect(rest.status).toBe(400);
  expect((await rest.json()).message).toMatch(/only an MCP client can give: call it as an MCP tool/);

  const tool = 'test_input_required_result_elicitation';
  const asked = await postMcp(servers.C.baseURL, modernToolCall(1, tool, {}, { capabilities: ELICITATION }), modernHeaders('tools/call', tool));
  expect(asked.message?.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
  const refused = await postMcp(servers.C.baseURL, modernToolCall(2, tool, {}), modernHeaders('tools/call', tool));
  expect(refused.message?.error).toMatchObject({ code: -32021 });
});
