// Unit tests of completion/complete for resource-template arguments: the capability, the errors a wrong request gets,
// and the declarations refused when the gateway starts. Completions answered by a procedure: e2e/completions.spec.ts.
import { describe, expect, test } from 'vitest';
import { ResourceCompletions } from '@gateway/mcp/resources/resource-completions';
import type { ServedTool, ToolRunOptions } from '@gateway/mcp/register-tools';
import { statelessGateway } from '../support/stateless-gateway';

const { gateway, ask } = statelessGateway();
const TASK_TEMPLATE = 'vovk://gateway/api/tasks/{id}';
const complete = (uri: string, name: string, value = '') => ask('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name, value } });

describe('completion/complete of resource templates', () => {
  test('the server declares the completions capability, in both eras', async () => {
    const discovered = await ask('server/discover');
    expect(discovered.result?.capabilities).toHaveProperty('completions');
    const initialized = await ask('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }, { legacy: true });
    expect(initialized.result?.capabilities).toHaveProperty('completions');
  });

  test('a template unknown here is -32602 naming the templates', async () => {
    const { error } = await complete('vovk://gateway/api/nothing/{id}', 'id');
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining(TASK_TEMPLATE) });
  });

  test('an argument the template does not have is -32602 naming its arguments', async () => {
    const { error } = await complete(TASK_TEMPLATE, 'title', 'a');
    expect(error).toMatchObject({ code: -32602, message: `Resource template ${TASK_TEMPLATE} has no argument "title" (its arguments: id)` });
  });

  test('a template whose arguments name no completing procedure completes to nothing', async () => {
    const { result } = await complete('vovk://gateway/api/users/{id}', 'id', '1');
    expect(result?.completion).toEqual({ values: [], total: 0, hasMore: false });
  });
});

describe('completion declarations', () => {
  const runOptions = {} as ToolRunOptions;
  const taskResource = gateway.resources.all.find((each) => each.uri === TASK_TEMPLATE)!;
  const declaring = (complete: Record<string, string>) => [{ ...taskResource, tool: { ...taskResource.tool, resource: { complete } } }];
  const tools = new Map(gateway.resources.all.map((each) => [each.tool.name, each.tool] as [string, ServedTool]));

  test('an argument its template lacks, or a tool that is not a GET procedure’s, stops the gateway at start', () => {
    expect(() => new ResourceCompletions(declaring({ title: 'TaskController_listTasks' }), tools, runOptions)).toThrow(
      /completes "title" with TaskController_listTasks, but its template vovk:\/\/gateway\/api\/tasks\/\{id\} has no such argument/,
    );
    expect(() => new ResourceCompletions(declaring({ id: 'no_such_tool' }), tools, runOptions)).toThrow(/no GET procedure's tool/);
    expect(() => new ResourceCompletions(declaring({ id: 'TaskController_listTasks' }), tools, runOptions)).not.toThrow();
  });

  test('the reference app declares one: the task id', () => {
    expect(taskResource.tool.resource?.complete).toEqual({ id: 'TaskController_completeTaskId' });
  });
});
