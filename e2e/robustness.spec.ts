// Bounded fuzz and concurrency tests against the loopback test server: hostile input never crashes or leaks it.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { connect, eras, type GatewayClient } from './support/mcp';
import { mcpHeaders, postMcp, type RawAnswer, toolCall } from './support/json-rpc';
import { residentBytes, startServer } from './support/server';
import { random } from './support/random';

type HostileRequest = { kind: string; body: unknown; headers?: Record<string, string> };

const toolNames = ['UserController_getUser', 'sum_numbers', 'MediaController_getAudioFromURL', 'TextController_getGreeting'];
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** The hostile request number `i`, one of several families. */
function hostileRequest(i: number, next: () => number): HostileRequest {
  const id = i + 1;
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const families: Array<() => HostileRequest> = [
    () => ({ kind: 'broken JSON', body: pick(['{', '{"jsonrpc":', 'null', '"', '{"jsonrpc":"2.0","id":1,"method":"tools/call",}', '\u0000\u0001']) }),
    () => ({ kind: 'deep nesting', body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"sum_numbers","arguments":{"a":${nested(2000 + Math.floor(next() * 20000))}}}}` }),
    () => ({ kind: 'huge string', body: toolCall(id, 'UserController_getUser', { params: { id: 'x'.repeat(1000 + Math.floor(next() * 200_000)) } }) }),
    () => ({ kind: 'wrong types', body: toolCall(id, 'sum_numbers', pick([{ a: 'one', b: 2 }, { a: [], b: {} }, { a: null }, 'not-an-object', [1, 2], { a: 1e309, b: 1 }])) }),
    () => ({ kind: 'wrong slots', body: toolCall(id, pick(toolNames), pick([{ params: 'x' }, { body: {} }, { params: { id: -5 } }, { query: { url: 'file:///etc/passwd' } }, { params: { id: 1.5 } }, 7])) }),
    () => ({ kind: 'unknown tool', body: toolCall(id, `no_such_tool_${Math.floor(next() * 1e6)}`) }),
    () => ({ kind: 'unknown method', body: { jsonrpc: '2.0', id, method: pick(['tools/destroy', 'sampling/createMessage', '', 'x'.repeat(5000)]) } }),
    () => ({ kind: 'bad envelope', body: pick([{ id, method: 'tools/list' }, { jsonrpc: '1.0', id, method: 'ping' }, { jsonrpc: '2.0', id: { nested: true }, method: 'ping' }, [], [{}], 42]) }),
    () => ({ kind: 'bad content type', body: toolCall(id, 'sum_numbers', { a: 1, b: 2 }), headers: { ...mcpHeaders, 'Content-Type': pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) } }),
    () => ({ kind: 'bad accept', body: toolCall(id, 'sum_numbers', { a: 1, b: 2 }), headers: { 'Content-Type': 'application/json', Accept: pick(['text/html', 'image/png']) } }),
    () => ({ kind: 'bad protocol header', body: toolCall(id, 'sum_numbers', { a: 1, b: 2 }), headers: { ...mcpHeaders, 'MCP-Protocol-Version': pick(['1999-01-01', 'garbage', '2026-07-28']) } }),
    () => ({ kind: 'hostile host', body: { jsonrpc: '2.0', id, method: 'tools/list' }, headers: { ...mcpHeaders, Host: pick(['evil.example.com', 'localhost.evil.com', '[::2]']) } }),
    () => ({ kind: 'oversize body', body: toolCall(id, 'sum_numbers', { a: 1, b: 2, pad: 'y'.repeat(1024 * 1024 + 10) }) }),
  ];
  // Oversize bodies are the most expensive family: keep them to about one in forty.
  const family = i % 40 === 39 ? families.length - 1 : Math.floor(next() * (families.length - 1));
  return families[family]();
}

/** A refusal the protocol allows: HTTP 4xx, a JSON-RPC error, or an isError tool result. */
function isCleanRefusal({ status, message }: RawAnswer): boolean {
  if (status >= 400 && status < 500) return true;
  if (status >= 500) return false;
  return Boolean(message?.error) || message?.result?.isError === true;
}

test('fuzz: 1,600 malformed or hostile requests each get a 4xx, a JSON-RPC error or isError; the server stays well', async () => {
  test.setTimeout(180_000);
  // A server of its own, so that its memory reflects this traffic alone.
  const server = await startServer(Number(process.env.E2E_PORT ?? 3217) + 41, {}, 'test-results/fuzz-server.log');
  try {
    await fuzz(server.baseURL, server.pid);
  } finally {
    await server.stop();
  }
});

/** Sends hostile requests number `from` … `to - 1`, 8 at a time; returns what was not a clean refusal. */
async function sendHostile(baseURL: string, from: number, to: number, next: () => number, kinds: Map<string, number>) {
  const failures: string[] = [];
  for (let batch = from; batch < to; batch += 8) {
    const requests = Array.from({ length: Math.min(8, to - batch) }, (_, k) => hostileRequest(batch + k, next));
    const answers = await Promise.all(requests.map((request) => postMcp(baseURL, request.body, request.headers)));
    answers.forEach((answer, k) => {
      const { kind } = requests[k];
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (!isCleanRefusal(answer)) failures.push(`#${batch + k} ${kind}: ${answer.status} ${answer.text.slice(0, 200)}`);
      if (/\bat .+\.(js|ts):\d+/.test(answer.text)) failures.push(`#${batch + k} ${kind}: stack trace leaked`);
    });
  }
  return failures;
}

async function fuzz(baseURL: string, pid: number) {
  const sumCheck = async () => postMcp(baseURL, toolCall(0, 'sum_numbers', { a: 19, b: 23 }));
  expect((await sumCheck()).message?.result?.content).toEqual([{ type: 'text', text: '42' }]);
  const memory = async () => (await fetch(`${baseURL}/api/fixture/memory`)).json() as Promise<{ heapUsed: number; external: number }>;
  const next = random(20261130);
  const kinds = new Map<string, number>();
  const retained = async () => {
    const { heapUsed, external } = await memory();
    return heapUsed + external;
  };
  // The first 400 warm the server up (compiled code, caches); then four rounds of 300, with what the server retains
  // after a full GC measured after each. A leak grows round after round; a server that only holds caches plateaus.
  const failures = await sendHostile(baseURL, 0, 400, next, kinds);
  const checkpoints = [await retained()];
  const rssBefore = residentBytes(pid);
  for (let from = 400; from < 1600; from += 300) {
    failures.push(...(await sendHostile(baseURL, from, from + 300, next, kinds)));
    checkpoints.push(await retained());
  }
  expect(failures).toEqual([]);
  expect([...kinds.values()].reduce((a, b) => a + b)).toBe(1600);
  expect(kinds.size).toBe(13);
  const after = await sumCheck();
  expect(after.status).toBe(200);
  expect(after.message?.result?.content).toEqual([{ type: 'text', text: '42' }]);
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync(
    'test-results/fuzz-figures.json',
    JSON.stringify({ requests: 1600, kinds: Object.fromEntries(kinds), retainedAfterEachRound: checkpoints, rssBefore, rssAfter: residentBytes(pid) }, null, 2),
  );
  // Plateau: the last two rounds retain no more than the first two did (one noisy sample is not enough to fail), with
  // room for allocator noise (4 MiB). A leak of 8 KiB per request (2.4 MiB a round, so ≥ 4.8 MiB between the two) breaks it.
  const early = Math.max(checkpoints[0], checkpoints[1]);
  const late = Math.min(checkpoints[3], checkpoints[4]);
  expect(late - early, `retained after each round (bytes): ${checkpoints.join(', ')}`).toBeLessThan(4 * 1024 * 1024);
}

test('concurrency: 500 mixed tools/calls from 20 parallel clients, each answer matched to its own request', async ({ baseURL, request }) => {
  test.setTimeout(120_000);
  const image = Buffer.from(await (await request.get('/api/media/image')).body()).toString('base64');
  const audio = Buffer.from(await (await request.get('/api/media/audio')).body()).toString('base64');
  const users = await (await request.get('/api/users')).json();
  type Call = { name: string; args: Record<string, unknown>; check: (result: Awaited<ReturnType<GatewayClient['callTool']>>) => void };
  const callNumber = (n: number): Call => {
    switch (n % 6) {
      case 0:
        return { name: 'sum_numbers', args: { a: n, b: 0.5 }, check: (r) => expect(r.content).toEqual([{ type: 'text', text: String(n + 0.5) }]) };
      case 1: {
        const user = users[n % users.length];
        return { name: 'UserController_getUser', args: { params: { id: user.id } }, check: (r) => expect(r.structuredContent).toEqual(user) };
      }
      case 2:
        return { name: 'UserController_getUser', args: { params: { id: 100000 + n } }, check: (r) => expect(r).toEqual({ content: [{ type: 'text', text: `User ${100000 + n} not found` }], isError: true }) };
      case 3:
        return { name: 'MediaController_getImage', args: {}, check: (r) => expect(r.content).toEqual([{ type: 'image', data: image, mimeType: 'image/png' }]) };
      case 4:
        return { name: 'MediaController_getAudio', args: {}, check: (r) => expect(r.content).toEqual([{ type: 'audio', data: audio, mimeType: 'audio/mpeg' }]) };
      default:
        return { name: 'FixtureController_throwError', args: {}, check: (r) => expect(r.content).toEqual([{ type: 'text', text: 'Internal server error' }]) };
    }
  };
  const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => connect(eras[i % 2], baseURL!)));
  const started = Date.now();
  let answered = 0;
  await Promise.all(
    clients.map(async (client, c) => {
      for (let k = 0; k < 25; k++) {
        const call = callNumber(c * 25 + k);
        call.check(await client.callTool(call.name, call.args));
        answered++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  expect(answered).toBe(500);
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync('test-results/concurrency-figures.json', JSON.stringify({ calls: answered, clients: 20, seconds, callsPerSecond: answered / seconds }, null, 2));
});
