// Destructive tools ask first: the official v2 client (2026-07-28) is asked to confirm a delete through elicitation;
// declined or cancelled nothing changes, accepted it acts; plain clients, REST and MCP_CONFIRM_DESTRUCTIVE=0 aren't asked.
import { expect, test } from '@playwright/test';
import { connect, type ElicitationAnswer, type ElicitationRequest, type GatewayClient } from './support/mcp';
import { createTask, createUser, restStatus } from './support/rest-data';
import { e2ePort, type RunningServer, startServer } from './support/server';

const ERA = 'client-v2 (2026-07-28)';

/** A client that can be asked: it answers every question with `answer` and keeps the questions it was asked. */
async function askedClient(
  baseURL: string,
  answer: ElicitationAnswer,
): Promise<{ client: GatewayClient; questions: ElicitationRequest[] }> {
  const questions: ElicitationRequest[] = [];
  const client = await connect(ERA, baseURL, {
    elicit: (request) => {
      questions.push(request);
      return answer;
    },
  });
  return { client, questions };
}

/** Runs `use` with a client and closes it, whatever happens. */
async function using<T extends { client: GatewayClient }, R>(
  opened: Promise<T>,
  use: (opened: T) => Promise<R>,
): Promise<R> {
  const value = await opened;
  try {
    return await use(value);
  } finally {
    await value.client.close();
  }
}

const deleteTask = (client: GatewayClient, id: number) =>
  client.callTool('TaskController_deleteTask', { params: { id } });
const deleteUser = (client: GatewayClient, id: number) =>
  client.callTool('UserController_deleteUser', { params: { id } });

/** The one question a confirmation asks: its message, and a form with a single yes/no field. */
function expectConfirmation(questions: ElicitationRequest[], ...named: string[]): void {
  expect(questions, 'asked exactly once').toHaveLength(1);
  for (const text of named) expect(questions[0].message).toContain(text);
  expect(questions[0].requestedSchema).toMatchObject({ type: 'object', properties: { confirm: { type: 'boolean' } } });
}

const notDone = (answer: 'declined' | 'cancelled') => ({
  content: [
    { type: 'text', text: expect.stringMatching(new RegExp(`^Not done: the user ${answer} the confirmation`)) },
  ],
  isError: true,
});

for (const [action, answer, doing] of [
  ['decline', 'declined', 'declining'],
  ['cancel', 'cancelled', 'cancelling'],
] as const) {
  test(`${doing} a task's delete keeps the task, and the result says so`, async ({ baseURL }) => {
    const task = await createTask(baseURL!, `Keep me (${action})`);
    await using(askedClient(baseURL!, { action }), async ({ client, questions }) => {
      expect(await deleteTask(client, task.id)).toEqual(notDone(answer));
      expectConfirmation(questions, `“${task.title}”`, `id ${task.id}`);
    });
    expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(200);
  });
}

test('accepting with the box unticked counts as declining: the task stays', async ({ baseURL }) => {
  const task = await createTask(baseURL!, 'Keep me (unticked)');
  await using(
    askedClient(baseURL!, { action: 'accept', content: { confirm: false } }),
    async ({ client, questions }) => {
      expect(await deleteTask(client, task.id)).toEqual(notDone('declined'));
      expectConfirmation(questions, `“${task.title}”`);
    },
  );
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(200);
});

test('accepting deletes the task; the question named it and was asked once', async ({ baseURL }) => {
  const task = await createTask(baseURL!, 'Delete me once confirmed');
  await using(
    askedClient(baseURL!, { action: 'accept', content: { confirm: true } }),
    async ({ client, questions }) => {
      const result = await deleteTask(client, task.id);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual(task);
      expectConfirmation(questions, `Delete the task “${task.title}” (id ${task.id})?`);
    },
  );
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(404);
});

test('a client without the elicitation capability deletes without being asked', async ({ baseURL }) => {
  const task = await createTask(baseURL!, 'Delete me without a question');
  const client = await connect(ERA, baseURL!);
  try {
    const result = await deleteTask(client, task.id);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(task);
  } finally {
    await client.close();
  }
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(404);
});

test('deleting a user asks too, naming the user: declined they stay, accepted they are gone', async ({ baseURL }) => {
  const user = await createUser(baseURL!, 'Grace Hopper');
  await using(askedClient(baseURL!, { action: 'decline' }), async ({ client, questions }) => {
    expect(await deleteUser(client, user.id)).toEqual(notDone('declined'));
    expectConfirmation(questions, `Delete the user ${user.name} (id ${user.id})?`);
  });
  expect(await restStatus(baseURL!, `/api/users/${user.id}`)).toBe(200);

  await using(
    askedClient(baseURL!, { action: 'accept', content: { confirm: true } }),
    async ({ client, questions }) => {
      const result = await deleteUser(client, user.id);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ user });
      expectConfirmation(questions, user.name);
    },
  );
  expect(await restStatus(baseURL!, `/api/users/${user.id}`)).toBe(404);
});

test('an unknown task is not asked about: the tool error comes first', async ({ baseURL }) => {
  await using(
    askedClient(baseURL!, { action: 'accept', content: { confirm: true } }),
    async ({ client, questions }) => {
      expect(await deleteTask(client, 999_999_999)).toEqual({
        content: [{ type: 'text', text: 'Task 999999999 not found' }],
        isError: true,
      });
      expect(questions).toEqual([]);
    },
  );
});

test('REST DELETE is unchanged: it deletes at once, without a question', async ({ baseURL }) => {
  const task = await createTask(baseURL!, 'Delete me over REST');
  const response = await fetch(`${baseURL}/api/tasks/${task.id}`, { method: 'DELETE' });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(task);
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(404);
});

test.describe('with MCP_CONFIRM_DESTRUCTIVE=0', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer(
      e2ePort + 15,
      { MCP_CONFIRM_DESTRUCTIVE: '0' },
      'test-results/confirmations-off-server.log',
    );
  });
  test.afterAll(async () => server?.stop());

  test('a client that could be asked deletes without a question', async () => {
    const task = await createTask(server.baseURL, 'Delete me, confirmations off');
    await using(askedClient(server.baseURL, { action: 'decline' }), async ({ client, questions }) => {
      const result = await deleteTask(client, task.id);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual(task);
      expect(questions).toEqual([]);
    });
    expect(await restStatus(server.baseURL, `/api/tasks/${task.id}`)).toBe(404);
  });
});
