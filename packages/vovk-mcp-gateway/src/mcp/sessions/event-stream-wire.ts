// The wire of an HTTP+SSE session (protocol revision 2024-11-05): one long-lived event stream that opens with the
// `endpoint` event (where to POST messages) and then carries every message the server sends, heartbeats in between.
import 'server-only';

/** A comment line: clients skip it, proxies see bytes and keep an idle stream open. */
const HEARTBEAT = new TextEncoder().encode(': heartbeat\n\n');

const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // nginx passes the stream on unbuffered even where its configuration does not say so.
  'X-Accel-Buffering': 'no',
};

export interface EventStreamWireOptions {
  /** Where the client POSTs its messages (the `endpoint` event's data): a path, relative to the public origin. */
  endpoint: string;
  /** How often a heartbeat is sent while nothing else is (MCP_SSE_HEARTBEAT_SECONDS). */
  heartbeatMs: number;
  /** The client went away (its request was cancelled): not called when the server ends the stream itself. */
  onClientGone: () => void;
}

export class EventStreamWire {
  /** The answer to the `GET` that opened the stream. */
  readonly response: Response;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private heartbeat?: NodeJS.Timeout;
  private ended = false;

  constructor({ endpoint, heartbeatMs, onClientGone }: EventStreamWireOptions) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        controller.enqueue(this.encoder.encode(`event: endpoint\ndata: ${endpoint}\n\n`));
      },
      cancel: () => {
        this.stop();
        onClientGone();
      },
    });
    this.heartbeat = setInterval(() => this.write(HEARTBEAT), heartbeatMs);
    this.heartbeat.unref();
    this.response = new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS });
  }

  /** Sends one JSON-RPC message as a `message` event; nothing once the stream ended. */
  send(message: unknown): void {
    this.write(this.encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  }

  /** Ends the stream (the session ended): the client sees its end. */
  close(): void {
    if (this.ended) return;
    this.stop();
    try {
      this.controller.close();
    } catch {
      // The client cancelled it meanwhile.
    }
  }

  private write(bytes: Uint8Array): void {
    if (this.ended) return;
    try {
      this.controller.enqueue(bytes);
    } catch {
      this.stop();
    }
  }

  private stop(): void {
    this.ended = true;
    clearInterval(this.heartbeat);
  }
}
