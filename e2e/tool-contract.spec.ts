// Tools that do not change under an agent (issue 37), in both eras: an old name (alias) answers as its tool and says
// it is deprecated — directly, through call_tool and in code mode — is never listed, is found by search_tools, and is
// logged once; tools/list answers in one order, the registry's, in both eras.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { searchTools, throughCallTool } from './support/catalogue';
import { connect, eras, type GatewayClient, type ToolResult } from './support/mcp';
import { e2ePort, type RunningServer, startServer } from './support/server';

/** The demo's rename: UserController_createUser keeps its old name (`@toolAliases` in user-controller.ts). */
const OLD_NAME = 'UserController_addUser';
const NEW_NAME = 'UserController_createUser';
const DEPRECATED_META_KEY = 'dev.vovk/deprecated';
const logFile = 'test-results/tool-contract.log';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer(e2ePort + 350, {}, logFile);
});
test.afterAll(async () => server?.stop());

/** A new user's body, unique to this call (the server is this spec's own). */
let users = 0;
const newUser = (era: string) => ({ body: { name: `Renamed ${++users}`, email: `renamed-${users}-${era.length}@example.com` } });

/** What a result says of the user it made, with its id and times left out (they differ from call to call). */
const madeUser = (result: ToolResult) => {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...user } = result.structuredContent ?? {};
  return { isError: result.isError, user };
};

for (const era of eras) {
  test.describe(`over ${era}`, () => {
    let client: GatewayClient;
    test.beforeAll(async () => {
      client = await connect(era, server.baseURL);
    });
    test.afterAll(async () => client?.close());

    test('an old name answers as its tool and says in _meta that it is deprecated and what replaced it', async () => {
      const args = newUser(era);
      const byOldName = await client.callTool(OLD_NAME, args);
      expect(byOldName._meta?.[DEPRECATED_META_KEY]).toEqual({ alias: OLD_NAME, use: NEW_NAME });
      expect(byOldName.structuredContent).toMatchObject({ name: args.body.name, email: args.body.email, role: 'member' });
      const direct = await client.callTool(NEW_NAME, { body: { ...args.body, email: `direct-${args.body.email}` } });
      expect(direct._meta?.[DEPRECATED_META_KEY]).toBeUndefined();
      expect(madeUser(byOldName)).toEqual({ ...madeUser(direct), user: { ...madeUser(direct).user, email: args.body.email } });
      // The same refusal, word for word: the old name runs the very procedure, its guards and formatter.
      const taken = { body: { name: 'Ada again', email: 'ada@example.com' } };
      const refusedDirectly = await client.callTool(NEW_NAME, taken);
      const refusedByOldName = await client.callTool(OLD_NAME, taken);
      expect(refusedByOldName).toEqual({ ...refusedDirectly, _meta: { ...refusedDirectly._meta, [DEPRECATED_META_KEY]: { alias: OLD_NAME, use: NEW_NAME } } });
      expect(refusedByOldName.isError).toBe(true);
    });

    test('through call_tool and in code mode, the old name answers as its tool too', async () => {
      const args = newUser(era);
      const through = await throughCallTool(client, OLD_NAME, args);
      expect(through._meta?.[DEPRECATED_META_KEY]).toEqual({ alias: OLD_NAME, use: NEW_NAME });
      expect(through.structuredContent).toMatchObject({ email: args.body.email });
      const program = `return (await tools.${OLD_NAME}(${JSON.stringify(newUser(era))})).email;`;
      const executed = await client.callTool('execute', { code: program });
      expect(executed.isError).toBeFalsy();
      expect(executed.structuredContent).toMatchObject({ result: expect.stringMatching(/^renamed-\d+-\d+@example\.com$/), calls: [{ tool: OLD_NAME, ok: true }] });
    });

    test('an old name is never listed; search_tools finds its tool by it', async () => {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain(NEW_NAME);
      expect(names).not.toContain(OLD_NAME);
      expect((await searchTools(client, OLD_NAME))[0].name).toBe(NEW_NAME);
      expect((await searchTools(client, 'addUser')).map((hit) => hit.name)).toContain(NEW_NAME);
    });
  });
}

test('tools/list answers in the registry’s order, the same in both eras and on every listing', async () => {
  const listings = [];
  for (const era of [...eras, ...eras]) {
    const client = await connect(era, server.baseURL);
    listings.push((await client.listTools()).map((tool) => tool.name));
    await client.close();
  }
  for (const listing of listings) expect(listing).toEqual(listings[0]);
  // Module by module as the registry names them (src/modules/index.ts), each module's procedures as declared.
  const modules = [...new Set(listings[0].filter((name) => name.includes('Controller_')).map((name) => name.split('_')[0]))];
  expect(modules.slice(0, 3)).toEqual(['UserController', 'TaskController', 'BoardController']);
  const moduleOrder = listings[0].map((name) => modules.indexOf(name.split('_')[0])).filter((index) => index >= 0);
  expect(moduleOrder).toEqual([...moduleOrder].sort((a, b) => a - b));
  expect(listings[0].slice(0, 3)).toEqual(['UserController_getUser', 'UserController_listUsers', 'UserController_createUser']);
});

test('the deprecation is logged once per process, however often the old name is called', async () => {
  const client = await connect(eras[1], server.baseURL);
  await client.callTool(OLD_NAME, { body: { name: 'Ada again', email: 'ada@example.com' } });
  await client.close();
  const warnings = fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line.includes(`Tool ${OLD_NAME} is deprecated`));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`call ${NEW_NAME} instead`);
});
