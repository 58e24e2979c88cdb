// The explorer's progress bar, Cancel and tasks in a real browser: a long count runs as a task (status, message, Cancel
// → cancelled on the server too), a running task outlives a reload, a short one shows its result, a question inside a
// task is answered in the page's dialog, a plain call fills the bar and Cancel drops it, other tools are unchanged.
import type { Locator } from '@playwright/test';
import { taskId as asTaskId } from '@modelcontextprotocol/ext-tasks/core';
import { expect, isMcpEndpoint, test } from './support/explorer';
import { connectTaskClient } from './support/tasks';

const COUNT = 'FixtureController_countSlowly';

/** The task as a real requester (ext-tasks over the v2 client, not the page) reads it: `tasks/get`. */
async function taskOnServer(baseURL: string, taskId: string) {
  const { session, close } = await connectTaskClient(baseURL);
  try {
    return await session.task(asTaskId(taskId)).snapshot();
  } finally {
    await close();
  }
}

/** How far the count has got, as the progress bar tells assistive technology ("7 of 200 counted"). */
async function countedSoFar(progress: Locator): Promise<number> {
  const text = (await progress.getAttribute('aria-valuetext')) ?? '';
  return Number(text.match(/^(\d+) of \d+ counted$/)?.[1] ?? 0);
}

const jsonOf = async (locator: Locator) => JSON.parse(await locator.innerText());

test('a long count runs as a task: working, its message advances; Cancel ends it cancelled, on the server too', async ({ explorer, baseURL }) => {
  await explorer.open();
  const result = (await explorer.submit(COUNT, { to: '200', stepMs: '100' })).getByTestId('result');
  const progress = result.getByRole('progressbar', { name: 'Progress' });
  await expect(result.getByTestId('task-state')).toHaveText('working');
  await expect(progress).not.toHaveAttribute('value'); // a task says how far in words only: the bar is indeterminate
  await expect.poll(() => countedSoFar(progress)).toBeGreaterThan(0);
  const seen = await countedSoFar(progress);
  await expect.poll(() => countedSoFar(progress), 'the status message advances').toBeGreaterThan(seen);
  await expect(result.getByTestId('progress-message')).toHaveText(/^\d+ of 200 counted$/);
  const taskId = await result.getByTestId('task-id').innerText();
  expect((await taskOnServer(baseURL!, taskId)).status).toBe('working');

  await result.getByRole('button', { name: 'Cancel' }).click();
  await expect(result.getByTestId('result-cancelled')).toContainText('The task was stopped before it finished');
  await expect(result).toHaveAttribute('aria-busy', 'false');
  await expect(result.getByTestId('task-state')).toHaveText('cancelled');
  await expect(progress).toHaveCount(0);
  await expect(result.getByTestId('result-error')).toHaveCount(0);
  expect((await taskOnServer(baseURL!, taskId)).status).toBe('cancelled');
});

test('a task still running survives a reload: the page follows it again, then shows its result', async ({ explorer, page }) => {
  await explorer.open();
  const before = (await explorer.submit(COUNT, { to: '40', stepMs: '150' })).getByTestId('result');
  await expect(before.getByTestId('task-state')).toHaveText('working');
  const taskId = await before.getByTestId('task-id').innerText();

  await page.reload();
  const result = explorer.card(COUNT).getByTestId('result');
  await expect(result.getByTestId('task-id')).toHaveText(taskId);
  await expect(result.getByTestId('task-state')).toHaveText('working');
  await expect(result.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await expect(result.getByTestId('task-state')).toHaveText('completed', { timeout: 15_000 });
  expect(await jsonOf(result.getByTestId('structured-content').locator('pre'))).toEqual({ counted: 40 });

  await page.reload();
  await expect(explorer.card(COUNT).getByTestId('tool-name')).toBeVisible();
  await expect(explorer.card(COUNT).getByTestId('result'), 'a task that ended is not followed again').toHaveCount(0);
});

test('a short count completes as a task and shows { "counted": 3 }, as a direct call shows it', async ({ explorer }) => {
  await explorer.open();
  const result = await explorer.run(COUNT, { to: '3', stepMs: '50' });
  await expect(result.getByTestId('task-state')).toHaveText('completed');
  const structured = result.getByTestId('structured-content').locator('pre');
  expect(await jsonOf(structured)).toEqual({ counted: 3 });
  await expect(result.getByTestId('content-item').getByTestId('json-view')).toHaveText('{\n  "counted": 3\n}');
  await result.getByRole('button', { name: 'Raw' }).click();
  const asTask = await jsonOf(result.getByTestId('raw-json'));

  await explorer.page.getByLabel('Declare the Tasks extension').uncheck();
  const direct = await explorer.run(COUNT);
  await expect(direct.getByTestId('task-status')).toHaveCount(0);
  const { _meta: _serverInfo, ...directResult } = await jsonOf(direct.getByTestId('raw-json'));
  expect(asTask).toEqual(directResult);
});

test("a task's question goes to the page's dialog, its status input_required; the answer goes back and it completes", async ({ explorer }) => {
  await explorer.open();
  const card = await explorer.fill(COUNT, { to: '2', stepMs: '50' });
  await card.getByLabel('ask', { exact: true }).check();
  await card.getByTestId('run-button').click();
  const question = explorer.question();
  await expect(question).toHaveAccessibleName(`${COUNT} asks`);
  await expect(question).toHaveAccessibleDescription('Count now?');
  const result = card.getByTestId('result');
  await expect(result.getByTestId('task-state')).toHaveText('input_required');
  await question.getByLabel('Go ahead?').check();
  await question.getByRole('button', { name: 'Accept' }).click();
  await expect(question).toHaveCount(0);
  await expect(result.getByTestId('task-state')).toHaveText('completed');
  expect(await jsonOf(result.getByTestId('structured-content').locator('pre'))).toEqual({ counted: 2, answer: 'accept' });
});

test('without the Tasks extension the count is a plain call: the bar fills as it reports, Cancel drops its request', async ({ explorer, page }) => {
  await explorer.open();
  await page.getByLabel('Declare the Tasks extension').uncheck();
  const dropped: string[] = [];
  page.on('requestfailed', (request) => {
    if (isMcpEndpoint(new URL(request.url()))) dropped.push(request.failure()?.errorText ?? '');
  });
  const result = (await explorer.submit(COUNT, { to: '200', stepMs: '100' })).getByTestId('result');
  const progress = result.getByRole('progressbar', { name: 'Progress' });
  await expect(progress).toHaveAttribute('max', '200');
  const value = async () => Number(await progress.getAttribute('value'));
  await expect.poll(value).toBeGreaterThan(0);
  const seen = await value();
  await expect.poll(value, 'the bar fills as progress comes').toBeGreaterThan(seen);
  await expect(progress).toHaveAttribute('aria-valuetext', /^\d+ of 200 counted$/);
  await expect(result.getByTestId('task-status')).toHaveCount(0);

  await result.getByRole('button', { name: 'Cancel' }).click();
  await expect(result.getByTestId('result-cancelled')).toContainText('The request was dropped before the tool answered');
  await expect(result).toHaveAttribute('aria-busy', 'false');
  await expect(result.getByTestId('result-error')).toHaveCount(0);
  // The page shows the cancel at once; the browser reports the failed request to Playwright a moment later.
  await expect.poll(() => dropped, { message: 'the call was cancelled by dropping its request' }).toEqual(['net::ERR_ABORTED']);
});

test('a tool that is no task shows its result as before, with the extension declared', async ({ explorer }) => {
  await explorer.open();
  await expect(explorer.page.getByLabel('Declare the Tasks extension'), 'declared by default').toBeChecked();
  const result = await explorer.run('sum_numbers', { a: '2', b: '3.5' });
  await expect(result.getByTestId('text-view')).toHaveText('5.5');
  await expect(result.getByTestId('task-status')).toHaveCount(0);
  await expect(result.getByRole('progressbar')).toHaveCount(0);
  await expect(result.getByTestId('result-cancelled')).toHaveCount(0);
});
