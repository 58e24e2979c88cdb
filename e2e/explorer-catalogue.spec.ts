// The explorer and the catalogue in a real browser: tools under their toolsets, the search box ranked by the gateway's
// own search_tools, and the connect panel's choice of toolsets, read-only and surface, checked with real MCP clients.
import type { Locator, Page } from '@playwright/test';
import { expect, isMcpEndpoint, test } from './support/explorer';
import { connect, type ConnectOptions, type Era, eras, type GatewayClient, sseEra } from './support/mcp';

type ListedTool = Awaited<ReturnType<GatewayClient['listTools']>>[number];

/** Asks the gateway over MCP with a client of the test (not the page), at `target` (a base URL, or an MCP URL with a query). */
async function withClient<T>(target: string, use: (client: GatewayClient) => Promise<T>, options: ConnectOptions = {}, era: Era = eras[1]) {
  const client = await connect(era, target, options);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** Every tool of the catalogue, as the explorer asks for them (`?tools=all`). */
const everyTool = (baseURL: string) => withClient(new URL('/api/mcp?tools=all', baseURL).href, (client) => client.listTools());

/** What search_tools answers for `query` over MCP: the tool names, best first. */
async function searchOverMcp(baseURL: string, query: string): Promise<string[]> {
  const result = await withClient(baseURL, (client) => client.callTool('search_tools', { query, limit: 25 }));
  expect(result.isError ?? false).toBe(false);
  return (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((hit) => hit.name);
}

const toolsetsOf = (tool: ListedTool) => tool._meta?.['dev.vovk/toolsets'] as string[];

/** The toolset headings and the visible cards under each, in the page's order. */
const shownGroups = (page: Page) =>
  page.evaluate(() => {
    const groups: Array<{ name: string; count: string; tools: string[] }> = [];
    for (const item of document.querySelectorAll('[data-testid="toolset-heading"], [data-testid="tool-card"]')) {
      const text = (testId: string) => item.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '';
      if (item.matches('[data-testid="toolset-heading"]')) groups.push({ name: text('toolset-name'), count: text('toolset-count'), tools: [] });
      else if (!(item as HTMLElement).hidden) groups.at(-1)?.tools.push(text('tool-name'));
    }
    return groups;
  });

/** The JSON-RPC requests the page sends to the MCP endpoint from now on (their method and params). */
function mcpRequests(page: Page) {
  const sent: Array<{ url: string; method: string; params?: Record<string, unknown> }> = [];
  page.on('request', (request) => {
    if (!isMcpEndpoint(new URL(request.url())) || request.method() !== 'POST') return;
    const message = request.postDataJSON() as { method: string; params?: Record<string, unknown> };
    sent.push({ url: request.url(), method: message.method, params: message.params });
  });
  return sent;
}

const searchBox = (page: Page) => page.getByLabel('Search tools');
const jsonOf = async (locator: Locator) => JSON.parse(await locator.innerText());

test('the tools come under a heading per toolset (their module), with the counts and order of tools/list; a heading folds its tools', async ({
  explorer,
  page,
  baseURL,
}) => {
  const tools = await everyTool(baseURL!);
  const expected: Array<{ name: string; count: string; tools: string[] }> = [];
  for (const tool of tools) {
    const [module] = toolsetsOf(tool);
    if (expected.at(-1)?.name !== module) expected.push({ name: module, count: '', tools: [] });
    expected.at(-1)!.tools.push(tool.name);
  }
  for (const group of expected) group.count = `${group.tools.length} ${group.tools.length === 1 ? 'tool' : 'tools'}`;
  expect(new Set(expected.map((group) => group.name)).size, 'each module’s tools come together').toBe(expected.length);
  expect(expected.map((group) => group.name)).toEqual(expect.arrayContaining(['UserController', 'TaskController', 'standalone']));

  const sent = mcpRequests(page);
  await explorer.open();
  await expect.poll(() => shownGroups(page)).toEqual(expected);
  expect(sent.length).toBeGreaterThan(0);
  expect(
    sent.every((request) => new URL(request.url).search === '?tools=all'),
    'the page asks for every tool, whatever the size of the catalogue',
  ).toBe(true);

  const heading = page.getByTestId('toolset-heading').filter({ hasText: 'TaskController' }).getByRole('button');
  await heading.click();
  await expect(heading).toHaveAttribute('aria-expanded', 'false');
  await expect(explorer.card('TaskController_moveTask')).toBeHidden();
  await expect(explorer.card('UserController_getUser')).toBeVisible();
  await heading.click();
  await expect(heading).toHaveAttribute('aria-expanded', 'true');
  await expect(explorer.names()).toHaveText(tools.map((tool) => tool.name));
});

test('typing a request ranks the tools as the gateway’s search_tools does: "move a card to done" puts TaskController_moveTask first', async ({
  explorer,
  page,
  baseURL,
}) => {
  const query = 'move a card to done';
  const ranked = await searchOverMcp(baseURL!, query);
  expect(ranked[0]).toBe('TaskController_moveTask');
  const total = (await everyTool(baseURL!)).length;
  await explorer.open();
  const sum = await explorer.run('sum_numbers', { a: '1', b: '2' });
  const sent = mcpRequests(page);

  await searchBox(page).fill(query);
  await expect(explorer.names()).toHaveText(ranked);
  await expect(page.getByTestId('tool-count')).toHaveText(`${ranked.length} of ${total} tools`);
  await expect(page.getByTestId('toolset-heading'), 'the ranked list is not grouped').toHaveCount(0);
  const searches = sent.filter((request) => request.method === 'tools/call');
  expect(searches.map((request) => request.params), 'one search, by the gateway, debounced').toEqual([
    expect.objectContaining({ name: 'search_tools', arguments: { query, limit: 25 } }),
  ]);

  const nothing = 'qqqqqq zzzzzzz';
  expect(await searchOverMcp(baseURL!, nothing)).toEqual([]);
  await searchBox(page).fill(nothing);
  await expect(page.getByText(`No tool matches “${nothing}”.`)).toBeVisible();
  await expect(explorer.names()).toHaveCount(0);

  await searchBox(page).fill('');
  await expect(explorer.names()).toHaveCount(total);
  await expect(page.getByTestId('toolset-heading').first()).toBeVisible();
  await expect(sum.getByTestId('text-view'), 'a result survives being searched away').toHaveText('3');
});

test('a failed search says so, and the next one works', async ({ explorer, page, baseURL, consoleGuard }) => {
  consoleGuard.expect(/Failed to load resource: net::ERR_FAILED.*\/api\/mcp/);
  await explorer.open();
  const isSearch = (body: string | null) => (body ?? '').includes('"search_tools"');
  await page.route(isMcpEndpoint, (route) => (isSearch(route.request().postData()) ? route.abort('failed') : route.fallback()));
  await searchBox(page).fill('list users');
  await expect(page.getByTestId('search-error')).toContainText('The search failed');
  await expect(explorer.names()).toHaveCount(0);

  await page.unroute(isMcpEndpoint);
  await searchBox(page).fill('list the users');
  await expect(explorer.names()).toHaveText(await searchOverMcp(baseURL!, 'list the users'));
  await expect(page.getByTestId('search-error')).toHaveCount(0);
});

test('an MCP App still shows its result after the search has moved its card, and back', async ({ explorer, page, baseURL }) => {
  const query = 'get one user by id';
  expect(await searchOverMcp(baseURL!, query)).toContain('UserController_getUser');
  await explorer.open();
  await explorer.run('UserController_getUser', { id: '1' });
  const card = explorer.card('UserController_getUser');
  const app = card.frameLocator('[data-testid="app-frame"]');
  await expect(app.getByRole('heading', { name: /Ada Lovelace/ })).toBeVisible();
  await searchBox(page).fill(query);
  await expect(page.getByTestId('toolset-heading')).toHaveCount(0);
  await expect(app.getByRole('heading', { name: /Ada Lovelace/ }), 'among the hits, moved').toBeVisible();
  await searchBox(page).fill('');
  await expect(page.getByTestId('toolset-heading').first()).toBeVisible();
  await expect(app.getByRole('heading', { name: /Ada Lovelace/ }), 'back under its toolset').toBeVisible();
});

test.describe('the connect panel’s choice of what a client sees', () => {
  /** A real client connected as the settings say: their URL and headers. */
  const listedWith = (baseURL: string, era: Era, { url, headers }: { url: string; headers?: Record<string, string> }) =>
    withClient(new URL(url, baseURL).href, async (client) => (await client.listTools()).map((tool) => tool.name), { headers }, era);

  test('toolsets and read-only go into every client’s URL, or headers; a client connecting with them lists exactly those tools', async ({
    explorer,
    page,
    baseURL,
  }) => {
    const tools = await everyTool(baseURL!);
    const chosen = ['UserController', 'TaskController'];
    const selected = tools
      .filter((tool) => toolsetsOf(tool).some((name) => chosen.includes(name)) && tool.annotations?.readOnlyHint === true)
      .map((tool) => tool.name);
    expect(selected.length).toBeGreaterThan(1);
    expect(selected.length).toBeLessThan(tools.filter((tool) => chosen.includes(toolsetsOf(tool)[0])).length);
    const endpoint = `${baseURL}/api/mcp`;
    await explorer.open();
    const panel = page.getByTestId('connect-panel');
    const plain = await panel.getByTestId('config-cursor').innerText();
    for (const name of chosen) await panel.getByRole('checkbox', { name: new RegExp(`^${name} \\(\\d+\\)$`) }).check();
    await panel.getByLabel('Read-only tools only').check();

    const url = `${endpoint}?toolsets=UserController,TaskController&readonly=1`;
    await expect(panel.getByTestId('endpoint-url')).toHaveText(url);
    expect(await jsonOf(panel.getByTestId('config-cursor'))).toEqual({ mcpServers: { 'vovk-gateway': { url } } });
    const vscode = await jsonOf(panel.getByTestId('config-vscode'));
    expect(vscode).toEqual({ servers: { 'vovk-gateway': { type: 'http', url } } });
    await expect(panel.getByTestId('config-mcp-remote')).toHaveText(`npx -y mcp-remote '${url}'`);
    const sseUrl = `${baseURL}/api/sse?toolsets=UserController,TaskController&readonly=1`;
    await expect(panel.getByTestId('sse-url')).toHaveText(sseUrl);
    const sse = await jsonOf(panel.getByTestId('config-sse'));
    expect(sse).toEqual({ mcpServers: { 'vovk-gateway': { type: 'sse', url: sseUrl } } });
    // The SSE URL the panel wrote selects the same tools over HTTP+SSE.
    expect(await listedWith(baseURL!, sseEra, { url: sse.mcpServers['vovk-gateway'].url })).toEqual(selected);
    for (const era of eras) expect(await listedWith(baseURL!, era, vscode.servers['vovk-gateway']), era).toEqual(selected);

    await panel.getByLabel('headers (X-MCP-…)').check();
    const headers = { 'X-MCP-Toolsets': 'UserController,TaskController', 'X-MCP-Readonly': '1' };
    await expect(panel.getByTestId('endpoint-url')).toHaveText(endpoint);
    await expect(panel.getByTestId('selection-headers')).toHaveText('X-MCP-Toolsets: UserController,TaskController\nX-MCP-Readonly: 1');
    const cursor = await jsonOf(panel.getByTestId('config-cursor'));
    expect(cursor).toEqual({ mcpServers: { 'vovk-gateway': { url: endpoint, headers } } });
    expect(await jsonOf(panel.getByTestId('config-vscode'))).toEqual({ servers: { 'vovk-gateway': { type: 'http', url: endpoint, headers } } });
    expect(await jsonOf(panel.getByTestId('config-claude-desktop'))).toEqual({
      mcpServers: {
        'vovk-gateway': {
          command: 'npx',
          args: ['-y', 'mcp-remote', endpoint, '--header', 'X-MCP-Toolsets:UserController,TaskController', '--header', 'X-MCP-Readonly:1'],
        },
      },
    });
    await expect(panel.getByTestId('config-inspector')).toHaveText(
      `npx -y @modelcontextprotocol/inspector --cli ${endpoint} --method tools/list --header 'X-MCP-Toolsets: UserController,TaskController' --header 'X-MCP-Readonly: 1'`,
    );
    for (const era of eras) expect(await listedWith(baseURL!, era, cursor.mcpServers['vovk-gateway']), era).toEqual(selected);

    await panel.getByLabel('Tools listed').selectOption('search');
    const searching = await jsonOf(panel.getByTestId('config-cursor'));
    expect(searching.mcpServers['vovk-gateway'].headers).toEqual({ ...headers, 'X-MCP-Tools': 'search' });
    expect(await listedWith(baseURL!, eras[1], searching.mcpServers['vovk-gateway'])).toEqual(['search_tools', 'call_tool']);

    await panel.getByLabel('Tools listed').selectOption('');
    await panel.getByLabel('Read-only tools only').uncheck();
    for (const name of chosen) await panel.getByRole('checkbox', { name: new RegExp(`^${name} `) }).uncheck();
    await expect(panel.getByTestId('config-cursor'), 'nothing chosen: the plain settings again').toHaveText(plain);
    await expect(panel.getByTestId('selection-headers')).toHaveCount(0);
  });

  test('the panel offers every toolset the connection lists, with its size', async ({ explorer, page, baseURL }) => {
    const tools = await everyTool(baseURL!);
    const sizes = new Map<string, number>();
    for (const name of tools.flatMap(toolsetsOf)) sizes.set(name, (sizes.get(name) ?? 0) + 1);
    await explorer.open();
    const choices = page.getByTestId('connect-choice').getByRole('group', { name: /^Toolsets/ }).getByRole('checkbox');
    await expect(choices).toHaveCount(sizes.size);
    for (const [name, size] of sizes) await expect(page.getByRole('checkbox', { name: `${name} (${size})` })).not.toBeChecked();
  });
});
