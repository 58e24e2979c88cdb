// Unit tests of the catalogue layer: how a request selects (toolsets, readonly, surface), the views, refusals, search.
import { describe, expect, test } from 'vitest';
import { Catalogue } from '@gateway/catalogue/catalogue';
import { EVERYTHING, SelectionError, selectionOf } from '@gateway/catalogue/selection';
import { surfaceTools } from '@gateway/catalogue/surface-tools';
import { toolset } from '@gateway/catalogue/toolsets';
import { createCodeMode } from '@gateway/code-mode/execute-tool';
import { config } from '@gateway/config';
import { createInputStateCodec } from '@gateway/mcp/input-state';
import { gatewayTools } from '@gateway/mcp/gateway-server';
import { withAppUis } from '@gateway/mcp/mcp-apps';
import { mcpApps } from '@/mcp-apps';
import { toServedTools } from '@gateway/mcp/register-tools';
import { runInRequestContext, requestContext } from '@gateway/request-context';
import { ToModelOutput } from '@gateway/tools';
import { gatewayModules } from '@/modules';
import { catalogueControllers } from '@/testing/catalogue';
import { READ_SCOPE } from '@gateway/shared/scope-names';

const tools = toServedTools(gatewayTools(gatewayModules, ToModelOutput.MCP, () => 'http://localhost:3000'));
const codeMode = createCodeMode({ ...config().codeMode, maxBodyBytes: config().mcpMaxBodyBytes }, { restUrlOf: () => undefined, stateCodec: createInputStateCodec(undefined), confirmDestructive: true });
const surfaceToolsOf = surfaceTools(ToModelOutput.MCP, codeMode);
const catalogueOf = (listMax = 40) => new Catalogue(tools, { listMax, surfaceTools: surfaceToolsOf });
const names = (listed: readonly { name: string }[]) => listed.map((tool) => tool.name);
const request = (query = '', headers: Record<string, string> = {}) => new Request(`http://localhost/api/mcp${query}`, { headers });

describe('selection of a request', () => {
  test('nothing asked: every tool, the default surface', () => {
    expect(selectionOf(request())).toBe(EVERYTHING);
    expect(selectionOf(request('?toolsets=all'))).toEqual({ readonly: false });
  });

  test('the query and the X-MCP-* headers say the same; the query wins over a header', () => {
    const fromQuery = selectionOf(request('?toolsets=TaskController,%20UserController&readonly=1&tools=search'));
    const fromHeaders = selectionOf(
      request('', { 'X-MCP-Toolsets': 'TaskController, UserController', 'X-MCP-Readonly': 'true', 'X-MCP-Tools': 'Search' }),
    );
    expect(fromQuery).toEqual({ toolsets: ['TaskController', 'UserController'], readonly: true, surface: 'search' });
    expect(fromHeaders).toEqual(fromQuery);
    expect(selectionOf(request('?toolsets=BoardController', { 'X-MCP-Toolsets': 'TaskController' })).toolsets).toEqual(['BoardController']);
  });

  test('a value that means nothing is refused, saying what is accepted', () => {
    expect(() => selectionOf(request('?readonly=yes'))).toThrow(new SelectionError('readonly must be 1 or 0 (true or false), not "yes"'));
    expect(() => selectionOf(request('?tools=sandbox'))).toThrow(/tools must be one of all, search, code, not "sandbox"/);
  });
});

describe('views of the catalogue', () => {
  test('toolsets select their modules’ tools (names in any case); readonly keeps only readOnlyHint tools', () => {
    const catalogue = catalogueOf();
    const view = catalogue.view({ toolsets: ['usercontroller', 'standalone'], readonly: false });
    expect(names(view.listed)).toEqual([
      'UserController_getUser',
      'UserController_listUsers',
      'UserController_createUser',
      'UserController_updateUser',
      'UserController_deleteUser',
      'sum_numbers',
    ]);
    const reading = catalogue.view({ toolsets: ['UserController'], readonly: true });
    expect(names(reading.listed)).toEqual(['UserController_getUser', 'UserController_listUsers']);
    expect(() => catalogue.view({ toolsets: ['Nope'], readonly: false })).toThrow(/Unknown toolset "Nope": the toolsets are all, UserController/);
  });

  test('the default surface is all up to MCP_LIST_MAX selected tools, search above; asked for, either', () => {
    const everything = catalogueOf(tools.length).view(EVERYTHING);
    expect(everything.surface).toBe('all');
    expect(everything.listed).toHaveLength(tools.length);
    const searched = catalogueOf(tools.length - 1).view(EVERYTHING);
    expect(searched.surface).toBe('search');
    expect(names(searched.listed)).toEqual(['search_tools', 'call_tool']);
    expect(catalogueOf(1).view({ toolsets: ['UserController'], readonly: false, surface: 'all' }).listed).toHaveLength(5);
    // The surface's tools are callable on every surface, listed or not.
    expect(everything.tool('search_tools')?.name).toBe('search_tools');
  });

  test('a procedure marked @alwaysListed stays beside search_tools and call_tool on the search surface, when selected', () => {
    const controllers = { ...gatewayModules.controllers, ...catalogueControllers(20) };
    const served = toServedTools(gatewayTools({ ...gatewayModules, controllers }, ToModelOutput.MCP, () => 'http://localhost:3000'));
    const catalogue = new Catalogue(served, { listMax: 40, surfaceTools: surfaceToolsOf });
    expect(names(catalogue.view({ readonly: false, surface: 'search' }).listed)).toEqual([
      'search_tools',
      'call_tool',
      'ContactController_getContactTimeline',
    ]);
    expect(names(catalogue.view({ toolsets: ['UserController'], readonly: false, surface: 'search' }).listed)).toEqual(['search_tools', 'call_tool']);
  });

  test('one view per distinct selection, however it is spelled', () => {
    const catalogue = catalogueOf();
    const a = catalogue.view({ toolsets: ['TaskController', 'UserController'], readonly: false });
    expect(catalogue.view({ toolsets: ['usercontroller', 'TaskController', 'UserController'], readonly: false })).toBe(a);
  });

  test('a tool outside the view is refused naming its toolset, or the read-only switch; tools it serves or nobody has are not', () => {
    const catalogue = catalogueOf();
    const tasks = catalogue.view({ toolsets: ['TaskController'], readonly: false });
    expect(catalogue.refusal('UserController_getUser', tasks)).toMatch(/not in this connection's toolsets \(TaskController\): it is in toolset UserController/);
    expect(catalogue.refusal('TaskController_getTask', tasks)).toBeUndefined();
    expect(catalogue.refusal('no_such_tool', tasks)).toBeUndefined();
    const reading = catalogue.view({ readonly: true });
    expect(catalogue.refusal('TaskController_createTask', reading)).toMatch(/TaskController_createTask \(toolset TaskController\) changes data, and this connection is read-only/);
    const readingUsers = catalogue.view({ toolsets: ['UserController'], readonly: true });
    expect(catalogue.refusal('TaskController_createTask', readingUsers)).toMatch(/it is in toolset TaskController; .*; it changes data/);
  });
});

describe('search', () => {
  test('ranks by what the words mean to the catalogue: the right tool first for plain requests', () => {
    const catalogue = catalogueOf();
    const view = catalogue.view(EVERYTHING);
    expect(catalogue.search(view, 'add up two numbers')[0].name).toBe('sum_numbers');
    expect(catalogue.search(view, 'delete a user account')[0].name).toBe('UserController_deleteUser');
    expect(catalogue.search(view, 'greeting')[0]).toMatchObject({ name: 'TextController_getGreeting', toolset: 'TextController' });
    const hit = catalogue.search(view, 'user', 1)[0];
    expect(Object.keys(hit).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name', 'score', 'title', 'toolset', 'toolsets']);
    expect(hit.inputSchema).toMatchObject({ type: 'object' });
  });

  test('the verbs of a request rank the tools that do it first; phrases and common synonyms are understood', () => {
    const catalogue = catalogueOf();
    const view = catalogue.view(EVERYTHING);
    const first = (request: string) => catalogue.search(view, request)[0]?.name;
    expect(first('get rid of task 3')).toBe('TaskController_deleteTask');
    expect(first('drag card 4 over to done')).toBe('TaskController_moveTask');
    expect(first('who are all the people here')).toBe('UserController_listUsers');
    expect(first('add a to-do for the release notes')).toBe('TaskController_createTask');
    expect(first('what is 17 plus 25')).toBe('sum_numbers');
  });

  test('a tool’s name finds it: written as it is (any case) it comes first; its words (getUser) rank it too', () => {
    const catalogue = catalogueOf();
    const view = catalogue.view(EVERYTHING);
    expect(catalogue.search(view, 'usercontroller_listusers')[0].name).toBe('UserController_listUsers');
    expect(catalogue.search(view, 'getUser')[0].name).toBe('UserController_getUser');
    expect(catalogue.search(view, 'TaskController_moveTask')[0].name).toBe('TaskController_moveTask');
  });

  test('a request is searched by its first 24 distinct words, each once (a long request costs no more)', () => {
    const catalogue = catalogueOf();
    const view = catalogue.view(EVERYTHING);
    const filler = Array.from({ length: 24 }, (_, index) => `filler${index}`).join(' ');
    expect(catalogue.search(view, `${filler} greeting`)).toEqual([]);
    expect(catalogue.search(view, `${'greeting '.repeat(30)}`)[0].name).toBe('TextController_getGreeting');
  });

  test('finds only the view’s tools that the caller may use', async () => {
    const catalogue = catalogueOf();
    const tasks = catalogue.view({ toolsets: ['TaskController'], readonly: false });
    expect(catalogue.search(tasks, 'user').every((hit) => hit.toolset === 'TaskController')).toBe(true);
    const reader = { subject: 'ada', clientId: 'c', scopes: [READ_SCOPE] };
    const everything = catalogue.view(EVERYTHING);
    expect(catalogue.search(everything, 'user', 25).some((hit) => hit.annotations?.readOnlyHint !== true)).toBe(true);
    const hits = await runInRequestContext('mcp', async () => {
      requestContext()!.caller = reader;
      return catalogue.search(everything, 'user', 25);
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.annotations?.readOnlyHint === true)).toBe(true);
  });

  test('never offers a tool only its MCP App calls (visibility ["app"]), which stays in the view, callable by name', () => {
    const withApps = toServedTools(withAppUis(gatewayTools(gatewayModules, ToModelOutput.MCP, () => 'http://localhost:3000'), mcpApps));
    const catalogue = new Catalogue(withApps, { listMax: 40, surfaceTools: surfaceToolsOf });
    const view = catalogue.view(EVERYTHING);
    expect(view.tool('BoardController_waitForChange')?._meta?.ui).toMatchObject({ visibility: ['app'] });
    const hits = names(catalogue.search(view, 'wait until the board changes, BoardController_waitForChange', 25));
    expect(hits).toContain('BoardController_getBoard');
    expect(hits).not.toContain('BoardController_waitForChange');
  });
});

test('@toolset refuses a name that is no toolset name', () => {
  expect(() => toolset('all')).toThrow(/not a toolset name/);
  expect(() => toolset('two words')).toThrow(/not a toolset name/);
});
