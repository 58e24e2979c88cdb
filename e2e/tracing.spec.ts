// Tracing: with an OTLP endpoint set, REST requests and MCP messages reach a real OTLP/HTTP receiver as spans carrying
// their path, route and status, or their MCP method, tool name and outcome.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { connect, eras } from './support/mcp';
import { type OtlpReceiver, type ReceivedSpan, startTracedServer, type TracedServer } from './support/otlp-receiver';
import { e2ePort, type RunningServer } from './support/server';

const serviceName = 'gateway-e2e';
let receiver: OtlpReceiver;
let server: RunningServer;

let traced: TracedServer;

test.beforeAll(async () => {
  // Not + 45: from E2E_PORT=4000 that is 4045, a port fetch refuses to reach (a "bad port" of the Fetch standard).
  traced = await startTracedServer(e2ePort + 43, e2ePort + 44, 'test-results/tracing-server.log', { OTEL_SERVICE_NAME: serviceName });
  ({ receiver, server } = traced);
});

test.afterAll(async () => {
  await traced?.stop();
});

/** Next.js's spans of whole HTTP requests: the ones that carry the response status. */
const requestSpans = () => receiver.spans.filter((span) => span.attributes['http.status_code'] !== undefined);

test('REST: one span per request with its method, concrete path, route, status and service name', async () => {
  const paths = { '/api/users/1': 200, '/api/users/424242': 404 };
  for (const [path, status] of Object.entries(paths)) {
    expect((await fetch(`${server.baseURL}${path}`)).status).toBe(status);
  }

  const spanOf = (path: string) => requestSpans().find((span) => span.attributes['http.target'] === path);
  await receiver.waitFor('span of each REST request', () => Object.keys(paths).every((path) => spanOf(path)));
  for (const [path, status] of Object.entries(paths)) {
    expect(spanOf(path)).toMatchObject({
      name: 'GET /api/[[...vovk]]',
      scope: 'next.js',
      attributes: {
        'http.method': 'GET',
        'http.target': path,
        'http.route': '/api/[[...vovk]]',
        'http.status_code': status,
      },
      resource: { 'service.name': serviceName },
    });
    // Not labelled as running on Vercel, which @vercel/otel does by default.
    expect(spanOf(path)?.resource['cloud.provider']).toBeUndefined();
  }
  // The request's log line names its trace.
  const logLines = fs
    .readFileSync('test-results/tracing-server.log', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  const logged = logLines.find((line) => line.msg === 'request' && line.path === '/api/users/424242');
  expect(logged?.traceId).toBe(spanOf('/api/users/424242')?.traceId);
});

test('MCP: one span per tools/call with the tool name and outcome, in the trace of its HTTP request', async () => {
  // The 2025-era client starts a session: its calls are traced by the session lane, the 2026-07-28 ones by mcp-handler.
  for (const era of eras) {
    const client = await connect(era, server.baseURL);
    expect((await client.callTool('UserController_getUser', { params: { id: 1 } })).isError).toBeFalsy();
    expect((await client.callTool('UserController_getUser', { params: { id: 424242 } })).isError).toBe(true);
    await client.close();
  }

  const isGetUserCall = ({ attributes }: ReceivedSpan) =>
    attributes['mcp.method.name'] === 'tools/call' && attributes['gen_ai.tool.name'] === 'UserController_getUser';
  const toolCalls = () => receiver.spans.filter(isGetUserCall);
  const requestOf = (call: ReceivedSpan) => requestSpans().find((span) => span.traceId === call.traceId);
  await receiver.waitFor('span of each tools/call and of its HTTP request', () => {
    const calls = toolCalls();
    return calls.length === 2 * eras.length && calls.every(requestOf);
  });

  const calls = toolCalls();
  expect(calls.map((call) => call.scope).sort()).toEqual(['mcp-handler', 'mcp-handler', 'vovk-mcp-gateway', 'vovk-mcp-gateway']);
  expect(calls.map((call) => call.attributes['vercel.rpc.outcome']).sort()).toEqual([
    ...eras.map(() => 'execution_failure'),
    ...eras.map(() => 'success'),
  ]);
  for (const call of calls) {
    const failed = call.attributes['vercel.rpc.outcome'] !== 'success';
    expect(call).toMatchObject({
      name: 'tools/call UserController_getUser',
      // OTLP status 2 is an error; an isError result is one.
      statusCode: failed ? 2 : 0,
      attributes: { 'gen_ai.operation.name': 'execute_tool' },
      resource: { 'service.name': serviceName },
    });
    expect(call.attributes['error.type']).toBe(failed ? 'internal_error' : undefined);
    expect(requestOf(call)).toMatchObject({
      name: 'POST /api/mcp',
      attributes: { 'http.method': 'POST', 'http.route': '/api/mcp', 'http.status_code': 200 },
    });
  }
});
