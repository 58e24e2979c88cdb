// Unit tests of the explorer's code console: the signatures by toolset, the example program and a call's template
// from the tools' schemas, the inner calls as execute's progress messages tell them (rounds of answers included), and
// what execute answered.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import {
  callTemplate,
  endedCalls,
  exampleProgram,
  type InnerCall,
  innerCallsAfter,
  programAnswerOf,
  signaturesByToolset,
} from '@gateway/browser/explorer/code-console';
import { TOOLSETS_META_KEY } from '@gateway/shared/toolset-meta';

const USER = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } },
};

const listUsers: Tool = {
  name: 'UserController_listUsers',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: { type: 'object', properties: { items: { type: 'array', items: USER } }, required: ['items'] },
  annotations: { readOnlyHint: true },
  _meta: { [TOOLSETS_META_KEY]: ['UserController'] },
};
const getUser: Tool = {
  name: 'UserController_getUser',
  inputSchema: {
    type: 'object',
    properties: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
    required: ['params'],
  },
  outputSchema: USER,
  annotations: { readOnlyHint: true },
  _meta: { [TOOLSETS_META_KEY]: ['UserController'] },
};
const createTask: Tool = {
  name: 'TaskController_createTask',
  inputSchema: {
    type: 'object',
    properties: {
      body: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          status: { enum: ['todo', 'doing', 'done'] },
          assigneeId: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
          tags: { type: 'array', items: { type: 'string' } },
          'x-extra': { type: 'boolean' },
        },
        required: ['title', 'status', 'tags', 'x-extra', 'assigneeId'],
      },
    },
    required: ['body'],
  },
  _meta: { [TOOLSETS_META_KEY]: ['TaskController', 'billing'] },
};
const sum: Tool = {
  name: 'sum_numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
};

describe('signatures and templates', () => {
  test('each listed tool once, under its first toolset, as code mode types it', () => {
    const groups = signaturesByToolset([listUsers, createTask, getUser]);
    expect(groups.map((group) => [group.name, group.signatures.map((each) => each.tool)])).toEqual([
      ['UserController', ['UserController_listUsers', 'UserController_getUser']],
      ['TaskController', ['TaskController_createTask']],
    ]);
    const signature = groups[0].signatures[1].signature;
    expect(signature.startsWith('UserController_getUser(args: {\n  params: {\n    id: number;')).toBe(true);
    expect(groups[0].signatures[0].signature).toMatch(
      /^UserController_listUsers\(args\?: \{\}\): Promise<\{[\s\S]*\}\[\]>$/,
    );
  });

  test("a call's template fills the required arguments with placeholders of their types, as JavaScript", () => {
    expect(callTemplate(getUser)).toBe('const result = await tools.UserController_getUser({ params: { id: 0 } });');
    expect(callTemplate(listUsers)).toBe('const result = await tools.UserController_listUsers();');
    expect(callTemplate(createTask)).toBe(
      `const result = await tools.TaskController_createTask({ body: { title: "", status: "todo", tags: [], "x-extra": false, assigneeId: 0 } });`,
    );
  });

  test('the example program lists with the first read-only lister and returns the name of each item', () => {
    const program = exampleProgram([sum, createTask, getUser, listUsers]);
    expect(program).toContain('const items = await tools.UserController_listUsers();');
    expect(program).toContain('return items.map((item) => item.name);');
    expect(program).not.toContain('createTask');
    expect(exampleProgram([sum, { ...getUser, inputSchema: { type: 'object' } }])).toContain(
      'return await tools.UserController_getUser();',
    );
    expect(exampleProgram([sum])).toContain("return 'hello';");
  });
});

describe('inner calls from progress', () => {
  const after = (messages: string[], start: InnerCall[] = []) =>
    messages.reduce((calls, message, index) => innerCallsAfter(calls, { progress: index + 1, message }), start);

  test('a call runs, reports its own progress, ends done with its time or failed; others alongside keep their place', () => {
    const running = after(['A_list: running', 'B_count: running', 'B_count: 3 of 10 counted']);
    expect(running).toEqual([
      { tool: 'A_list', state: 'running' },
      { tool: 'B_count', state: 'running', message: '3 of 10 counted' },
    ]);
    expect(after(['B_count: done in 12.5 ms', 'A_list: failed'], running)).toEqual([
      { tool: 'A_list', state: 'failed' },
      { tool: 'B_count', state: 'done', ms: 12.5 },
    ]);
  });

  test('calls of one tool at once: each end goes to the first one still running', () => {
    expect(
      after(['A_get: running', 'A_get: running', 'A_get: done in 3 ms', 'A_get: done in 4 ms', 'A_get: done in 5 ms']),
    ).toEqual([
      { tool: 'A_get', state: 'done', ms: 3 },
      { tool: 'A_get', state: 'done', ms: 4 },
    ]);
  });

  test('a call that asks the user waits; the next round runs it again in its place, replaying the others silently', () => {
    const asked = after([
      'T_create: running',
      'T_create: done in 8 ms',
      'T_delete: running',
      "Fulfilling input required by 'tools/call' (round 1)",
    ]);
    expect(asked.map((call) => call.state)).toEqual(['done', 'waiting']);
    expect(after(['T_delete: running', 'T_delete: done in 6 ms', 'T_list: running'], asked)).toEqual([
      { tool: 'T_create', state: 'done', ms: 8 },
      { tool: 'T_delete', state: 'done', ms: 6 },
      { tool: 'T_list', state: 'running' },
    ]);
  });

  test("the server's own word that a call waits for the client's answer makes it wait too", () => {
    const asked = after(['T_create: running', 'T_create: done in 8 ms', 'T_delete: running', "T_delete: waiting for the client's answer"]);
    expect(asked.map((call) => call.state)).toEqual(['done', 'waiting']);
  });

  test('messages of no call change nothing; a program that ended stops what still ran or waited', () => {
    const calls: InnerCall[] = [
      { tool: 'A', state: 'running' },
      { tool: 'B', state: 'waiting' },
      { tool: 'C', state: 'done', ms: 1 },
    ];
    expect(after(['something else', 'Z_unknown: done in 1 ms'], calls)).toEqual(calls);
    expect(innerCallsAfter(calls, { progress: 9 })).toEqual(calls);
    expect(endedCalls(calls).map((call) => call.state)).toEqual(['stopped', 'stopped', 'done']);
  });
});

describe("execute's answer", () => {
  const text = (value: string) => [{ type: 'text' as const, text: value }];

  test('a program that ran: its value, its logs, and its calls as the final report gives them', () => {
    const result: CallToolResult = {
      content: text('{}'),
      structuredContent: {
        result: ['Ada', 'Alan'],
        logs: ['2 found'],
        calls: [
          { tool: 'A_list', ms: 4, ok: true },
          { tool: 'A_get', ms: 2, ok: false, error: 'User 9 not found' },
        ],
      },
    };
    expect(programAnswerOf(result)).toEqual({
      ok: true,
      result: ['Ada', 'Alan'],
      logs: ['2 found'],
      calls: [
        { tool: 'A_list', state: 'done', ms: 4 },
        { tool: 'A_get', state: 'failed', ms: 2, message: 'User 9 not found' },
      ],
    });
  });

  test('a program that failed: its whole text, and the lines it printed taken from it', () => {
    const failed = 'The program failed: boom\nLogs:\none\ntwo\nCalls: A_list (4 ms, ok); A_get (2 ms, failed: no)';
    expect(programAnswerOf({ content: text(failed), isError: true })).toEqual({
      ok: false,
      text: failed,
      logs: ['one', 'two'],
    });
    const stopped = 'The program was stopped: it passed the wall time limit of 30000 ms (CODE_MODE_WALL_MS)';
    expect(programAnswerOf({ content: text(stopped), isError: true })).toEqual({ ok: false, text: stopped, logs: [] });
    expect(programAnswerOf({ content: [], isError: true })).toMatchObject({
      ok: false,
      text: 'execute answered no result',
    });
  });
});
