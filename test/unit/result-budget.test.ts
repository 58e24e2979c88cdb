// Unit tests of the result budget: results over their tool's token budget are cut to valid JSON with the way to the rest.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { HeldAnswers } from '@gateway/budget/held-answers';
import { type Caller, requestContext, runInRequestContext } from '@gateway/request-context';
import type { Store } from '@/lib/store';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/databases';
import { openMigratedStore } from '../support/stores';
import { BUDGET_META_KEY, type BudgetNote, ResultBudget, toolBudgetOf } from '@gateway/budget/result-budget';
import { countTokens } from '@gateway/budget/token-count';
import { createMcpFormatter } from '@gateway/tools';

const format = createMcpFormatter();
const rows = (count: number) => Array.from({ length: count }, (_, id) => ({ id, title: `Task number ${id}`, status: 'todo' }));

/** A budget whose held answers are kept in memory (`fail`: the database refuses them). */
function budgetOf(tokens: number, { fail = false } = {}) {
  const held: { text: string; mimeType: string; scopes: readonly string[] }[] = [];
  const hold = async (answer: { text: string; mimeType: string; scopes: readonly string[] }) => {
    if (fail) throw new Error('database down');
    held.push(answer);
    return { uri: `vovk://gateway/results/${held.length}`, expiresAt: Date.UTC(2030, 0, 1) };
  };
  return { budget: new ResultBudget(tokens, { hold }), held };
}

const tool = (budget?: Parameters<typeof toolBudgetOf>[0], query?: object) => ({
  name: 'TaskController_listTasks',
  scopes: ['tasks:read'],
  budget: toolBudgetOf(budget, query as never),
});
const PAGED_QUERY = { properties: { status: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } } };
const noteOf = (result: CallToolResult) => result._meta?.[BUDGET_META_KEY] as BudgetNote;
const textsOf = (result: CallToolResult) => result.content.map((item) => (item.type === 'text' ? item.text : ''));
const tokensOf = async (result: CallToolResult) => countTokens(textsOf(result).join('\n'));

describe('result budget', () => {
  test('a result within its budget is returned as it is', async () => {
    const { budget } = budgetOf(1000);
    const result = await format(rows(3), null, null);
    expect((await budget.fit(result, tool(), {})).result).toBe(result);
  });

  test('an array over budget keeps the first items that fit, valid JSON, and names the next page of its paging', async () => {
    const { budget, held } = budgetOf(1000);
    const all = rows(500);
    const { result } = await budget.fit(await format(all, null, null), tool(undefined, PAGED_QUERY), { query: { status: 'todo' } });
    const note = noteOf(result);
    expect(note.items!.total).toBe(500);
    expect(note.items!.shown).toBeGreaterThan(10);
    expect(note.items!.shown).toBeLessThan(500);
    expect(result.structuredContent).toEqual({ items: all.slice(0, note.items!.shown) });
    expect(JSON.parse(textsOf(result)[0])).toEqual(all.slice(0, note.items!.shown));
    expect(await tokensOf(result)).toBeLessThanOrEqual(1000);
    expect(note.next).toEqual({ tool: 'TaskController_listTasks', arguments: { query: { status: 'todo', offset: note.items!.shown, limit: note.items!.shown } } });
    expect(textsOf(result)[1]).toContain(`items 1–${note.items!.shown} of the 500`);
    expect(held).toEqual([]);
  });

  test('the next page of a page further on starts past it', async () => {
    const { budget } = budgetOf(1000);
    const { result } = await budget.fit(await format(rows(300), null, null), tool(undefined, PAGED_QUERY), { query: { offset: 40, limit: 300 } });
    const { shown } = noteOf(result).items!;
    expect(noteOf(result).next!.arguments).toEqual({ query: { offset: 40 + shown, limit: shown } });
    expect(textsOf(result)[1]).toContain(`items 41–${40 + shown} of the 300`);
  });

  test('an array over budget without paging links the whole answer, held for its caller with the tool’s scopes', async () => {
    const { budget, held } = budgetOf(1000);
    const all = rows(500);
    const { result } = await budget.fit(await format(all, null, null), tool(), {});
    const note = noteOf(result);
    expect(note.whole).toEqual({ uri: 'vovk://gateway/results/1', expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(held).toEqual([{ tool: 'TaskController_listTasks', scopes: ['tasks:read'], mimeType: 'application/json', text: JSON.stringify(all) }]);
    expect(result.content).toContainEqual(expect.objectContaining({ type: 'resource_link', uri: 'vovk://gateway/results/1', mimeType: 'application/json' }));
    expect(result.structuredContent).toEqual({ items: all.slice(0, note.items!.shown) });
  });

  test('an object cuts its largest array and keeps its other members', async () => {
    const { budget } = budgetOf(1000);
    const answer = { total: 500, tags: ['a', 'b'], tasks: rows(500) };
    const { result } = await budget.fit(await format(answer, null, null), tool(), {});
    const { shown } = noteOf(result).items!;
    expect(result.structuredContent).toEqual({ total: 500, tags: ['a', 'b'], tasks: answer.tasks.slice(0, shown) });
    expect(JSON.parse(textsOf(result)[0])).toEqual(result.structuredContent);
  });

  test('an object or text with no array to cut becomes a link to the whole with a preview, never cut JSON', async () => {
    const { budget, held } = budgetOf(1000);
    const answer = { report: 'word '.repeat(5000) };
    const { result } = await budget.fit(await format(answer, null, null), tool(), {});
    expect(result.structuredContent).toBeUndefined();
    expect(noteOf(result)).toMatchObject({ preview: true, whole: { uri: 'vovk://gateway/results/1' } });
    expect(held[0].text).toBe(JSON.stringify(answer));
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Preview:\n{"report":"word word') });
    expect(await tokensOf(result)).toBeLessThanOrEqual(1000);
    // A tool with an output schema keeps its structuredContent (SDK clients refuse its result without it).
    const withSchema = await budget.fit(await format(answer, null, null), { ...tool(), outputSchema: {} }, {});
    expect(withSchema.result.structuredContent).toEqual(answer);
    expect(withSchema.result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Preview:') });
    const text = await format(new Response('line\n'.repeat(20000), { headers: { 'Content-Type': 'text/markdown' } }), null, null);
    const fitted = await budget.fit(text, tool(), {}, 'text/markdown');
    expect(fitted.result.content).toContainEqual(expect.objectContaining({ type: 'resource_link', mimeType: 'text/markdown' }));
  });

  test('when the whole cannot be held the note says to narrow the call', async () => {
    const { budget } = budgetOf(1000, { fail: true });
    const { result } = await budget.fit(await format(rows(500), null, null), tool(), {});
    expect(noteOf(result).whole).toBeUndefined();
    expect(textsOf(result)[1]).toContain('narrow the call');
  });

  test('errors, media and an exempt tool are never touched', async () => {
    const { budget } = budgetOf(100);
    const error = { content: [{ type: 'text' as const, text: 'x'.repeat(5000) }], isError: true };
    expect((await budget.fit(error, tool(), {})).result).toBe(error);
    const image: CallToolResult = { content: [{ type: 'image', data: 'A'.repeat(5000), mimeType: 'image/png' }] };
    expect((await budget.fit(image, tool(), {})).result).toBe(image);
    const big = await format(rows(500), null, null);
    expect((await budget.fit(big, { name: 'execute', scopes: [], budget: { tokens: Number.POSITIVE_INFINITY } }, {})).result).toBe(big);
    expect((await budget.fit(big, tool({ tokens: 1_000_000 }), {})).result).toBe(big);
  });

  test('paging is found by name in the query schema, declared, or declared absent', () => {
    expect(toolBudgetOf(undefined, PAGED_QUERY)).toEqual({ paging: { offset: 'offset', limit: 'limit' } });
    expect(toolBudgetOf(undefined, { properties: { skip: { type: 'number' }, take: { type: ['integer', 'null'] } } })).toEqual({ paging: { offset: 'skip', limit: 'take' } });
    expect(toolBudgetOf(undefined, { properties: { offset: { type: 'string' } } })).toBeUndefined();
    expect(toolBudgetOf({ paging: false, tokens: 10 }, PAGED_QUERY)).toEqual({ tokens: 10 });
    expect(toolBudgetOf({ paging: { offset: 'from' } }, undefined)).toEqual({ paging: { offset: 'from' } });
  });
});

describe.each<Backend>(['sqlite', 'postgres'])('held answers on %s', (backend) => {
  let database: TestDatabase;
  let store: Store;

  beforeEach(async () => {
    database = await createTestDatabase(backend);
    store = await openMigratedStore(database);
  });

  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  /** Runs `fn` as a request of `caller` (undefined: auth off). */
  const as = <T>(caller: Caller | undefined, fn: () => Promise<T>) =>
    runInRequestContext('mcp', () => {
      Object.assign(requestContext()!, { caller });
      return fn();
    });
  const alice: Caller = { subject: 'alice', clientId: 'cli', scopes: ['gateway:read', 'tasks:read'] };

  test('an answer is read back whole by its caller only, with its tool’s scopes, until it expires', async () => {
    const held = new HeldAnswers(60_000, () => store.driver);
    const answer = { tool: 'T', scopes: ['tasks:read'], mimeType: 'application/json', text: JSON.stringify(rows(10_000)) };
    const { uri, expiresAt } = await as(alice, () => held.hold(answer, 1_000));
    expect(expiresAt).toBe(61_000);
    const id = uri.split('/').pop()!;
    expect(await as(alice, () => held.read(id, 2_000))).toMatchObject({ body: answer.text, mime_type: 'application/json' });
    // Another subject, another client, the same subject without the tool's scope, no caller at all: missing.
    expect(await as({ ...alice, subject: 'bob' }, () => held.read(id, 2_000))).toBeUndefined();
    expect(await as({ ...alice, clientId: 'other' }, () => held.read(id, 2_000))).toBeUndefined();
    expect(await as({ ...alice, scopes: ['gateway:read'] }, () => held.read(id, 2_000))).toBeUndefined();
    expect(await as(undefined, () => held.read(id, 2_000))).toBeUndefined();
    // Expired: missing, and removed once another answer is held.
    expect(await as(alice, () => held.read(id, 61_001))).toBeUndefined();
    await as(alice, () => held.hold(answer, 70_000));
    const [{ count }] = await store.driver.read((query) => query<{ count: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS count FROM gateway_held_answers'));
    expect(Number(count)).toBe(1);
  });

  test('one caller holds at most 20 answers: the oldest goes, another caller’s stay', async () => {
    const held = new HeldAnswers(60_000, () => store.driver);
    const answer = { tool: 'T', scopes: [], mimeType: 'text/plain', text: 'x' };
    const bob = await as({ ...alice, subject: 'bob' }, () => held.hold(answer, 1_000));
    const alices: Array<{ uri: string }> = [];
    for (let i = 0; i < 21; i++) alices.push(await as(alice, () => held.hold(answer, 2_000 + i)));
    const idOf = (uri: string) => uri.split('/').pop()!;
    expect(await as(alice, () => held.read(idOf(alices[0].uri), 3_000))).toBeUndefined();
    expect(await as(alice, () => held.read(idOf(alices[1].uri), 3_000))).toBeDefined();
    expect(await as(alice, () => held.read(idOf(alices[20].uri), 3_000))).toBeDefined();
    expect(await as({ ...alice, subject: 'bob' }, () => held.read(idOf(bob.uri), 3_000))).toBeDefined();
  });
});
