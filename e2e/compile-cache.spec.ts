// The gateway entry's code cache (the package's server/compile-cache.mjs) on the real test build: a start after another compiles its
// modules from the cache that one wrote and answers both doors the same; GATEWAY_COMPILE_CACHE=0 starts without it.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { modernHeaders, modernToolCall, postMcp } from './support/json-rpc';
import { waitForLog } from './support/reliability';
import { e2ePort, type RunningServer, startServer } from './support/server';

const LISTENING = /\[gateway\] Listening on .*\)$/m;

/** A REST read and an MCP 2026-07-28 tools/call, as any start must answer them. */
async function expectBothDoorsAnswer(server: RunningServer): Promise<void> {
  const rest = await fetch(`${server.baseURL}/api/users/1`);
  expect(rest.status).toBe(200);
  expect(await rest.json()).toMatchObject({ id: 1, name: 'Ada Lovelace' });
  const call = await postMcp(server.baseURL, modernToolCall(1, 'sum_numbers', { a: 40, b: 2 }), modernHeaders('tools/call', 'sum_numbers'));
  expect(call.status).toBe(200);
  expect(call.message).toMatchObject({ result: { content: [{ type: 'text', text: '42' }] } });
}

/** The listening line's "N of M modules from the code cache", once it is logged. */
async function modulesFromCache(server: RunningServer): Promise<{ fromCache: number; total: number } | undefined> {
  await waitForLog(server, LISTENING);
  const counts = /(\d+) of (\d+) modules from the code cache/.exec(fs.readFileSync(server.logFile, 'utf8'));
  return counts ? { fromCache: Number(counts[1]), total: Number(counts[2]) } : undefined;
}

test('a start after another one of the same build compiles its modules from the code cache, and both doors answer the same', async () => {
  test.setTimeout(60_000);
  const first = await startServer(e2ePort + 290, {}, 'test-results/compile-cache-first.log');
  try {
    await expectBothDoorsAnswer(first);
  } finally {
    // Its exit writes the cache if it compiled anything without it (other servers of this build may have written it too).
    await first.stop();
  }
  const second = await startServer(e2ePort + 290, {}, 'test-results/compile-cache-second.log');
  try {
    const counts = await modulesFromCache(second);
    expect(counts?.total).toBeGreaterThan(100);
    // Every module a start loads was loaded by the first start too; a few per cent of leeway for what another server
    // of the build may have written in between.
    expect(counts!.fromCache).toBeGreaterThanOrEqual(0.9 * counts!.total);
    await expectBothDoorsAnswer(second);
  } finally {
    await second.stop();
  }
});

test('GATEWAY_COMPILE_CACHE=0: the gateway starts without the code cache and answers both doors', async () => {
  const server = await startServer(e2ePort + 291, { GATEWAY_COMPILE_CACHE: '0' }, 'test-results/compile-cache-off.log');
  try {
    expect(await modulesFromCache(server)).toBeUndefined();
    await expectBothDoorsAnswer(server);
  } finally {
    await server.stop();
  }
});
