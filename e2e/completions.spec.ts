// completion/complete of resource-template arguments through the real server and the official clients of both eras:
// the task template's `id` is completed by the procedure its `@resource` names (TaskController_completeTaskId), run
// as a call of its tool runs (its log line names it), within the caller's scopes (403 insufficient_scope without them).
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { modernEnvelope, modernHeaders } from './support/json-rpc';
import { type OAuthGateway, scriptToken, startOAuthGateway } from './support/oauth';
import { eras, recordedClient } from './support/recorded-client';
import { createTask } from './support/rest-data';
import { e2ePort, type RunningServer, startServer, stoppedAfterAll } from './support/server';

const TASK_TEMPLATE = 'vovk://gateway/api/tasks/{id}';
const COMPLETER = 'TaskController_completeTaskId';

/** The request log lines of `logFile` that name `tool`. */
const logLinesNaming = (logFile: string, tool: string) =>
  fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(`"tool":"${tool}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test.describe('completions of template arguments', () => {
  const stopped = stoppedAfterAll();
  let open: RunningServer;
  let secured: OAuthGateway;

  test.beforeAll(async () => {
    [open, secured] = await Promise.all([startServer(e2ePort + 352, {}, 'test-results/completions-open.log'), startOAuthGateway(e2ePort + 353)]);
    stopped(open);
    stopped(secured);
  });

  for (const era of eras) {
    test(`${era}: a task id completes from what was typed (its start, or words of the title), through the tool's call path`, async () => {
      const word = `zebra${Date.now().toString(36)}`;
      const tasks = [await createTask(open.baseURL, `Feed the ${word}`), await createTask(open.baseURL, `Walk the ${word}`)];
      const client = await recordedClient(era, `${open.baseURL}/api/mcp`);
      try {
        expect(client.capabilities()).toHaveProperty('completions');
        const byTitle = await client.complete(TASK_TEMPLATE, { name: 'id', value: word.toUpperCase() });
        expect(byTitle.completion).toEqual({ values: tasks.map((task) => String(task.id)), total: 2, hasMore: false });
        const byId = await client.complete(TASK_TEMPLATE, { name: 'id', value: String(tasks[1].id) });
        // Ids that start with it come first (a title may contain the digits too).
        expect(byId.completion.values[0]).toBe(String(tasks[1].id));
        // Everything matches the empty string: the first 100, and there are more.
        const everything = await client.complete(TASK_TEMPLATE, { name: 'id', value: '' });
        expect(everything.completion.values.length).toBeLessThanOrEqual(100);
        expect(everything.completion.total).toBeGreaterThanOrEqual(2);
        // A wrong argument is a JSON-RPC error naming the template's arguments, not a crash.
        await expect(client.complete(TASK_TEMPLATE, { name: 'title', value: 'x' })).rejects.toThrow(/has no argument "title" \(its arguments: id\)/);
        await expect(client.complete('vovk://gateway/api/nothing/{id}', { name: 'id', value: 'x' })).rejects.toThrow(/No resource template/);
      } finally {
        await client.close();
      }
      await expect.poll(() => logLinesNaming(open.logFile, COMPLETER).length).toBeGreaterThanOrEqual(3);
    });
  }

  test('auth on: a caller without the read scope gets 403 insufficient_scope; a reader, completions', async () => {
    const task = await createTaskAs(secured, `Completable ${Date.now().toString(36)}`);
    const writeOnly = await scriptToken(secured.as, secured.resource, 'gateway:write');
    const params = { ref: { type: 'ref/resource', uri: TASK_TEMPLATE }, argument: { name: 'id', value: String(task.id) }, _meta: modernEnvelope() };
    const refused = await fetch(secured.resource, {
      method: 'POST',
      headers: { ...modernHeaders('completion/complete'), authorization: `Bearer ${writeOnly}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'completion/complete', params }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/insufficient_scope.*scope="gateway:read"/);

    const reader = await scriptToken(secured.as, secured.resource, 'gateway:read');
    for (const era of eras) {
      const client = await recordedClient(era, secured.resource, { authorization: `Bearer ${reader}` });
      try {
        const { completion } = await client.complete(TASK_TEMPLATE, { name: 'id', value: String(task.id) });
        expect(completion.values[0], era).toBe(String(task.id));
      } finally {
        await client.close();
      }
    }
  });
});

/** A task created over REST with a token that may write. */
async function createTaskAs({ as, gateway, resource }: OAuthGateway, title: string): Promise<{ id: number }> {
  const token = await scriptToken(as, resource, 'gateway:write gateway:read');
  const response = await fetch(`${gateway.baseURL}/api/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ title }),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ id: number }>;
}
