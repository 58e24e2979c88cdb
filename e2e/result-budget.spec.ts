// Results that fit an agent's context (issue 37): a 10,000-row list answers within the result budget (25,000 tokens)
// with a valid structuredContent and the way to the rest — the procedure's own paging, else a resource_link to the
// whole answer held for its caller — in both protocol eras, directly, through call_tool and for resources/read.
import { expect, test } from '@playwright/test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { selectingURL, throughCallTool } from './support/catalogue';
import { connect, eras, type GatewayClient, type ToolResult, using } from './support/mcp';
import { e2ePort, type RunningServer, startServer, stoppedAfterAll } from './support/server';

const BUDGET = 25_000;
const BUDGET_META_KEY = 'dev.vovk/budget';
const IMPORTED = 10_000;
const LOG = 'test-results/result-budget-server.log';
const kept = stoppedAfterAll();
let server: RunningServer;
/** Every task as REST lists it (board order): what the pages of the tool must add up to. */
let allTasks: Array<{ id: number }>;

type BudgetNote = {
  budgetTokens: number;
  items?: { shown: number; total: number };
  next?: { tool: string; arguments: Record<string, unknown> };
  whole?: { uri: string; expiresAt: string };
  preview?: boolean;
  text?: string;
};

const noteOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.[BUDGET_META_KEY] as BudgetNote;
const textOf = (result: ToolResult) => result.content.flatMap((item) => (item.type === 'text' ? [item.text as string] : [])).join('\n');

test.beforeAll(async () => {
  server = kept(await startServer(e2ePort + 350, {}, LOG));
  // The product's own path: a JSON import of 10,000 tasks over REST, as a new user would fill the board.
  const rows = Array.from({ length: IMPORTED }, (_, index) => ({ title: `Imported task ${index}` }));
  const imported = await fetch(`${server.baseURL}/api/tasks/import`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rows }),
  });
  expect(imported.status).toBe(200);
  allTasks = await (await fetch(`${server.baseURL}/api/tasks`)).json();
  expect(allTasks.length).toBeGreaterThanOrEqual(IMPORTED);
});

/** Checks a cut page of the task list: within budget, valid JSON equal to structuredContent, the note saying what it holds. */
async function expectTaskPage(result: ToolResult, offset: number) {
  expect(result.isError).toBeFalsy();
  expect(countTokens(textOf(result))).toBeLessThanOrEqual(BUDGET);
  const note = noteOf(result);
  const items = (result.structuredContent as { items: Array<{ id: number }> }).items;
  expect(note.items!.shown).toBe(items.length);
  expect(items.length).toBeGreaterThan(20);
  expect(JSON.parse(result.content[0].text as string)).toEqual(items);
  expect(items.map((task) => task.id)).toEqual(allTasks.slice(offset, offset + items.length).map((task) => task.id));
  expect(textOf(result)).toContain(`items ${offset + 1}–${offset + items.length} of the`);
  return note;
}

for (const era of eras) {
  test.describe(era, () => {
    test('a list over the budget keeps the first tasks that fit, and its paging arguments get the next ones, to the end', async () => {
      await using(connect(era, server.baseURL), async (client) => {
        const first = await client.callTool('TaskController_listTasks', {});
        const note = await expectTaskPage(first, 0);
        expect(note.items!.total).toBe(allTasks.length);
        expect(note.next).toEqual({ tool: 'TaskController_listTasks', arguments: { query: { offset: note.items!.shown, limit: note.items!.shown } } });
        // The SDK clients checked structuredContent against the listed outputSchema. Paging on as an agent would (the
        // next page a cut one names, else the same size further on), every page fits, and they add up to every task.
        const collected = (first.structuredContent as { items: Array<{ id: number }> }).items.map((task) => task.id);
        let query = note.next!.arguments.query as { offset: number; limit: number } | undefined;
        while (query) {
          const page = await client.callTool('TaskController_listTasks', { query });
          expect(countTokens(textOf(page))).toBeLessThanOrEqual(BUDGET);
          const items = (page.structuredContent as { items: Array<{ id: number }> }).items;
          collected.push(...items.map((task) => task.id));
          const cut = noteOf(page);
          if (cut) query = cut.next!.arguments.query as typeof query;
          else query = items.length < query.limit ? undefined : { offset: query.offset + query.limit, limit: query.limit };
        }
        expect(collected).toEqual(allTasks.map((task) => task.id));
        // A page that fits is not cut: it has no note.
        const small = await client.callTool('TaskController_listTasks', { query: { offset: 100, limit: 10 } });
        expect(noteOf(small)).toBeUndefined();
        expect((small.structuredContent as { items: unknown[] }).items).toHaveLength(10);
      });
    });

    test('call_tool answers the same cut page as the direct call', async () => {
      await using(connect(era, server.baseURL), async (client) => {
        const direct = await client.callTool('TaskController_listTasks', { query: { offset: 5 } });
        const through = await throughCallTool(client, 'TaskController_listTasks', { query: { offset: 5 } });
        await expectTaskPage(through, 5);
        expect(through.structuredContent).toEqual(direct.structuredContent);
        expect(noteOf(through)).toEqual(noteOf(direct));
      });
    });

    test('a list with no paging links its whole answer, which resources/read gives its caller in full', async () => {
      await using(connect(era, server.baseURL), async (client) => {
        const result = await client.callTool('FixtureController_getBigList', {});
        expect(countTokens(textOf(result))).toBeLessThanOrEqual(BUDGET);
        const note = noteOf(result);
        const items = (result.structuredContent as { items: Array<{ id: number }> }).items;
        expect(note.items).toEqual({ shown: items.length, total: IMPORTED });
        expect(items.map((row) => row.id)).toEqual([...Array(items.length).keys()]);
        const link = result.content.find((item) => item.type === 'resource_link');
        expect(link).toMatchObject({ uri: note.whole!.uri, mimeType: 'application/json' });
        expect(note.whole!.uri).toMatch(/^vovk:\/\/gateway\/results\/[0-9a-f-]{36}$/);
        const whole = await client.readResource(note.whole!.uri);
        // Its caller's alone (2026-07-28 cache hints; the 2025 era has none), unchanged while it is held.
        if (era === eras[1]) expect(whole).toMatchObject({ cacheScope: 'private', ttlMs: 900_000 });
        const rows = JSON.parse(whole.contents[0].text!) as Array<{ id: number }>;
        expect(rows).toHaveLength(IMPORTED);
        expect(rows[IMPORTED - 1].id).toBe(IMPORTED - 1);
        // An id that was never held (or expired) reads as not found.
        await expect(client.readResource('vovk://gateway/results/00000000-0000-4000-8000-000000000000')).rejects.toThrow(/not found/i);
      });
    });

    test('a text over the budget becomes a link to the whole with a preview', async () => {
      await using(connect(era, server.baseURL), async (client) => {
        const result = await client.callTool('FixtureController_getBigReport', {});
        expect(countTokens(textOf(result))).toBeLessThanOrEqual(BUDGET);
        expect(noteOf(result)).toMatchObject({ preview: true, budgetTokens: BUDGET });
        expect(textOf(result)).toContain('Preview:\n# Report');
        const whole = await client.readResource(noteOf(result).whole!.uri);
        expect(whole.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
        expect(whole.contents[0].text).toBe(`# Report\n\n${'word '.repeat(40_000)}`);
      });
    });

    test('resources/read of the task list follows the same budget: the tasks that fit, the way on in _meta', async () => {
      await using(connect(era, server.baseURL), async (client) => {
        const read = await client.readResource('vovk://gateway/api/tasks');
        expect(read.contents).toHaveLength(1);
        const tasks = JSON.parse(read.contents[0].text!) as Array<{ id: number }>;
        expect(countTokens(read.contents[0].text!)).toBeLessThanOrEqual(BUDGET);
        expect(tasks.map((task) => task.id)).toEqual(allTasks.slice(0, tasks.length).map((task) => task.id));
        const note = noteOf(read);
        expect(note.items).toEqual({ shown: tasks.length, total: allTasks.length });
        expect(note.next).toEqual({ tool: 'TaskController_listTasks', arguments: { query: { offset: tasks.length, limit: tasks.length } } });
        expect(note.text).toContain('Get the next items with TaskController_listTasks');
      });
    });
  });
}

test('code mode keeps its own limits: a program gets the whole list', async () => {
  await using(connect(eras[1], selectingURL(server.baseURL, { tools: 'code' })), async (client: GatewayClient) => {
    const result = await client.callTool('execute', { code: 'const tasks = await tools.TaskController_listTasks({}); return tasks.length;' });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { result: unknown }).result).toBe(allTasks.length);
  });
});
