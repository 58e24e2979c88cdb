// The tool explorer at / in a real browser: tools as MCP lists them, forms, every kind of result, REST, connecting.
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, isMcpEndpoint, test } from './support/explorer';
import { connect, type GatewayClient } from './support/mcp';
import { createTask, createUser, restStatus } from './support/rest-data';

type ListedTool = Awaited<ReturnType<GatewayClient['listTools']>>[number];

/** What the gateway's MCP endpoint lists and answers, asked by a real MCP client in the test (not by the page). */
async function withClient<T>(baseURL: string | undefined, use: (client: GatewayClient) => Promise<T>): Promise<T> {
  const client = await connect('client-v2 (2026-07-28)', baseURL!);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const restRoute = (tool: ListedTool) => tool._meta?.['dev.vovk/rest'] as { method: string; path: string } | undefined;

/** Requests the page sends to a path from now on. */
function requestsTo(page: Page, pathname: string): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === pathname) urls.push(request.url());
  });
  return urls;
}

const jsonOf = async (locator: Locator) => JSON.parse(await locator.innerText());

async function saveScreenshot(target: Page | Locator, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(name);
  await target.screenshot({ path, ...('goto' in target ? { fullPage: true } : {}) });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('lists exactly the tools of an MCP tools/list, in order, with titles and REST routes', async ({ explorer, baseURL }) => {
  const tools = await withClient(baseURL, (client) => client.listTools());
  const mcpMethods: string[] = [];
  explorer.page.on('request', (request) => isMcpEndpoint(new URL(request.url())) && mcpMethods.push(request.method()));
  await explorer.open();
  await expect(explorer.names()).toHaveText(tools.map((tool) => tool.name));
  expect(new Set(mcpMethods), 'the page speaks MCP 2026-07-28: POST only, no GET stream').toEqual(new Set(['POST']));
  await expect(explorer.page.getByTestId('tool-count')).toHaveText(`${tools.length} of ${tools.length} tools`);
  for (const tool of tools) {
    const card = explorer.card(tool.name);
    const route = restRoute(tool);
    await expect(card.getByTestId('tool-route')).toHaveText(route ? `${route.method} ${route.path}` : 'MCP only');
    if (tool.title) await expect(card.getByText(tool.title, { exact: true })).toBeVisible();
    await expect(card.getByTestId('rest-view')).toHaveCount(route ? 1 : 0);
  }
});

test('lists a handler that is not an MCP tool with its REST route and why, and no tool of it', async ({ explorer, baseURL }) => {
  const name = 'FixtureController_postRawBytes';
  const everyTool = await withClient(new URL('/api/mcp?tools=all', baseURL).href, (client) => client.listTools());
  const listed = everyTool.map((tool) => tool.name);
  expect(listed, 'the MCP endpoint lists every tool').toContain('UserController_getUser');
  expect(listed, 'but not it').not.toContain(name);
  await explorer.open();
  await expect(explorer.leftOutSection()).toBeVisible();
  const handler = explorer.leftOut(name);
  await expect(handler).toHaveCount(1);
  await expect(handler.getByTestId('left-out-route')).toHaveText('POST /api/fixture/raw-bytes');
  await expect(handler.getByTestId('left-out-reason')).toHaveText(
    'its body is application/octet-stream, which tool arguments cannot carry: call it over REST',
  );
  await expect(explorer.card(name), 'no card to run it from').toHaveCount(0);
  expect(await explorer.names().allInnerTexts(), 'not among the callable tools').not.toContain(name);
  await explorer.page.getByRole('tab', { name: 'Code console' }).click();
  const signatures = explorer.page.getByRole('region', { name: 'Signatures' });
  await expect(signatures.getByTestId('signature').first()).toBeVisible();
  const insertCall = signatures.getByRole('button', { name: `Insert call: ${name}` });
  await expect(insertCall, 'nor callable from a program').toHaveCount(0);
});

test('getUser with id 1: pretty JSON beside structuredContent, Raw MCP JSON, and the REST view', async ({ explorer, baseURL }) => {
  const expected = await withClient(baseURL, (client) => client.callTool('UserController_getUser', { params: { id: 1 } }));
  await explorer.open();
  const result = await explorer.run('UserController_getUser', { id: '1' });

  const json = result.getByTestId('content-item').getByTestId('json-view');
  await expect(json).toContainText('\n  "name": "Ada Lovelace"');
  expect(await jsonOf(json)).toEqual(expected.structuredContent);
  expect(await jsonOf(result.getByTestId('structured-content').locator('pre'))).toEqual(expected.structuredContent);
  await expect(result.getByTestId('result-error')).toHaveCount(0);

  await result.getByRole('button', { name: 'Raw' }).click();
  const raw = await jsonOf(result.getByTestId('raw-json'));
  expect(raw).toMatchObject({ content: expected.content, structuredContent: expected.structuredContent });
  await result.getByRole('button', { name: 'Raw' }).click();
  await expect(result.getByTestId('structured-content')).toBeVisible();

  const rest = explorer.card('UserController_getUser').getByTestId('rest-view');
  await expect(rest.getByTestId('rest-url')).toHaveText(`${baseURL}/api/users/1`);
  await expect(rest.getByTestId('curl')).toHaveText(`curl -s '${baseURL}/api/users/1'`);
  await rest.getByRole('button', { name: 'Send REST request' }).click();
  await expect(rest.getByTestId('rest-status')).toContainText('HTTP 200');
  expect(await jsonOf(rest.getByTestId('rest-response').getByTestId('json-view'))).toEqual(expected.structuredContent);
});

test('getUser with id 999: the tool error with its message, and REST the 404', async ({ explorer, baseURL, consoleGuard }) => {
  const expected = await withClient(baseURL, (client) => client.callTool('UserController_getUser', { params: { id: 999 } }));
  expect(expected.isError).toBe(true);
  await explorer.open();
  const result = await explorer.run('UserController_getUser', { id: '999' });
  const error = result.getByTestId('result-error');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toContainText(String(expected.content[0].text));
  await expect(error).toContainText('User 999 not found');
  await expect(result.getByTestId('structured-content')).toHaveCount(0);

  consoleGuard.expect(/status of 404 .*\/api\/users\/999/); // Chromium logs every 4xx response
  const rest = explorer.card('UserController_getUser').getByTestId('rest-view');
  await rest.getByRole('button', { name: 'Send REST request' }).click();
  await expect(rest.getByTestId('rest-status')).toContainText('HTTP 404');
  const body = await jsonOf(rest.getByTestId('rest-response').getByTestId('json-view'));
  expect(body).toMatchObject({ message: 'User 999 not found' });
});

test('REST view of a tool the generated client lacks (a test fixture): its raw response too', async ({ explorer, consoleGuard }) => {
  consoleGuard.expect(/status of 422 .*\/api\/fixture\/problem/);
  await explorer.open();
  const rest = explorer.card('FixtureController_getProblem').getByTestId('rest-view');
  await rest.getByRole('button', { name: 'Send REST request' }).click();
  await expect(rest.getByTestId('rest-status')).toContainText('HTTP 422');
  await expect(rest.getByTestId('rest-status')).toContainText('application/problem+json');
  expect(await jsonOf(rest.getByTestId('rest-response').getByTestId('json-view'))).toEqual({
    type: 'about:blank',
    title: 'Unprocessable',
    status: 422,
  });
});

test('getImage renders a decoded <img> from the MCP result, and from REST', async ({ explorer }, testInfo) => {
  await explorer.open();
  const result = await explorer.run('MediaController_getImage');
  const image = result.getByTestId('result-image');
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await saveScreenshot(result, testInfo, 'image-result.png');

  const rest = explorer.card('MediaController_getImage').getByTestId('rest-view');
  await rest.getByRole('button', { name: 'Send REST request' }).click();
  await expect(rest.getByTestId('rest-status')).toContainText('image/png');
  const restImage = rest.getByTestId('result-image');
  await expect.poll(() => restImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(
    await image.evaluate((img: HTMLImageElement) => img.naturalWidth),
  );
});

test('getAudio renders a playable <audio controls> from the MCP result', async ({ explorer }) => {
  await explorer.open();
  const result = await explorer.run('MediaController_getAudio');
  const audio = result.getByTestId('result-audio');
  await expect(audio).toHaveAttribute('controls', '');
  await expect(audio).toHaveAttribute('src', /^data:audio\/mpeg;base64,/);
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.readyState)).toBeGreaterThanOrEqual(1);
  const playable = await audio.evaluate((el: HTMLAudioElement) => ({ duration: el.duration, error: el.error?.code ?? null }));
  expect(playable.error).toBeNull();
  expect(playable.duration).toBeGreaterThan(0.5);
});

test('the annotated image shows its annotations as labels on the item', async ({ explorer, baseURL }) => {
  const expected = await withClient(baseURL, (client) => client.callTool('AnnotatedController_getAnnotatedImage'));
  const { audience, priority } = expected.content[0].annotations as { audience: string[]; priority: number };
  await explorer.open();
  const item = (await explorer.run('AnnotatedController_getAnnotatedImage')).getByTestId('content-item');
  await expect(item.getByTestId('annotation')).toHaveText([`audience: ${audience.join(', ')}`, `priority: ${priority}`]);
  await expect(item.getByTestId('annotation').first()).toBeVisible();
  await expect.poll(() => item.getByTestId('result-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('sum_numbers from its form shows the sum', async ({ explorer, baseURL }) => {
  const expected = await withClient(baseURL, (client) => client.callTool('sum_numbers', { a: 2, b: 3.5 }));
  await explorer.open();
  const result = await explorer.run('sum_numbers', { a: '2', b: '3.5' });
  await expect(result.getByTestId('text-view')).toHaveText(String(expected.content[0].text));
  await expect(result.getByTestId('text-view')).toHaveText('5.5');
});

test('deleting a task asks first, in a dialog naming it: Decline keeps it (a tool error), Accept deletes it', async ({ explorer, baseURL }) => {
  const task = await createTask(baseURL!, 'Explorer: delete me');
  await explorer.open();
  const card = await explorer.submit('TaskController_deleteTask', { id: String(task.id) });
  const question = explorer.question();
  await expect(question).toHaveAccessibleName('TaskController_deleteTask asks');
  await expect(question).toHaveAccessibleDescription(`Delete the task “${task.title}” (id ${task.id})? It cannot be undone.`);
  const holdsFocus = () => question.evaluate((dialog) => dialog.contains(document.activeElement));
  expect(await holdsFocus(), 'focus moved into the dialog').toBe(true);
  await expect(question.getByLabel('Yes, go ahead')).toBeChecked();
  await expect(card.getByTestId('spinner')).toBeVisible();

  await question.getByRole('button', { name: 'Decline' }).click();
  await expect(question).toHaveCount(0);
  const result = card.getByTestId('result');
  await expect(result.getByTestId('result-error')).toContainText('Not done: the user declined the confirmation');
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(200);

  await card.getByTestId('run-button').click();
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question).toHaveCount(0);
  await expect(result.getByTestId('result-error')).toHaveCount(0);
  // Its place in the column may have moved meanwhile: other specs add and delete cards on the same board.
  expect(await jsonOf(result.getByTestId('structured-content').locator('pre'))).toEqual({ ...task, position: expect.any(Number) });
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(404);
});

test('Cancel, and Escape, cancel the question: the task stays', async ({ explorer, page, baseURL }) => {
  const task = await createTask(baseURL!, 'Explorer: keep me');
  await explorer.open();
  const question = explorer.question();
  const result = explorer.card('TaskController_deleteTask').getByTestId('result');
  const cancelButton = () => question.getByRole('button', { name: 'Cancel' }).click();
  for (const dismiss of [cancelButton, () => page.keyboard.press('Escape')]) {
    await explorer.submit('TaskController_deleteTask', { id: String(task.id) });
    await expect(question).toHaveAccessibleDescription(new RegExp(`“${task.title}”`));
    await dismiss();
    await expect(question).toHaveCount(0);
    await expect(result.getByTestId('result-error')).toContainText('Not done: the user cancelled the confirmation');
    await expect(result).toHaveAttribute('aria-busy', 'false');
  }
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(200);
});

test('two calls asking at once: their questions come one after the other, each answered on its own', async ({ explorer, page, baseURL }) => {
  const task = await createTask(baseURL!, 'Explorer: asked alongside a user');
  const user = await createUser(baseURL!, 'Explorer Asked-Alongside');
  await explorer.open();
  const cards = [
    await explorer.fill('TaskController_deleteTask', { id: String(task.id) }),
    await explorer.fill('UserController_deleteUser', { id: String(user.id) }),
  ];
  // Both Run buttons in one task of the page: both calls are out before a question comes back and the modal blocks.
  const runButtons = await Promise.all(cards.map((card) => card.getByTestId('run-button').elementHandle()));
  await page.evaluate((buttons) => buttons.forEach((button) => (button as HTMLButtonElement).click()), runButtons);
  const question = explorer.question();
  const asked: string[] = [];
  for (let round = 0; round < 2; round++) {
    await expect(question).toHaveAccessibleDescription(/^Delete the (task|user) /);
    await expect(question).toHaveCount(1);
    const message = await question.getByTestId('question-message').innerText();
    asked.push(message);
    await question.getByRole('button', { name: message.includes(task.title) ? 'Decline' : 'Accept' }).click();
    await expect(question.filter({ hasText: message }), 'answered: replaced by the next question, or closed').toHaveCount(0);
  }
  expect(asked.sort(), 'each asked once').toEqual([expect.stringContaining(`“${task.title}”`), expect.stringContaining(user.name)]);
  await expect(cards[0].getByTestId('result-error')).toContainText('Not done: the user declined');
  await expect(cards[1].getByTestId('structured-content')).toContainText(user.email);
  expect(await restStatus(baseURL!, `/api/tasks/${task.id}`)).toBe(200);
  expect(await restStatus(baseURL!, `/api/users/${user.id}`)).toBe(404);
});

test("a question's form is built from its requestedSchema: titles, options, defaults, checks; Accept sends it", async ({ explorer, page }, testInfo) => {
  await explorer.open();
  await explorer.submit('FixtureController_askAbout');
  const question = explorer.question();
  await expect(question).toHaveAccessibleName('FixtureController_askAbout asks');
  await expect(question).toHaveAccessibleDescription('Tell the fixture about your tea.');
  const colour = question.getByLabel('Favourite colour');
  await expect(colour.locator('option')).toHaveText(['Choose…', 'Red', 'Green', 'Blue']);
  await expect(question.getByLabel('Cup size').locator('option:checked')).toHaveText('medium');
  await expect(question.getByLabel('Cups a day')).toHaveValue('2');
  await expect(question.getByLabel('With milk')).not.toBeChecked();
  await saveScreenshot(question, testInfo, 'question-dialog.png');

  const mcpRequests = requestsTo(page, '/api/mcp');
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question.getByTestId('field-error')).toHaveText(['required', 'required']);
  await expect(question.getByLabel('Your name')).toBeFocused();
  await question.getByLabel('Cups a day').fill('21');
  await expect(question.getByTestId('field-error')).toHaveText(['required', 'required', 'must be at most 20']);
  expect(mcpRequests, 'an invalid answer is not sent').toEqual([]);

  await question.getByLabel('Your name').fill('Ada');
  await colour.selectOption({ label: 'Green' });
  await question.getByLabel('Cups a day').fill('3');
  await question.getByLabel('With milk').check();
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question).toHaveCount(0);
  const result = explorer.card('FixtureController_askAbout').getByTestId('result');
  expect(await jsonOf(result.getByTestId('structured-content').locator('pre'))).toEqual({
    action: 'accept',
    content: { name: 'Ada', colour: 'green', size: 'medium', cups: 3, milk: true },
  });
});

test('invalid input shows inline messages and sends no request; fixed input then runs', async ({ explorer, page }) => {
  await explorer.open();
  const mcpRequests = requestsTo(page, '/api/mcp');
  const restRequests = requestsTo(page, '/api/users/1.5');

  const sum = await explorer.submit('sum_numbers', { a: 'abc', b: '' });
  const a = sum.getByLabel('a', { exact: true });
  await expect(sum.getByTestId('field-error')).toHaveText(['must be a number', 'required']);
  await expect(a).toHaveAttribute('aria-invalid', 'true');
  await expect(a).toHaveAccessibleDescription(/must be a number/);
  await expect(a).toBeFocused();

  const user = await explorer.submit('UserController_getUser', { id: '1.5' });
  await expect(user.getByTestId('field-error')).toHaveText('must be an integer');
  await user.getByRole('button', { name: 'Send REST request' }).click();
  await user.getByLabel('id', { exact: true }).fill('0');
  await expect(user.getByTestId('field-error')).toHaveText('must be greater than 0');
  await user.getByTestId('run-button').click();

  await expect(sum.getByTestId('result')).toHaveCount(0);
  await expect(user.getByTestId('result')).toHaveCount(0);
  await expect(user.getByTestId('rest-response')).toHaveCount(0);
  expect(mcpRequests).toEqual([]);
  expect(restRequests).toEqual([]);

  await a.fill('1');
  await sum.getByLabel('b', { exact: true }).fill('2');
  await expect(sum.getByTestId('field-error')).toHaveCount(0);
  await expect((await explorer.run('sum_numbers')).getByTestId('text-view')).toHaveText('3');
  expect(mcpRequests.length).toBeGreaterThan(0);
});

test('a transport failure says so, and the next run works again', async ({ explorer, page, consoleGuard }) => {
  await explorer.open();
  consoleGuard.expect(/Failed to load resource: net::ERR_FAILED.*\/api\/mcp/);
  await page.route(isMcpEndpoint, (route) => route.abort('failed'));
  const failed = await explorer.run('TextController_getGreeting');
  await expect(failed.getByTestId('result-error')).toContainText('Transport failure');
  await page.unroute(isMcpEndpoint);
  await expect((await explorer.run('TextController_getGreeting')).getByTestId('text-view')).toHaveText('Hello, world!');
});

test('an unreachable MCP endpoint at load says so, and Try again lists the tools', async ({ explorer, page, consoleGuard }) => {
  consoleGuard.expect(/Failed to load resource: net::ERR_FAILED.*\/api\/mcp/);
  await page.route(isMcpEndpoint, (route) => route.abort('failed'));
  await page.goto('/');
  await expect(page.getByTestId('connect-error')).toContainText('Could not list the tools');
  await expect(explorer.names()).toHaveCount(0);
  await page.unroute(isMcpEndpoint);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(explorer.names().first()).toBeVisible();
  await expect(page.getByTestId('connect-error')).toHaveCount(0);
});

test('a slow call shows a spinner until its result arrives', async ({ explorer, page }) => {
  await explorer.open();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isMcpEndpoint, async (route) => {
    await held;
    await route.continue();
  });
  const card = await explorer.submit('TextController_getGreeting');
  await expect(card.getByTestId('spinner')).toBeVisible();
  await expect(card.getByTestId('run-button')).toBeDisabled();
  release();
  await expect(card.getByTestId('text-view')).toHaveText('Hello, world!');
  await expect(card.getByTestId('spinner')).toHaveCount(0);
});

test('the connect panel gives the endpoint and working settings for each client, with copy buttons', async ({ explorer, page, baseURL, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await explorer.open();
  const endpoint = `${baseURL}/api/mcp`;
  const panel = page.getByTestId('connect-panel');
  await expect(panel.getByTestId('endpoint-url')).toHaveText(endpoint);
  expect(await jsonOf(panel.getByTestId('config-claude-desktop'))).toEqual({
    mcpServers: { 'vovk-gateway': { command: 'npx', args: ['-y', 'mcp-remote', endpoint] } },
  });
  expect(await jsonOf(panel.getByTestId('config-cursor'))).toEqual({ mcpServers: { 'vovk-gateway': { url: endpoint } } });
  expect(await jsonOf(panel.getByTestId('config-vscode'))).toEqual({ servers: { 'vovk-gateway': { type: 'http', url: endpoint } } });
  await expect(panel.getByTestId('config-inspector')).toHaveText(
    `npx -y @modelcontextprotocol/inspector --cli ${endpoint} --method tools/list`,
  );
  await expect(panel.getByTestId('config-mcp-remote')).toHaveText(`npx -y mcp-remote ${endpoint}`);
  await expect(panel.getByTestId('sse-url')).toHaveText(`${baseURL}/api/sse`);
  expect(await jsonOf(panel.getByTestId('config-sse'))).toEqual({ mcpServers: { 'vovk-gateway': { type: 'sse', url: `${baseURL}/api/sse` } } });

  for (const [button, testId] of [
    ['Copy MCP endpoint URL', 'endpoint-url'],
    ['Copy Cursor settings', 'config-cursor'],
    ['Copy Claude Desktop settings', 'config-claude-desktop'],
  ]) {
    await panel.getByRole('button', { name: button }).click();
    await expect(panel.getByRole('button', { name: button })).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await panel.getByTestId(testId).innerText());
  }
});

test('copying still works where the Clipboard API is missing', async ({ explorer, page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
  });
  await explorer.open();
  const button = page.getByRole('button', { name: 'Copy mcp-remote settings' });
  await button.click();
  await expect(button).toHaveText('Copied');
  const reader = await context.newPage();
  await reader.goto('/api/text/greeting');
  expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(
    await page.getByTestId('config-mcp-remote').innerText(),
  );
});

test('readable at 1280px (panel beside the tools) and at 375px (one column, no horizontal overflow)', async ({ explorer, page }, testInfo) => {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.setViewportSize({ width: 1280, height: 900 });
  await explorer.open();
  await explorer.run('UserController_getUser', { id: '1' });
  await explorer.run('AnnotatedController_getAnnotatedImage');
  const tools = (await page.getByRole('main').boundingBox())!;
  const panel = (await page.getByTestId('connect-panel').boundingBox())!;
  expect(panel.x).toBeGreaterThanOrEqual(tools.x + tools.width);
  expect(await overflow()).toBe(0);
  await saveScreenshot(page, testInfo, 'explorer-1280.png');

  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(overflow).toBe(0);
  const narrowTools = (await page.getByRole('main').boundingBox())!;
  expect(narrowTools.width).toBeLessThanOrEqual(375);
  expect((await page.getByTestId('connect-panel').boundingBox())!.y).toBeGreaterThan(narrowTools.y + narrowTools.height - 1);
  for (const card of await page.getByTestId('tool-card').all()) {
    const box = (await card.boundingBox())!;
    expect(box.x + box.width, await card.getByTestId('tool-name').innerText()).toBeLessThanOrEqual(375);
  }
  await saveScreenshot(page, testInfo, 'explorer-375.png');
});

test('the console-error guard catches an error in the page', async ({ explorer, page, consoleGuard }) => {
  await explorer.open();
  expect(consoleGuard.unexpected()).toEqual([]);
  await page.evaluate(() => console.error('guard self-test'));
  await expect.poll(() => consoleGuard.unexpected()).toEqual([expect.stringContaining('guard self-test')]);
  consoleGuard.expect(/guard self-test/);
  expect(consoleGuard.unexpected()).toEqual([]);
});
