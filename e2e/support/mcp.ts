// Real MCP clients of both protocol eras: SDK v1 (2025 era) and @modelcontextprotocol/client v2 pinned to 2026-07-28.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const eras = ['sdk-v1 (2025 era)', 'client-v2 (2026-07-28)'] as const;
export type Era = (typeof eras)[number];

/** Result `_meta` key the 2026-07-28 era adds to every result; not part of a tool's own output. */
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

export type ToolResult = {
  content: Array<Record<string, unknown> & { type: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface GatewayClient {
  /** tools/list; the SDK clients also keep each tool's outputSchema, and check later results against it. */
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** A tool result without the era's protocol-level `_meta` entry (checked separately), so eras compare equal. */
function toolOutput(result: ToolResult): ToolResult {
  const { _meta, ...rest } = result;
  const { [SERVER_INFO_META_KEY]: _serverInfo, ...own } = _meta ?? {};
  return Object.keys(own).length ? { ...rest, _meta: own } : rest;
}

/** Changes a JSON-RPC message the server sent before the client reads it (to prove what the client checks). */
export type Tamper = (message: { result?: Record<string, unknown> }) => void;

/** A fetch that passes each JSON or SSE-framed JSON-RPC reply through `tamper`. */
function tamperingFetch(tamper: Tamper): typeof fetch {
  const rewrite = (json: string) => {
    const message = JSON.parse(json);
    tamper(message);
    return JSON.stringify(message);
  };
  return async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    const sse = type.includes('text/event-stream');
    if (!response.ok || !(sse || type.includes('json'))) return response;
    const text = await response.text();
    const body = sse ? text.replace(/^data: (.+)$/gm, (_, json: string) => `data: ${rewrite(json)}`) : rewrite(text);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, headers });
  };
}

export async function connect(
  era: Era,
  baseURL: string,
  { headers = {}, tamper }: { headers?: Record<string, string>; tamper?: Tamper } = {},
): Promise<GatewayClient> {
  const url = new URL('/api/mcp', baseURL);
  const client =
    era === 'sdk-v1 (2025 era)'
      ? new ClientV1({ name: 'e2e-v1', version: '1.0.0' })
      : new ClientV2({ name: 'e2e-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transportOptions = { requestInit: { headers }, ...(tamper ? { fetch: tamperingFetch(tamper) } : {}) };
  const transport = era === 'sdk-v1 (2025 era)' ? new TransportV1(url, transportOptions) : new TransportV2(url, transportOptions);
  await client.connect(transport as never);
  return {
    listTools: async () => (await client.listTools()).tools as never,
    callTool: async (name, args = {}) => toolOutput((await client.callTool({ name, arguments: args })) as ToolResult),
    close: () => client.close(),
  };
}

/**
 * A fetch that sends each request to the next of `baseURLs` in turn (same path and query), as a load balancer without
 * sticky sessions would; `sent` records where each went, as `METHOD port`.
 */
function alternatingFetch(baseURLs: string[]): typeof fetch & { sent: string[] } {
  let next = 0;
  const sent: string[] = [];
  const alternating = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const target = new URL(`${url.pathname}${url.search}`, baseURLs[next++ % baseURLs.length]);
    sent.push(`${init?.method ?? 'GET'} ${target.port}`);
    return fetch(target, init);
  };
  return Object.assign(alternating, { sent }) as typeof fetch & { sent: string[] };
}

/** How a user answers a confirmation: yes, no, or closing the dialog. */
export type ConfirmationAnswer = 'accept' | 'decline' | 'cancel';

/** A 2025-era client (SDK v1) on a session of the gateway. */
export interface SessionClient {
  client: ClientV1;
  transport: TransportV1;
  /** The session's id (`Mcp-Session-Id`). */
  sessionId: string;
  /** Every question the server asked through elicitation, in order. */
  questions: string[];
  /** Where each HTTP request went, when it spreads them over several servers. */
  sent: string[];
  /** Ends the session (DELETE) and closes the client. */
  close(): Promise<void>;
}

/**
 * Connects an SDK v1 client, which starts a session. With `answer` it declares the elicitation capability and answers
 * each question with it; with several `baseURLs` its requests alternate between them.
 */
export async function connectSession(
  baseURLs: string[],
  { answer, headers = {} }: { answer?: () => ConfirmationAnswer; headers?: Record<string, string> } = {},
): Promise<SessionClient> {
  const client = new ClientV1({ name: 'e2e-session', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
  const questions: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      const action = answer();
      return action === 'accept' ? { action, content: { confirm: true } } : { action };
    });
  }
  const fetch = baseURLs.length > 1 ? alternatingFetch(baseURLs) : undefined;
  const transport = new TransportV1(new URL('/api/mcp', baseURLs[0]), { requestInit: { headers }, ...(fetch ? { fetch } : {}) });
  await client.connect(transport);
  return {
    client,
    transport,
    sessionId: transport.sessionId!,
    questions,
    sent: fetch?.sent ?? [],
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
