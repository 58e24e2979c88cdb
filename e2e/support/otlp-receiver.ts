// A real OTLP/HTTP trace receiver for tests: accepts `POST /v1/traces` in OTLP JSON and keeps every span it is sent.
import http from 'node:http';
import { type RunningServer, startServer } from './server';

/** One received span, its attributes and its resource's attributes flattened to plain values. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  scope: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}
type KeyValue = { key: string; value: AnyValue };
interface ExportTraceServiceRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        status?: { code?: number };
        attributes?: KeyValue[];
      }>;
    }>;
  }>;
}

function plainValue(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plainValue);
  // OTLP JSON may carry 64-bit integers as strings.
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

const plainAttributes = (attributes: KeyValue[] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, plainValue(value)]));

function spansOf(request: ExportTraceServiceRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap(({ resource, scopeSpans }) =>
    (scopeSpans ?? []).flatMap(({ scope, spans }) =>
      (spans ?? []).map((span) => ({
        name: span.name,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        statusCode: span.status?.code ?? 0,
        scope: scope?.name ?? '',
        attributes: plainAttributes(span.attributes),
        resource: plainAttributes(resource?.attributes),
      })),
    ),
  );
}

export interface OtlpReceiver {
  /** The value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Polls until `enough(spans)` holds, then returns the spans; throws after `timeoutMs` naming what did arrive. */
  waitFor(what: string, enough: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1:`port`; all but OTLP JSON on `POST /v1/traces` gets a 4xx (bad exporters show). */
async function startOtlpReceiver(port: number): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const refuse = (status: number, problem: string) => {
        response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: problem }));
      };
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        return refuse(404, `no ${request.method} ${request.url}`);
      }
      if (!request.headers['content-type']?.startsWith('application/json')) {
        return refuse(415, 'expected OTLP JSON (http/json)');
      }
      try {
        spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch {
        return refuse(400, 'not an OTLP JSON export request');
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    async waitFor(what, enough, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!enough(spans)) {
        if (Date.now() > deadline) {
          const names = [...new Set(spans.map((span) => span.name))].join(', ');
          throw new Error(`no ${what} after ${timeoutMs} ms; received ${spans.length} spans: ${names}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return spans;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A test-build server exporting its spans to a receiver of its own (OTLP over HTTP/JSON, exported every 100 ms). */
export interface TracedServer {
  receiver: OtlpReceiver;
  server: RunningServer;
  /** Stops the server, then the receiver (the server exports what it has left as it stops). */
  stop(): Promise<void>;
}

/** Starts a receiver on `receiverPort` and a server on `serverPort` (with `env`) tracing to it, logging to `logFile`. */
export async function startTracedServer(
  receiverPort: number,
  serverPort: number,
  logFile: string,
  env: Record<string, string> = {},
): Promise<TracedServer> {
  const receiver = await startOtlpReceiver(receiverPort);
  // Spans are exported every 100 ms rather than every 5 s.
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' };
  const server = await startServer(serverPort, { ...tracing, ...env }, logFile).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  return {
    receiver,
    server,
    stop: async () => {
      await server.stop();
      await receiver.close();
    },
  };
}
