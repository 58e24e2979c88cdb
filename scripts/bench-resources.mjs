// The resources benchmark (`npm run bench -- --only resources`): a write's way to its subscribers across two
// instances on PostgreSQL (a listen stream, a 2025 session; an unrelated subscriber), 1,000 listen streams on one
// instance (memory, CPU per write), and resources/read against the same tool call (server CPU per request).
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const MIB = 1024 * 1024;
const taskUri = (id) => `vovk://gateway/api/tasks/${id}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Writes further apart than the subscriptions' notification interval (250 ms): each one's own latency is seen. */
const WRITE_SPACING_MS = 300;
const WRITES = 200;
const STREAMS = 1000;
const URIS_PER_STREAM = 10;

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (method, name) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': method,
  ...(name ? { 'Mcp-Name': name } : {}),
});

/** A 2026-07-28 listen stream on `baseURL` for `uris`: resolves once acknowledged; `onUpdate(uri)` for each update. */
async function listenStream(baseURL, uris, onUpdate) {
  const controller = new AbortController();
  const body = { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris }, _meta: envelope } };
  const response = await fetch(`${baseURL}/api/mcp`, { method: 'POST', headers: modernHeaders('subscriptions/listen'), body: JSON.stringify(body), signal: controller.signal });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`listen answered ${response.status}: ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let acknowledged;
  const ack = new Promise((resolve) => (acknowledged = resolve));
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      buffered += value;
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop();
      for (const block of blocks) {
        const data = block.match(/^data: (.*)$/m)?.[1];
        if (!data) continue;
        const message = JSON.parse(data);
        if (message.method === 'notifications/subscriptions/acknowledged') acknowledged(message.params.notifications.resourceSubscriptions);
        if (message.method === 'notifications/resources/updated') onUpdate(message.params.uri);
      }
    }
  })();
  const honoured = await ack;
  return { honoured, close: () => controller.abort() };
}

/** A 2025-era session of the official v1 client on `baseURL` subscribed to `uri`; `onUpdate(uri)` for each update. */
async function sessionSubscriber(baseURL, uri, onUpdate) {
  const client = new ClientV1({ name: 'bench-subscriber', version: '1.0.0' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => onUpdate(notification.params.uri));
  const transport = new TransportV1(new URL('/api/mcp', baseURL));
  await client.connect(transport);
  await client.subscribeResource({ uri });
  await sleep(500); // its standalone GET stream opens after the connect
  return { close: async () => (await transport.terminateSession().catch(() => undefined), await client.close()) };
}

async function createTask(baseURL, title) {
  const response = await fetch(`${baseURL}/api/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
  return (await response.json()).id;
}

const patchTask = (baseURL, id, title) =>
  fetch(`${baseURL}/api/tasks/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) }).then((r) => r.arrayBuffer());

/**
 * WRITES REST writes on one instance, spaced; for each, the time from sending it until a listen stream and a 2025
 * session on the other instance heard of it; and what a subscriber of an unrelated task heard meanwhile.
 */
async function acrossInstances({ startServer, benchPostgres, percentile }, base, env) {
  const database = await benchPostgres();
  const servers = await Promise.all([0, 1].map((i) => startServer(base + i, { ...env, DATABASE_URL: database.url })));
  try {
    const [writer, holder] = servers.map((server) => server.baseURL);
    const watched = await createTask(writer, 'Watched');
    const unrelated = await createTask(writer, 'Unrelated');
    const waiting = { listen: undefined, session: undefined };
    const heard = (kind) => () => waiting[kind]?.();
    const stream = await listenStream(holder, [taskUri(watched)], heard('listen'));
    let unrelatedUpdates = 0;
    const other = await listenStream(holder, [taskUri(unrelated)], () => unrelatedUpdates++);
    const session = await sessionSubscriber(holder, taskUri(watched), heard('session'));
    const latencies = { listen: [], session: [] };
    for (let i = 0; i < WRITES; i++) {
      const arrivals = Object.keys(waiting).map(
        (kind) => new Promise((resolve) => (waiting[kind] = () => resolve([kind, performance.now()]))),
      );
      const sent = performance.now();
      await patchTask(writer, watched, `Watched ${i}`);
      const timeout = sleep(5000).then(() => 'late');
      for (const arrival of arrivals) {
        const outcome = await Promise.race([arrival, timeout]);
        if (outcome !== 'late') latencies[outcome[0]].push(outcome[1] - sent);
      }
      await sleep(WRITE_SPACING_MS);
    }
    stream.close();
    other.close();
    await session.close();
    const line = (kind) =>
      `${latencies[kind].length} of ${WRITES} heard; p50 ${percentile(latencies[kind], 50).toFixed(1)} ms, p95 ${percentile(latencies[kind], 95).toFixed(1)} ms, max ${Math.max(...latencies[kind]).toFixed(1)} ms`;
    return [
      `- REST write on instance A → \`notifications/resources/updated\` on a listen stream held by instance B (PostgreSQL): ${line('listen')}`,
      `- … on a 2025-11-25 session held by B (official v1 client, its standalone stream): ${line('session')}`,
      `- Notifications a subscriber of an unrelated task on B got over those ${WRITES} writes: ${unrelatedUpdates} (${(unrelatedUpdates / WRITES).toFixed(2)} per write)`,
    ];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  }
}

/** Server CPU (ms) of `writes` REST writes of `ids` in turn, spaced, and whatever the subscriptions cost meanwhile. */
async function cpuOfWrites({ cpuMs }, server, ids, writes) {
  const before = cpuMs(server.pid);
  for (let i = 0; i < writes; i++) {
    await patchTask(server.baseURL, ids[i % ids.length], `Write ${i}`);
    await sleep(WRITE_SPACING_MS);
  }
  return cpuMs(server.pid) - before;
}

/** STREAMS listen streams of URIS_PER_STREAM task URIs each on one instance: memory, the time to open them, CPU per write. */
async function manyStreams({ startServer, cpuMs, residentBytes }, base, env) {
  const shares = { MCP_MAX_LISTEN_STREAMS_PER_CALLER: String(STREAMS + 10), MCP_MAX_SUBSCRIPTIONS_PER_CALLER: String(STREAMS * URIS_PER_STREAM + 10) };
  const server = await startServer(base + 2, { ...env, ...shares });
  try {
    const ids = [];
    for (let i = 0; i < 100; i++) ids.push(await createTask(server.baseURL, `Streamed ${i}`));
    const writes = 20;
    const quietCpu = await cpuOfWrites({ cpuMs }, server, ids, writes);
    const rssBefore = residentBytes(server.pid);
    let updates = 0;
    const opened = performance.now();
    const cpuBefore = cpuMs(server.pid);
    const streams = [];
    for (let batch = 0; batch < STREAMS; batch += 50) {
      streams.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, j) => {
            const n = batch + j;
            const uris = Array.from({ length: URIS_PER_STREAM }, (_, k) => taskUri(ids[(n + k * 10) % ids.length]));
            return listenStream(server.baseURL, uris, () => updates++);
          }),
        )),
      );
    }
    const openMs = performance.now() - opened;
    const openCpu = cpuMs(server.pid) - cpuBefore;
    await sleep(1000);
    const rssOpen = residentBytes(server.pid);
    const busyCpu = await cpuOfWrites({ cpuMs }, server, ids, writes);
    for (const stream of streams) stream.close();
    const honoured = streams.reduce((sum, stream) => sum + stream.honoured.length, 0);
    return [
      `- ${STREAMS} listen streams × ${URIS_PER_STREAM} task URIs (${honoured} subscriptions) on one instance: opened in ${(openMs / 1000).toFixed(1)} s (server CPU ${(openCpu / STREAMS).toFixed(1)} ms a stream: each URI is read once to check it), ` +
        `RSS +${((rssOpen - rssBefore) / MIB).toFixed(0)} MiB (${(((rssOpen - rssBefore) / STREAMS) / 1024).toFixed(1)} KiB a stream)`,
      `- Server CPU per REST write with them open: ${(busyCpu / writes).toFixed(1)} ms against ${(quietCpu / writes).toFixed(1)} ms with none ` +
        `(each write updates one task, watched by ${STREAMS * URIS_PER_STREAM / ids.length} streams: ${(updates / writes).toFixed(0)} notifications a write)`,
    ];
  } finally {
    await server.stop();
  }
}

/** Server CPU per request of resources/read of a user against tools/call of the same procedure (2026-07-28), alternated. */
async function readAgainstCall({ startServer, cpuMs, median }, base, env, rounds) {
  const server = await startServer(base + 3, env);
  const send = (method, name, params) =>
    fetch(`${server.baseURL}/api/mcp`, {
      method: 'POST',
      headers: modernHeaders(method, name),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
    }).then((r) => r.text());
  const read = () => send('resources/read', 'vovk://gateway/api/users/1', { uri: 'vovk://gateway/api/users/1' });
  const call = () => send('tools/call', 'UserController_getUser', { name: 'UserController_getUser', arguments: { params: { id: 1 } } });
  const times = 300;
  const cpuPer = async (request) => {
    const before = cpuMs(server.pid);
    for (let i = 0; i < times; i++) await request();
    return (cpuMs(server.pid) - before) / times;
  };
  try {
    for (let i = 0; i < 50; i++) await Promise.all([read(), call()]);
    const ratios = [];
    const perRead = [];
    const perCall = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [call, read] : [read, call];
      const [first, second] = [await cpuPer(order[0]), await cpuPer(order[1])];
      const [readMs, callMs] = order[0] === read ? [first, second] : [second, first];
      perRead.push(readMs);
      perCall.push(callMs);
      ratios.push(readMs / callMs);
    }
    return [
      `- resources/read of \`vovk://gateway/api/users/1\` against tools/call of UserController_getUser (2026-07-28, sequential, ${times} each, ${rounds} rounds alternated): ` +
        `server CPU ${median(perRead).toFixed(2)} against ${median(perCall).toFixed(2)} ms a request; ratio ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
    ];
  } finally {
    await server.stop();
  }
}

/** Every figure of the resources benchmark, as Markdown lines. */
export async function resourceLines(helpers, base, env, rounds) {
  return [
    '### Resources and subscriptions (issue 26)',
    '',
    ...(await acrossInstances(helpers, base, env)),
    ...(await manyStreams(helpers, base, env)),
    ...(await readAgainstCall(helpers, base, env, rounds)),
  ];
}
