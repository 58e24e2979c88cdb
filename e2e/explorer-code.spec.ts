// The explorer's code console in a real browser: the typed signatures of the listed tools, a program of several calls
// (its inner calls as they happen, then its result and logs), a confirmation inside a program in the page's question
// dialog (Accept: one task created, the other deleted; Decline: the program's error, nothing deleted, nothing created
// twice), and Cancel ending a long program on the server too.
import { randomUUID } from 'node:crypto';
import type { Locator } from '@playwright/test';
import { expect, test } from './support/explorer';
import { connect, using } from './support/mcp';
import { createTask, restStatus, type Task, type User } from './support/rest-data';

const getJson = async <T>(baseURL: string, path: string): Promise<T> =>
  (await fetch(baseURL + path)).json() as Promise<T>;

/** The tasks REST lists with exactly this title. */
const tasksTitled = async (baseURL: string, title: string) =>
  (await getJson<Task[]>(baseURL, '/api/tasks')).filter((task) => task.title === title);

/** How many slow counts of `label` run on the server now. */
const countsRunning = async (baseURL: string, label: string) =>
  (await getJson<{ running: number }>(baseURL, `/api/fixture/counting?label=${label}`)).running;

const innerCalls = (codeConsole: Locator) =>
  codeConsole.getByRole('region', { name: 'Inner calls' }).getByRole('listitem');
const resultOf = (codeConsole: Locator) => codeConsole.getByRole('region', { name: 'Result' });

/** What the finished program returned, as the Result region shows it (pretty JSON). */
async function returned(codeConsole: Locator): Promise<unknown> {
  const result = resultOf(codeConsole);
  await expect(result).toHaveAttribute('aria-busy', 'false');
  return JSON.parse(await result.locator('pre').innerText());
}

/** A program that creates a task titled `title`, then deletes task `victim` (which asks the user first). */
const createThenDelete = (title: string, victim: Task) => `
const created = await tools.TaskController_createTask({ body: { title: ${JSON.stringify(title)} } });
console.log('created', created.id);
const deleted = await tools.TaskController_deleteTask({ params: { id: ${victim.id} } });
return { created: created.title, deleted: deleted.id };
`;

/** The signature the code surface's `search_tools` gives a tool. */
const searchedSignature = (baseURL: string, name: string) =>
  using(connect('client-v2 (2026-07-28)', `${baseURL}/api/mcp?tools=code`), async (client) => {
    const { structuredContent } = await client.callTool('search_tools', { query: name, limit: 1 });
    const [hit] = (structuredContent as { tools: { name: string; signature: string }[] }).tools;
    expect(hit.name).toBe(name);
    return hit.signature;
  });

test('the signatures of the listed tools, as the code surface types them; filtered by name; Insert call writes a call', async ({
  explorer,
  baseURL,
}) => {
  const expected = await searchedSignature(baseURL!, 'UserController_getUser');
  const listed = await using(connect('client-v2 (2026-07-28)', `${baseURL}/api/mcp?tools=all`), async (client) =>
    (await client.listTools()).map((tool) => tool.name),
  );
  const codeConsole = await explorer.openCodeConsole();
  const signatures = codeConsole.getByRole('region', { name: 'Signatures' });
  const getUser = signatures
    .getByTestId('signature')
    .filter({ hasText: /^UserController_getUser\(/ })
    .locator('pre');
  await expect(getUser).toHaveText(
    /^UserController_getUser\(args: \{\n[\s\S]*\n {4}id: number;\n[\s\S]*\}\): Promise<\{\n[\s\S]*\n {2}name: string;/,
  );
  await expect(getUser).toHaveText(expected);
  const signed = await signatures.getByTestId('signature').locator('pre').allInnerTexts();
  expect(signed.map((signature) => signature.slice(0, signature.indexOf('('))).toSorted()).toEqual(listed.toSorted());
  const total = listed.length;
  await expect(signatures.getByTestId('signature-count')).toHaveText(`${total} of ${total} tools`);

  await signatures.getByLabel('Filter signatures').fill('getuser');
  await expect(signatures.getByTestId('signature').filter({ visible: true })).toHaveCount(1);
  await expect(signatures.getByTestId('signature-count')).toHaveText(`1 of ${total} tools`);

  const program = codeConsole.getByLabel('Program', { exact: true });
  await expect(program, 'prefilled with an example over real tools').toHaveValue(/await tools\.\w+_\w+\(\)/);
  await program.fill('');
  await signatures.getByRole('button', { name: 'Insert call: UserController_getUser' }).click();
  await expect(program).toHaveValue('const result = await tools.UserController_getUser({ params: { id: 0 } });\n');
  await expect(program).toBeFocused();
});

test('the example program runs as it is: its result and its log line', async ({ explorer, baseURL }) => {
  const codeConsole = await explorer.openCodeConsole();
  await codeConsole.getByRole('button', { name: 'Run', exact: true }).click();
  const users = await getJson<User[]>(baseURL!, '/api/users');
  const value = (await returned(codeConsole)) as string[];
  expect(value.length).toBeGreaterThan(0);
  expect(value[0]).toBe(users[0].name);
  await expect(codeConsole.getByRole('region', { name: 'Logs' }).locator('pre')).toHaveText(/^\d+ found$/);
  await expect(innerCalls(codeConsole)).toHaveCount(1);
});

test('a program of several calls: the inner calls as they happen, then its result, logs and calls', async ({
  explorer,
  baseURL,
}) => {
  const [first] = await getJson<User[]>(baseURL!, '/api/users');
  const codeConsole = await explorer.openCodeConsole();
  await explorer.runProgram(
    codeConsole,
    `
const users: { id: number; name: string }[] = await tools.UserController_listUsers();
const first = await tools.UserController_getUser({ params: { id: users[0].id } });
console.log(\`the first user is \${first.name}\`);
const { counted } = await tools.FixtureController_countSlowly({ body: { to: 20, stepMs: 100 } });
console.log('counted', counted);
return { first: first.name, counted };
`,
  );
  const calls = innerCalls(codeConsole);
  // While the count runs: the calls before it done, the count running with its own progress.
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(0)).toHaveAttribute('data-state', 'done');
  await expect(calls.nth(0)).toContainText(/UserController_listUsers done in [\d.]+ ms/);
  await expect(calls.nth(1)).toHaveAttribute('data-state', 'done');
  await expect(calls.nth(2)).toContainText(/FixtureController_countSlowly running: \d+ of 20 counted/);
  await expect(calls.nth(2)).toHaveAttribute('data-state', 'running');
  await expect(resultOf(codeConsole)).toHaveAttribute('aria-busy', 'true');

  expect(await returned(codeConsole)).toEqual({ first: first.name, counted: 20 });
  await expect(codeConsole.getByRole('region', { name: 'Logs' }).locator('pre')).toHaveText(
    `the first user is ${first.name}\ncounted 20`,
  );
  await expect(calls).toHaveText([
    /^UserController_listUsers done in [\d.]+ ms$/,
    /^UserController_getUser done in [\d.]+ ms$/,
    /^FixtureController_countSlowly done in [\d.]+ ms$/,
  ]);
});

test('a program that fails: its error text, with what it printed', async ({ explorer }) => {
  const codeConsole = await explorer.openCodeConsole();
  await explorer.runProgram(
    codeConsole,
    "console.log('about to look');\nconst user = await tools.UserController_getUser({ params: { id: 999 } });\nreturn user;",
  );
  const error = resultOf(codeConsole).getByRole('alert');
  await expect(error).toContainText('The program failed: ');
  await expect(error).toContainText('User 999 not found');
  await expect(codeConsole.getByRole('region', { name: 'Logs' }).locator('pre')).toHaveText('about to look');
  await expect(innerCalls(codeConsole)).toHaveText([/^UserController_getUser failed/]);
});

test('a confirmation inside a program comes in the same dialog; Accept: exactly one task created, the other deleted', async ({
  explorer,
  baseURL,
}) => {
  const victim = await createTask(baseURL!, 'Code console: delete me');
  const title = `Code console: created ${randomUUID().slice(0, 8)}`;
  const codeConsole = await explorer.openCodeConsole();
  await explorer.runProgram(codeConsole, createThenDelete(title, victim));

  const question = explorer.question();
  await expect(question).toHaveAccessibleDescription(
    `Delete the task “${victim.title}” (id ${victim.id})? It cannot be undone.`,
  );
  await expect(question).toHaveAccessibleName(/ asks$/);
  await expect(question.getByLabel('Yes, go ahead')).toBeChecked();
  const calls = innerCalls(codeConsole);
  await expect(calls).toHaveText([
    /^TaskController_createTask done in/,
    /^TaskController_deleteTask waiting for your answer$/,
  ]);
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question).toHaveCount(0);

  expect(await returned(codeConsole)).toEqual({ created: title, deleted: victim.id });
  await expect(calls).toHaveText([/^TaskController_createTask done in/, /^TaskController_deleteTask done in/]);
  await expect(codeConsole.getByRole('region', { name: 'Logs' }).locator('pre')).toHaveText(/^created \d+$/);
  expect(await tasksTitled(baseURL!, title), 'the program ran twice; the create once').toHaveLength(1);
  expect(await restStatus(baseURL!, `/api/tasks/${victim.id}`)).toBe(404);
});

test("Decline: the program's error shows, nothing is deleted, and the task it created is there once", async ({
  explorer,
  baseURL,
}) => {
  const victim = await createTask(baseURL!, 'Code console: keep me');
  const title = `Code console: created before a no ${randomUUID().slice(0, 8)}`;
  const codeConsole = await explorer.openCodeConsole();
  await explorer.runProgram(codeConsole, createThenDelete(title, victim));

  const question = explorer.question();
  await expect(question).toHaveAccessibleDescription(new RegExp(`“${victim.title}”`));
  await question.getByRole('button', { name: 'Decline' }).click();
  await expect(question).toHaveCount(0);

  const error = resultOf(codeConsole).getByRole('alert');
  await expect(error).toContainText('The program failed: ');
  await expect(error).toContainText('Not done: the user declined the confirmation');
  await expect(innerCalls(codeConsole)).toHaveText([
    /^TaskController_createTask done in/,
    /^TaskController_deleteTask failed/,
  ]);
  expect(await restStatus(baseURL!, `/api/tasks/${victim.id}`)).toBe(200);
  expect(await tasksTitled(baseURL!, title)).toHaveLength(1);
});

test('Cancel ends a long program: the console says cancelled, and the count stops on the server', async ({
  explorer,
  baseURL,
}) => {
  const label = `code-console-${randomUUID().slice(0, 8)}`;
  const codeConsole = await explorer.openCodeConsole();
  await explorer.runProgram(
    codeConsole,
    `await tools.FixtureController_countSlowly({ body: { to: 100, stepMs: 100, label: ${JSON.stringify(label)} } });\nreturn 'finished';`,
  );
  const count = innerCalls(codeConsole);
  await expect(count).toContainText(/running: \d+ of 100 counted/);
  expect(await countsRunning(baseURL!, label)).toBe(1);

  await codeConsole.getByRole('button', { name: 'Cancel', exact: true }).click();
  const result = resultOf(codeConsole);
  await expect(result.getByTestId('result-cancelled')).toContainText('Cancelled');
  await expect(result).toHaveAttribute('aria-busy', 'false');
  await expect(count).toHaveAttribute('data-state', 'stopped');
  await expect(codeConsole.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await expect
    .poll(() => countsRunning(baseURL!, label), { message: 'the inner call was aborted on the server' })
    .toBe(0);
  await expect(codeConsole.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});
