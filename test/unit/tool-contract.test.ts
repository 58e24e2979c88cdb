// The tool contract under version control: what `vovk-mcp-gateway tools check` calls breaking (one test per kind) and
// what it lets pass, the lock file's bytes, aliases in the catalogue, and the real command on a small app of its own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { describe, expect, test, vi } from 'vitest';
import { Catalogue } from '@gateway/catalogue/catalogue';
import { EVERYTHING } from '@gateway/catalogue/selection';
import { withAliasTools } from '@gateway/catalogue/tool-aliases';
import { createGatewayServer, gatewayTools, noteCalledTool } from '@gateway/mcp/gateway-server';
import { toServedTools } from '@gateway/mcp/register-tools';
import { ToModelOutput } from '@gateway/tools';
import { runInRequestContext } from '@gateway/request-context';
import { contractChanges } from '@gateway/shared/contract-changes';
import { type ContractTool, ContractFileError, contractOf, parseContract, serializeContract, type ToolContract } from '@gateway/shared/tool-contract';
import { DEPRECATED_META_KEY } from '@gateway/shared/deprecated-meta';
import { mcpApps } from '@/mcp-apps';
import { controllers, gatewayModules } from '@/modules';
import { testGatewayOptions } from '../support/gateway-options';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'packages/vovk-mcp-gateway/bin/vovk-mcp-gateway.mjs');

/** A tool of a contract: `getTask` of a small task API, with what a test changes of it. */
function taskTool(changes: Partial<ContractTool> = {}): ContractTool {
  return {
    name: 'TaskRPC_getTask',
    title: 'Get task',
    annotations: { readOnlyHint: true },
    scopes: ['gateway:read'],
    toolsets: ['TaskRPC'],
    inputSchema: {
      type: 'object',
      properties: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false },
        query: { type: 'object', properties: { view: { type: 'string', enum: ['card', 'full'] } } },
      },
      required: ['params'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string' }, status: { type: 'string', enum: ['todo', 'done'] } },
      required: ['id', 'title', 'status'],
    },
    ...changes,
  };
}

const contract = (...tools: ContractTool[]) => contractOf(tools);
/** `schema` with `edit` applied to a deep copy of it. */
const edited = <T>(schema: T, edit: (copy: any) => void): T => {
  const copy = structuredClone(schema);
  edit(copy);
  return copy;
};
const breaking = (locked: ToolContract, current: ToolContract) => contractChanges(locked, current).filter((change) => change.breaks);
const locked = contract(taskTool());

describe('tools check fails on each change that breaks a caller', () => {
  test('a tool gone', () => {
    expect(breaking(locked, contract())).toEqual([
      { tool: 'TaskRPC_getTask', what: 'tool gone', breaks: 'a caller that names TaskRPC_getTask fails (unknown tool)' },
    ]);
  });

  test('a tool renamed without its old name kept', () => {
    const [change] = breaking(locked, contract(taskTool({ name: 'TaskRPC_readTask' })));
    expect(change).toMatchObject({ tool: 'TaskRPC_getTask', what: 'renamed to TaskRPC_readTask' });
    expect(change.breaks).toContain("@toolAliases('TaskRPC_getTask') on TaskRPC_readTask");
  });

  test('a required argument added', () => {
    const inputSchema = edited(taskTool().inputSchema, (schema) => {
      schema.properties.query.properties.owner = { type: 'string' };
      schema.properties.query.required = ['owner'];
    });
    expect(breaking(locked, contract(taskTool({ inputSchema })))).toEqual([
      { tool: 'TaskRPC_getTask', what: 'required argument query.owner added', breaks: 'a caller that leaves it out is refused' },
    ]);
  });

  test('an argument’s type narrowed', () => {
    const inputSchema = edited(taskTool().inputSchema, (schema) => (schema.properties.params.properties.id = { type: 'string' }));
    expect(breaking(locked, contract(taskTool({ inputSchema })))).toEqual([
      { tool: 'TaskRPC_getTask', what: 'type of params.id changed: integer → string', breaks: 'a caller that sends integer is refused' },
    ]);
    const nullable = edited(taskTool().inputSchema, (schema) => (schema.properties.params.properties.id = { type: ['integer', 'null'] }));
    const narrowed = edited(taskTool().inputSchema, (schema) => (schema.properties.params.properties.id = { type: 'integer', minimum: 1 }));
    expect(breaking(contract(taskTool({ inputSchema: nullable })), locked).map((change) => change.what)).toEqual([
      'type of params.id changed: integer or null → integer',
    ]);
    expect(breaking(locked, contract(taskTool({ inputSchema: narrowed }))).map((change) => change.what)).toEqual([
      'minimum of params.id changed: none → 1',
    ]);
  });

  test('an enum narrowed', () => {
    const inputSchema = edited(taskTool().inputSchema, (schema) => (schema.properties.query.properties.view.enum = ['card']));
    expect(breaking(locked, contract(taskTool({ inputSchema })))).toEqual([
      { tool: 'TaskRPC_getTask', what: 'enum of query.view narrowed: "full" removed', breaks: 'a caller that sends "full" is refused' },
    ]);
  });

  test('an output field removed, or its type changed', () => {
    const outputSchema = edited(taskTool().outputSchema, (schema) => {
      delete schema.properties.title;
      schema.required = ['id', 'status'];
      schema.properties.id = { anyOf: [{ type: 'integer' }, { type: 'null' }] };
    });
    expect(breaking(locked, contract(taskTool({ outputSchema })))).toEqual([
      { tool: 'TaskRPC_getTask', what: 'id may now be null', breaks: 'a caller that reads it gets a value it was not promised' },
      { tool: 'TaskRPC_getTask', what: 'output field title removed', breaks: 'a caller that reads it gets nothing' },
    ]);
  });

  test('an argument removed from a schema that refuses unknown ones, a new scope, a toolset left, a lost read-only hint', () => {
    const inputSchema = edited(taskTool().inputSchema, (schema) => delete schema.properties.query);
    const current = taskTool({ inputSchema, scopes: ['gateway:read', 'tasks:admin'], toolsets: ['Tasks'], annotations: {} });
    expect(breaking(locked, contract(current)).map((change) => change.what)).toEqual([
      'annotations changed: {"readOnlyHint":true} → {}',
      'now needs the scope tasks:admin',
      'no longer in the toolset TaskRPC',
      'argument query removed',
    ]);
  });
});

describe('tools check lets pass what breaks no caller, and says what changed', () => {
  test('a new tool, a new optional argument, a widened enum, a new output field, another description', () => {
    const inputSchema = edited(taskTool().inputSchema, (schema) => {
      schema.properties.query.properties.view.enum = ['card', 'full', 'raw'];
      schema.properties.query.properties.fields = { type: 'array', items: { type: 'string' } };
      schema.properties.params.properties.id = { type: 'integer', description: 'The task’s id' };
    });
    const outputSchema = edited(taskTool().outputSchema, (schema) => {
      schema.properties.createdAt = { type: 'string' };
      schema.properties.status.enum = ['todo'];
    });
    const current = contract(taskTool({ inputSchema, outputSchema }), taskTool({ name: 'TaskRPC_listTasks', inputSchema: { type: 'object' } }));
    const changes = contractChanges(locked, current);
    expect(changes.filter((change) => change.breaks)).toEqual([]);
    expect(changes.map(({ tool, what }) => `${tool}: ${what}`)).toEqual([
      'TaskRPC_getTask: description of params.id changed',
      'TaskRPC_getTask: enum of query.view widened: "raw" added',
      'TaskRPC_getTask: optional argument query.fields added',
      'TaskRPC_getTask: status is no longer "done"',
      'TaskRPC_getTask: output field createdAt added',
      'TaskRPC_listTasks: new tool',
    ]);
  });

  test('a rename that keeps the old name as an alias; an alias dropped later breaks', () => {
    const renamed = contract(taskTool({ name: 'TaskRPC_readTask', aliases: ['TaskRPC_getTask'] }));
    expect(contractChanges(locked, renamed)).toEqual([
      { tool: 'TaskRPC_getTask', what: 'renamed to TaskRPC_readTask; the old name stays callable (an alias)' },
    ]);
    expect(breaking(renamed, contract(taskTool({ name: 'TaskRPC_readTask' })))).toEqual([
      { tool: 'TaskRPC_readTask', what: 'alias TaskRPC_getTask removed', breaks: 'a caller that still names TaskRPC_getTask fails' },
    ]);
  });

  test('the same contract, whatever order its keys and tools come in, has no change and the same lock bytes', () => {
    const shuffled = JSON.parse(JSON.stringify(taskTool()), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    const other = taskTool({ name: 'TaskRPC_addTask' });
    expect(contractChanges(contract(taskTool(), other), contract(other, shuffled))).toEqual([]);
    expect(serializeContract(contract(other, shuffled))).toBe(serializeContract(contract(taskTool(), other)));
    expect(contract(taskTool(), other).tools.map((tool) => tool.name)).toEqual(['TaskRPC_addTask', 'TaskRPC_getTask']);
  });

  test('a recursive schema ($ref) is compared without looping', () => {
    const tree = (extra: object) => ({
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } }, ...extra } } },
      $ref: '#/$defs/node',
    });
    const before = contract(taskTool({ outputSchema: tree({}) }));
    expect(breaking(before, contract(taskTool({ outputSchema: tree({ name: { type: 'integer' } }) }))).map((change) => change.what)).toEqual([
      'type of name changed: string → integer',
    ]);
  });
});

describe('the lock file', () => {
  test('a file that is no contract is refused in one line naming it', () => {
    expect(() => parseContract('{oops', 'mcp-tools.lock.json')).toThrow(ContractFileError);
    expect(() => parseContract('{"version":2,"tools":[]}', 'mcp-tools.lock.json')).toThrow(/no tool contract of version 1/);
    expect(() => parseContract('{"version":1,"tools":[{"name":"a","scopes":[],"toolsets":[]}]}', 'x.json')).toThrow('x.json: tool 1 (a) has no inputSchema');
    expect(parseContract(serializeContract(locked), 'x.json')).toEqual(locked);
  });
});

/** The product's gateway as `createMcpGateway` makes it (its apps' UIs too). */
const productGateway = () => createGatewayServer({ ...gatewayModules, apps: mcpApps }, testGatewayOptions());

/** The tools a tools/list of `gateway` registers (in listing order), in a request's context as mcp-handler serves it. */
async function listedBy(gateway: ReturnType<typeof productGateway>): Promise<string[]> {
  const names: string[] = [];
  const fake = {
    registerTool: (name: string) => names.push(name),
    registerResource: (_: string, _uri: string | ResourceTemplate) => {},
    server: { registerCapabilities: () => {}, setRequestHandler: () => {} },
  };
  await runInRequestContext('mcp', async () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    noteCalledTool({ type: 'REQUEST_RECEIVED', timestamp: Date.now(), method: 'tools/list', status: 'success', parameters: request });
    gateway.setup(fake as unknown as McpServer);
  });
  return names;
}

describe('the catalogue’s contract and its aliases', () => {
  const gateway = productGateway();

  test('the contract has every tool of the catalogue (no surface tool), sorted, with the demo’s alias', () => {
    const { tools } = gateway.contract();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(names).not.toEqual(expect.arrayContaining(['search_tools']));
    expect(names).toContain('sum_numbers');
    expect(tools.find((tool) => tool.name === 'UserController_createUser')).toMatchObject({
      aliases: ['UserController_addUser'],
      scopes: ['gateway:write'],
      toolsets: ['UserController'],
      inputSchema: { properties: { body: { required: ['name', 'email'] } } },
    });
  });

  test('tools/list lists in registry order (modules as registered, procedures as declared, then standalone tools), never an alias', async () => {
    const listed = await listedBy(gateway);
    const modules = Object.keys(controllers);
    const moduleIndex = (name: string) => (name.includes('_') && modules.includes(name.split('_')[0]) ? modules.indexOf(name.split('_')[0]) : modules.length);
    expect(listed.map(moduleIndex)).toEqual(listed.map(moduleIndex).sort((a, b) => a - b));
    expect(listed.slice(0, 2)).toEqual(['UserController_getUser', 'UserController_listUsers']);
    expect(listed).not.toContain('UserController_addUser');
    expect(await listedBy(productGateway())).toEqual(listed);
  });

  test('an alias answers as its tool, its result says it is deprecated, and the log says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const served = toServedTools(gatewayTools(gatewayModules, ToModelOutput.MCP, () => 'http://localhost:3000'));
    const greeting = { ...served.find((tool) => tool.name === 'TextController_getGreeting')!, aliases: ['TextController_hello', 'sum_numbers'] };
    const { tools: withAliases, aliases } = withAliasTools([greeting, ...served.filter((tool) => tool !== served.find((t) => t.name === greeting.name))], []);
    // An alias that is another tool's name is not served (a name calls one tool only).
    expect(aliases.map((alias) => alias.name)).toEqual(['TextController_hello', 'UserController_addUser']);
    expect(withAliases[0].aliases).toEqual(['TextController_hello']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('sum_numbers is not served as an alias'));
    const [hello] = aliases;
    const direct = await greeting.execute({});
    const first = await hello.execute({});
    const second = await hello.execute({});
    expect(first).toEqual({ ...direct, _meta: { ...direct._meta, [DEPRECATED_META_KEY]: { alias: 'TextController_hello', use: 'TextController_getGreeting' } } });
    expect(second).toEqual(first);
    expect(hello).toMatchObject({ scopes: greeting.scopes, annotations: greeting.annotations, inputSchema: greeting.inputSchema, aliasOf: greeting.name });
    expect(warn.mock.calls.filter(([line]) => String(line).includes('TextController_hello is deprecated'))).toHaveLength(1);
    warn.mockRestore();

    // The catalogue: the alias is callable in every view that selects its tool, never listed, and found by search.
    const catalogue = new Catalogue(withAliases, { listMax: 40, surfaceTools: () => [], aliases });
    const everything = catalogue.view(EVERYTHING);
    expect(everything.tool('TextController_hello')).toBe(hello);
    expect(everything.listed.map((tool) => tool.name)).not.toContain('TextController_hello');
    expect(catalogue.view({ ...EVERYTHING, toolsets: ['UserController'] }).tool('TextController_hello')).toBeUndefined();
    expect(catalogue.refusal('TextController_hello', catalogue.view({ ...EVERYTHING, toolsets: ['UserController'] }))).toContain('toolset TextController');
    expect(catalogue.search(everything, 'TextController_hello', 3)[0].name).toBe('TextController_getGreeting');
    expect(catalogue.search(everything, 'say hello', 3).map((hit) => hit.name)).toContain('TextController_getGreeting');
  });
});

/** A throwaway app folder (under test-results/, outside every build) whose MCP route serves `controllerSource`. */
function contractApp(name: string, controllerSource: string): string {
  const dir = path.join(root, 'test-results', `contract-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src/app/api/mcp'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { experimentalDecorators: true, module: 'esnext', target: 'es2022' } }));
  fs.writeFileSync(path.join(dir, 'src/app/api/mcp/route.ts'), controllerSource);
  return dir;
}

const tools = (dir: string, ...args: string[]) => spawnSync(process.execPath, [bin, 'tools', ...args], { cwd: dir, encoding: 'utf8' });

/** The fixture app's route: a NoteRPC controller whose getNote takes `params.id` and the query `extra`. */
const route = (extra: string) => `import { get, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { createMcpGateway } from 'vovk-mcp-gateway';

@prefix('notes')
class NoteController {
  @get('{id}')
  static getNote = procedure({
    params: z.object({ id: z.string() }),
    query: z.object({ ${extra} }),
    output: z.object({ id: z.string(), text: z.string() }),
  }).handle(async (req) => ({ id: req.vovk.params().id, text: 'hello' }));
}

export const { GET, POST, DELETE } = createMcpGateway({ controllers: { NoteRPC: NoteController } });
`;

/** `tools check` in `dir` after its route's getNote takes the query fields `queryFields`. */
function checkWith(dir: string, queryFields: string) {
  fs.writeFileSync(path.join(dir, 'src/app/api/mcp/route.ts'), route(queryFields));
  return tools(dir, 'check');
}

describe('the command on an app of its own (bin, child process)', () => {
  test('lock writes the contract; check passes on the same catalogue, fails (1) on a breaking change, passes an additive one', () => {
    const dir = contractApp('app', route('format: z.enum(["plain", "html"]).optional()'));
    const lock = tools(dir, 'lock');
    expect(lock.stderr).toBe('');
    expect(lock.status).toBe(0);
    expect(lock.stdout).toContain('wrote mcp-tools.lock.json (1 tool, 0 aliases)');
    const written = fs.readFileSync(path.join(dir, 'mcp-tools.lock.json'), 'utf8');
    expect(JSON.parse(written).tools[0]).toMatchObject({ name: 'NoteRPC_getNote', scopes: ['gateway:read'], toolsets: ['NoteRPC'] });
    expect(tools(dir, 'check')).toMatchObject({ status: 0, stdout: expect.stringContaining("the catalogue's 1 tool match mcp-tools.lock.json") });

    const broken = checkWith(dir, 'format: z.enum(["plain"])');
    expect(broken.status).toBe(1);
    expect(broken.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        'vovk-mcp-gateway tools check: 3 changes of the catalogue break callers of mcp-tools.lock.json:',
        // A query with a required field is itself required.
        '  ✗ NoteRPC_getNote: argument query is now required — a caller that leaves it out is refused',
        '  ✗ NoteRPC_getNote: enum of query.format narrowed: "html" removed — a caller that sends "html" is refused',
        '  ✗ NoteRPC_getNote: argument query.format is now required — a caller that leaves it out is refused',
      ]),
    );
    expect(fs.readFileSync(path.join(dir, 'mcp-tools.lock.json'), 'utf8')).toBe(written);

    const widened = checkWith(dir, 'format: z.enum(["plain", "html", "md"]).optional(), lang: z.string().optional()');
    expect(widened.status).toBe(0);
    expect(widened.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        '  + NoteRPC_getNote: enum of query.format widened: "md" added',
        '  + NoteRPC_getNote: optional argument query.lang added',
        'Record them with `npx vovk-mcp-gateway tools lock`.',
      ]),
    );
  }, 60_000);

  test('bad input ends with one line and exit code 2: a lock that is no JSON, no lock, no route, a route that throws', () => {
    const dir = contractApp('bad', route(''));
    const noLock = tools(dir, 'check');
    expect(noLock).toMatchObject({ status: 2, stdout: '' });
    expect(noLock.stderr.trim()).toBe('vovk-mcp-gateway tools: no lock file mcp-tools.lock.json: write it with `npx vovk-mcp-gateway tools lock` and commit it');
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"version":1,');
    const badLock = tools(dir, 'check', '--lock', 'broken.json');
    expect(badLock.status).toBe(2);
    expect(badLock.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^vovk-mcp-gateway tools: broken\.json is not JSON \(/)]);
    expect(tools(dir, 'check', '--route', 'nowhere.ts')).toMatchObject({ status: 2, stderr: 'vovk-mcp-gateway tools: no MCP route at nowhere.ts\n' });
    fs.writeFileSync(path.join(dir, 'throws.ts'), "throw new Error('no database here');\n");
    const throwing = tools(dir, 'lock', '--route', 'throws.ts');
    expect(throwing).toMatchObject({ status: 2, stderr: 'vovk-mcp-gateway tools: the route throws.ts: it could not be loaded: no database here\n' });
    expect(tools(dir, 'lock', '--colour')).toMatchObject({ status: 2, stderr: 'vovk-mcp-gateway tools: unknown option --colour\n' });
    expect(tools(dir, 'lock', '--lock')).toMatchObject({ status: 2, stderr: 'vovk-mcp-gateway tools: --lock needs a value\n' });
  }, 60_000);
});
