// The explorer and the board sign in with OAuth (issue 10): a gateway with OAUTH_ISSUER and the development
// authorization server, in a real browser: Sign in from the 401 challenge, who is signed in, calls as that user,
// refresh, Sign out; no unexpected console errors.
import type { Page } from '@playwright/test';
import type { DevAuthServer } from '../auth-dev/server.mjs';
import { type ConsoleGuard, expect, test } from './support/explorer';
import { type OAuthGateway, scriptToken, startOAuthGateway } from './support/oauth';
import { e2ePort } from './support/server';

test.describe.configure({ mode: 'serial' });

type Task = { id: number; title: string; createdBy: string | null };

/** Chromium logs every 4xx response: the gateway's 401 before signing in, and the sign-in's client check at the AS. */
const expectedLoadErrors = [
  /status of 401 .*\/api\/(mcp|board\/stream)/,
  /status of 400 .*\/token/, // a made-up refresh token tells whether the authorization server knows `gateway-explorer`
];

/** Signs in as the test user on the authorization server's pages (the page was sent there), answers the consent. */
async function signInAtAuthServer(page: Page, authServer: DevAuthServer, consent: 'Allow' | 'Deny' = 'Allow') {
  await expect(page).toHaveURL(new RegExp(`^${authServer.issuer}/interaction/`));
  await page.getByLabel('Username').fill(authServer.user.login);
  await page.getByLabel('Password').fill(authServer.user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: consent }).click();
}

/** A task over REST as a script sees it: a read-only client-credentials token of `gateway-script`. */
async function taskOverRest({ as, gateway, resource }: OAuthGateway, id: number): Promise<Task> {
  const token = await scriptToken(as, resource, 'gateway:read');
  const response = await fetch(`${gateway.baseURL}/api/tasks/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.json();
}

/** The OAuth session this tab keeps (sessionStorage), as the test reads it. */
const storedSession = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('vovk-gateway-oauth') ?? '{}'));

/** Overwrites fields of the stored tokens, as if the page held other ones. */
const replaceStoredTokens = (page: Page, replacement: Record<string, unknown>) =>
  page.evaluate((fields) => {
    const session = JSON.parse(sessionStorage.getItem('vovk-gateway-oauth') ?? '{}');
    session.tokens = { ...session.tokens, ...fields };
    sessionStorage.setItem('vovk-gateway-oauth', JSON.stringify(session));
  }, replacement);

function expectLoadErrors(consoleGuard: ConsoleGuard): void {
  for (const pattern of expectedLoadErrors) consoleGuard.expect(pattern);
}

test.describe('sign-in with the development authorization server', () => {
  const portOffset = 30;
  let setup: OAuthGateway;
  test.use({ baseURL: `http://localhost:${e2ePort + portOffset}` });
  test.beforeAll(async () => {
    setup = await startOAuthGateway(e2ePort + portOffset, { authPort: e2ePort + portOffset + 1 });
  });
  test.afterAll(async () => setup?.stop());

  test('the explorer offers Sign in, comes back signed in as ada, runs tools as ada, and signs out', async ({
    explorer,
    page,
    consoleGuard,
  }) => {
    expectLoadErrors(consoleGuard);
    await page.goto('/');
    await expect(page.getByLabel(/requires a token/), 'pasting a token stays possible').toBeVisible();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInAtAuthServer(page, setup.as);

    await expect(page).toHaveURL(`${setup.gateway.baseURL}/`);
    await expect(page.getByTestId('tool-card').first()).toBeVisible();
    await expect(page.getByTestId('signed-in-user')).toHaveText('ada');
    await expect(page.getByLabel(/requires a token/)).toHaveCount(0);
    // Every scope the pages need was asked for and granted: deleting users (gateway:admin) is listed.
    await expect(explorer.card('UserController_deleteUser')).toBeVisible();
    const session = await storedSession(page);
    expect(session.tokens.scope.split(' ')).toEqual(
      expect.arrayContaining(['gateway:read', 'gateway:write', 'gateway:admin']),
    );
    expect(session.client.client_id).toBe('gateway-explorer');

    const title = `Signed-in task ${Date.now()}`;
    const result = await explorer.run('TaskController_createTask', { title });
    const created: Task = JSON.parse(await result.getByTestId('structured-content').locator('pre').innerText());
    expect(created).toMatchObject({ title, createdBy: 'ada' });
    expect(await taskOverRest(setup, created.id)).toMatchObject({ title, createdBy: 'ada' });
    // The REST view sends the access token too.
    const rest = explorer.card('TaskController_getTask').getByTestId('rest-view');
    await explorer.card('TaskController_getTask').getByLabel('id', { exact: true }).fill(String(created.id));
    await rest.getByRole('button', { name: 'Send REST request' }).click();
    await expect(rest.getByTestId('rest-status')).toContainText('HTTP 200');
    await expect(rest.getByTestId('rest-response')).toContainText('"createdBy": "ada"');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('signed-in-user')).toHaveCount(0);
    expect((await storedSession(page)).tokens).toBeUndefined();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('tool-card')).toHaveCount(0);
  });

  test('denied consent: the callback page says why and links back; no tokens are kept', async ({
    page,
    consoleGuard,
  }) => {
    expectLoadErrors(consoleGuard);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInAtAuthServer(page, setup.as, 'Deny');
    await expect(page).toHaveURL(new RegExp(`^${setup.gateway.baseURL}/oauth/callback\\?`));
    await expect(page.getByRole('alert').filter({ hasText: 'Sign-in failed' })).toContainText('denied');
    expect(await storedSession(page)).not.toHaveProperty('tokens');
    await page.getByRole('link', { name: 'the explorer' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test('the board offers Sign in, comes back to /board signed in as ada, and its new card is created by ada', async ({
    page,
    consoleGuard,
  }) => {
    expectLoadErrors(consoleGuard);
    await page.goto('/board');
    const connection = page.getByRole('status', { name: 'Connection' });
    await expect(connection).toHaveText('Token needed');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInAtAuthServer(page, setup.as);

    await expect(page).toHaveURL(`${setup.gateway.baseURL}/board`);
    await expect(connection).toHaveText('Live');
    await expect(page.getByTestId('signed-in-user')).toHaveText('ada');
    const title = `Board task ${Date.now()}`;
    await page.getByLabel('New task title').fill(title);
    await page.getByRole('button', { name: 'Add task' }).click();
    const card = page.getByRole('region', { name: 'To do' }).getByRole('listitem', { name: title });
    await expect(card.getByTestId('card-creator')).toHaveText('created by ada');
    const id = Number(await card.getAttribute('data-task-id'));
    expect(await taskOverRest(setup, id)).toMatchObject({ title, createdBy: 'ada' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(connection).toHaveText('Token needed');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(connection).toHaveText('Token needed');
  });
});

test.describe('refresh of a short-lived access token', () => {
  const portOffset = 32;
  const ttlSeconds = 3;
  let setup: OAuthGateway;
  test.use({ baseURL: `http://localhost:${e2ePort + portOffset}` });
  test.beforeAll(async () => {
    setup = await startOAuthGateway(e2ePort + portOffset, {
      authPort: e2ePort + portOffset + 1,
      accessTokenTtlSeconds: ttlSeconds,
    });
  });
  test.afterAll(async () => setup?.stop());

  test('an expired token is refreshed before a call, a refused one after its 401; then Sign in', async ({
    explorer,
    page,
    consoleGuard,
  }) => {
    expectLoadErrors(consoleGuard);
    await page.goto('/board');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInAtAuthServer(page, setup.as);
    const connection = page.getByRole('status', { name: 'Connection' });
    await expect(connection).toHaveText('Live');
    const addTask = async (title: string) => {
      await page.getByLabel('New task title').fill(title);
      await page.getByRole('button', { name: 'Add task' }).click();
      return page.getByRole('region', { name: 'To do' }).getByRole('listitem', { name: title });
    };

    // Past its expiry (exp is in whole seconds) the page refreshes the token before it sends.
    const first = await storedSession(page);
    expect(first.tokens.expires_in).toBe(ttlSeconds);
    await page.waitForTimeout(ttlSeconds * 1000 + 1000);
    await expect((await addTask('After expiry')).getByTestId('card-creator')).toHaveText('created by ada');
    const refreshed = await storedSession(page);
    expect(refreshed.tokens.access_token).not.toBe(first.tokens.access_token);
    expect(refreshed.tokens.refresh_token).not.toBe(first.tokens.refresh_token); // the dev server rotates them

    // A token the gateway refuses (401) while the page thinks it valid: refreshed once, then the call is sent again.
    const refusedToken = { access_token: 'not-a-token', expiresAt: Date.now() + 3_600_000 };
    const rejected = page.waitForResponse(
      (response) => response.url().endsWith('/api/tasks') && response.status() === 401,
    );
    await replaceStoredTokens(page, refusedToken);
    const card = await addTask('After a 401');
    await rejected;
    await expect(card.getByTestId('card-creator')).toHaveText('created by ada');
    consoleGuard.expect(/status of 401 .*\/api\/tasks/);
    // The explorer's MCP transport too (its authProvider): it connects after a refresh and runs tools.
    await replaceStoredTokens(page, refusedToken);
    await page.goto('/');
    await expect(page.getByTestId('signed-in-user')).toHaveText('ada');
    await expect((await explorer.run('sum_numbers', { a: '2', b: '3' })).getByTestId('text-view')).toHaveText('5');
    expect((await storedSession(page)).tokens.access_token).not.toBe(refusedToken.access_token);

    // A refresh token the server refuses too: the tokens are forgotten and the page offers Sign in.
    await page.goto('/board');
    await expect(connection).toHaveText('Live');
    await replaceStoredTokens(page, { ...refusedToken, refresh_token: 'not-a-refresh-token' });
    await addTask('Never created');
    await expect(page.getByRole('alert').filter({ hasText: 'HTTP 401' })).toHaveText(/sign in/);
    await expect(connection).toHaveText('Token needed');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByTestId('signed-in-user')).toHaveCount(0);
  });
});
