// The board MCP App's requests per minute in the explorer (issue 26; `npm run bench -- --only board-app`): the app
// open in Debian's chromium, every MCP request the page sends counted while the board is idle and while a REST write
// changes it every second, with how long each write took to show in the app — for each way the app can keep up:
// updates forwarded by the host, the long wait of the app-only tool (the host forwards nothing), and the poll every
// second (the app-only tool refused as unknown, as a gateway without it would).
import { chromium } from '@playwright/test';

const BOARD_TOOL = 'BoardController_getBoard';
const WAIT_TOOL = 'BoardController_waitForChange';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** After the app painted: its first requests (the subscription, the first wait) are over before counting starts. */
const SETTLE_MS = 3000;

/** How the app is made to keep up: the explorer as it is, with forwarding switched off, and without the app-only tool too. */
export const BOARD_APP_MODES = {
  push: { label: 'updates forwarded by the host', forward: true, refuseWait: false },
  wait: { label: 'host forwards nothing: the app-only tool waits', forward: false, refuseWait: false },
  poll: { label: 'no app-only tool either: a poll every second', forward: false, refuseWait: true },
};

/** What one request of the page is, for counting: the tool a tools/call names, else its method. */
function requestKind(request) {
  if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/mcp') return undefined;
  const message = request.postDataJSON();
  return message?.method === 'tools/call' ? message.params?.name : message?.method;
}

/** A 2026-07-28 JSON-RPC error answer, as a gateway that lacks the tool gives it. */
const unknownTool = (id) => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: `Tool ${WAIT_TOOL} not found` } }),
});

/** Opens the explorer on `baseURL`, runs the board tool and waits until its app painted; returns the app's frame. */
async function openBoardApp(page, baseURL, mode) {
  if (mode?.refuseWait) {
    await page.route('**/api/mcp*', (route) => {
      const message = route.request().postDataJSON();
      if (message?.method === 'tools/call' && message.params?.name === WAIT_TOOL) return route.fulfill(unknownTool(message.id));
      return route.fallback();
    });
  }
  await page.goto(`${baseURL}/`);
  const card = page.getByTestId('tool-card').filter({ has: page.getByTestId('tool-name').getByText(BOARD_TOOL, { exact: true }) });
  await card.getByTestId('run-button').click();
  const app = card.frameLocator('[data-testid="app-frame"]');
  await app.getByRole('region', { name: 'To do' }).waitFor();
  const forwarding = card.getByLabel('Forward resource updates');
  if (mode && !mode.forward && (await forwarding.isChecked())) {
    await forwarding.uncheck();
    await app.getByTestId('sync-mode').and(app.locator(`[data-mode="${mode.refuseWait ? 'poll' : 'wait'}"]`)).waitFor();
  }
  return app;
}

/** The requests started within `run()`, by kind, and how long it took. */
async function counted(page, run) {
  const kinds = new Map();
  const count = (request) => {
    const kind = requestKind(request);
    if (kind) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  };
  page.on('request', count);
  const started = performance.now();
  try {
    await run();
  } finally {
    page.off('request', count);
  }
  return { kinds, seconds: (performance.now() - started) / 1000 };
}

/** One write a second for `seconds` (a task's title over REST), each timed until the app shows it. */
async function writeEverySecond(baseURL, app, taskId, seconds) {
  const shownMs = [];
  for (let n = 0; n < seconds; n++) {
    const started = performance.now();
    const title = `Bench write ${n} ${Date.now()}`;
    await fetch(`${baseURL}/api/tasks/${taskId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    await app.getByText(title, { exact: true }).waitFor({ timeout: 10_000 });
    shownMs.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))));
  }
  return shownMs;
}

const perMinute = ({ kinds, seconds }, kind) =>
  ((kind ? (kinds.get(kind) ?? 0) : [...kinds.values()].reduce((sum, n) => sum + n, 0)) * 60) / seconds;

const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Measures the open board app on `baseURL` (a running test build) for `windowSeconds` idle, then as long under one
 * write a second; `mode` undefined measures the explorer as built (for a build before issue 26). Returns the figures.
 */
export async function measureBoardApp(baseURL, mode, windowSeconds) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const task = await (
    await fetch(`${baseURL}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Bench task' }) })
  ).json();
  try {
    const page = await browser.newPage();
    const app = await openBoardApp(page, baseURL, mode);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const idle = await counted(page, () => new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000)));
    let shownMs = [];
    const writing = await counted(page, async () => (shownMs = await writeEverySecond(baseURL, app, task.id, windowSeconds)));
    return { idle, writing, shownMs };
  } finally {
    await browser.close();
    await fetch(`${baseURL}/api/tasks/${task.id}`, { method: 'DELETE' });
  }
}

/** A table row of `figures`: all requests per minute and the board tools' own, idle and writing; the time to show. */
export function boardAppRow(label, { idle, writing, shownMs }) {
  const rate = (window) =>
    `${perMinute(window).toFixed(1)} (${perMinute(window, BOARD_TOOL).toFixed(1)} getBoard, ${perMinute(window, WAIT_TOOL).toFixed(1)} waitForChange)`;
  return `| ${label} | ${rate(idle)} | ${rate(writing)} | ${medianOf(shownMs).toFixed(0)} / ${Math.max(...shownMs).toFixed(0)} ms |`;
}

export const BOARD_APP_HEADER = [
  '| The app keeps up by | Requests/min, idle | Requests/min, 1 write/s | Write → shown in the app, median / max |',
  '| --- | ---: | ---: | ---: |',
];

/** The section's lines: each mode on a server of its own (`start(port)` starts the test build), `windowSeconds` each. */
export async function boardAppLines(start, port, windowSeconds) {
  const lines = [`Board app in the explorer (chromium), ${windowSeconds} s idle then ${windowSeconds} s of one REST write a second:`, '', ...BOARD_APP_HEADER];
  for (const mode of Object.values(BOARD_APP_MODES)) {
    const server = await start(port);
    try {
      lines.push(boardAppRow(mode.label, await measureBoardApp(server.baseURL, mode, windowSeconds)));
    } finally {
      await server.stop();
    }
  }
  return lines;
}
