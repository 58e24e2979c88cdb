// Real MCP clients of both protocol eras: SDK v1 (2025 era) and @modelcontextprotocol/client v2 pinned to 2026-07-28;
// and SDK v1 over the HTTP+SSE transport of revision 2024-11-05 (`GET /api/sse`, `POST /api/message`).
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mcpURL, sseURL } from './json-rpc';

export const eras = ['sdk-v1 (2025 era)', 'client-v2 (2026-07-28)'] as const;
/** SDK v1's client over the HTTP+SSE transport (its `SSEClientTransport`): a 2025-era session over another wire. */
export const sseEra = 'sdk-v1 over HTTP+SSE';
export type Era = (typeof eras)[number] | typeof sseEra;

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

/** A `notifications/progress` of a call, as the SDK clients hand it over. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface GatewayClient {
  /** tools/list; the SDK clients also keep each tool's outputSchema, and check later results against it. */
  listTools(): Promise<ListedTool[]>;
  /**
   * tools/call; with `onprogress` the call sends a progressToken and hands each progress notification over; `signal`
   * cancels it (notifications/cancelled in a session, the HTTP request dropped on 2026-07-28).
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { onprogress?: (progress: Progress) => void; signal?: AbortSignal },
  ): Promise<ToolResult>;
  ping(): Promise<void>;
  /** resources/read, whole: its contents and its `_meta` (without the era's protocol-level entry). */
  readResource(uri: string): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }>; _meta?: Record<string, unknown> }>;
  /** The session the client started (`Mcp-Session-Id`): SDK v1 starts one, the 2026-07-28 client none. */
  readonly sessionId?: string;
  /** Where each HTTP request went, as `METHOD port`, when the client's requests alternate between servers. */
  readonly sent: string[];
  /** Ends the session (DELETE) if there is one, and closes the client. */
  close(): Promise<void>;
}

/** A tool result without the era's protocol-level `_meta` entry (checked separately), so eras compare equal. */
function toolOutput(result: ToolResult): ToolResult {
  const { _meta, ...rest } = result;
  const { [SERVER_INFO_META_KEY]: _serverInfo, ...own } = _meta ?? {};
  return Object.keys(own).length ? { ...rest, _meta: own } : rest;
}

/** Changes a JSON-RPC message the server sent before the client reads it (to prove what the client checks). */
type Tamper = (message: { result?: Record<string, unknown> }) => void;

/** A fetch over `reach` that passes each JSON or SSE-framed JSON-RPC reply through `tamper`, when there is one. */
function tamperingFetch(tamper: Tamper | undefined, reach: typeof fetch): typeof fetch {
  const rewrite = (json: string) => {
    const message = JSON.parse(json);
    tamper?.(message);
    return JSON.stringify(message);
  };
  return async (input, init) => {
    const response = await reach(input, init);
    if (!tamper) return response;
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

/** The list-changed notifications a listen stream may carry. */
const LIST_CHANGED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
] as const;

/** A `subscriptions/listen` stream of the v2 client (2026-07-28) asking for every list change. */
export interface ListenStream {
  /** What the gateway agreed to send (its acknowledgement). */
  honored: Record<string, unknown>;
  /** The list-changed notifications received so far, in order. */
  received: string[];
  /** How the stream ended: `graceful` when the gateway ended it with the closing result (as at shutdown). */
  closed: Promise<'local' | 'graceful' | 'remote'>;
  close(): Promise<void>;
}

/** Opens a listen stream with the official v2 client pinned to 2026-07-28; resolves once the gateway acknowledged it. */
export async function listenForListChanges(baseURL: string): Promise<ListenStream> {
  const client = new ClientV2({ name: 'e2e-listener', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL('/api/mcp', baseURL)));
  const received: string[] = [];
  for (const method of LIST_CHANGED) client.setNotificationHandler(method, () => void received.push(method));
  const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  return {
    honored: subscription.honoredFilter,
    received,
    closed: subscription.closed,
    close: async () => {
      await subscription.close();
      await client.close();
    },
  };
}

/** A form-mode elicitation request as the server sent it (`elicitation/create` params). */
export interface ElicitationRequest {
  message: string;
  requestedSchema?: Record<string, unknown>;
}

/** What the user of a test client answers: accept with the form's content, decline, or cancel. */
export type ElicitationAnswer =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' | 'cancel' };

type ElicitationHandler = (request: ElicitationRequest) => ElicitationAnswer | Promise<ElicitationAnswer>;

/** What the client's "model" answers a `sampling/createMessage` request: one text, as the model named. */
interface SamplingAnswer {
  text: string;
  model: string;
}

/** A client root, as `roots/list` answers it. */
interface Root {
  uri: string;
  name?: string;
}

export interface ConnectOptions {
  /** Sent with every HTTP request. */
  headers?: Record<string, string>;
  /** The fetch the client's requests go out with (e.g. one that changes a request after the initialize). @default fetch */
  fetch?: typeof fetch;
  tamper?: Tamper;
  /**
   * Makes the client one that can be asked: it declares the elicitation capability (form mode) and answers each
   * `elicitation/create` with this (over the session in the 2025 era, through `input_required` on 2026-07-28).
   * Without it the client declares no capability, as a plain client does.
   */
  elicit?: ElicitationHandler;
  /** Makes the client one that can sample: it declares `sampling` and answers each `sampling/createMessage` with this. */
  sample?: (request: { messages: unknown[]; maxTokens: number }) => SamplingAnswer;
  /** Makes the client one that has roots: it declares `roots` and answers `roots/list` with these. */
  roots?: Root[];
  /** More servers of the same gateway: the client's requests go to the target and these in turn (no sticky sessions). */
  alsoVia?: string[];
  /** Sees every HTTP reply the client gets, with the JSON-RPC method of the request it answers (as sent). */
  onReply?: (reply: Response, method: string | undefined) => void;
}

/** Connects a client of `era` to `target`: a server's base URL, or its MCP URL with a query (e.g. `?toolsets=…`). */
export async function connect(
  era: Era,
  target: string,
  { headers = {}, fetch: reachWith = fetch, tamper, elicit, sample, roots, alsoVia = [], onReply }: ConnectOptions = {},
): Promise<GatewayClient> {
  const url = mcpURL(target);
  const capabilities = {
    ...(elicit && { elicitation: { form: {} } }),
    ...(sample && { sampling: {} }),
    ...(roots && { roots: {} }),
  };
  const answer = async (request: { params: ElicitationRequest }) => elicit!(request.params);
  const sampled = async (request: { params: { messages: unknown[]; maxTokens: number } }) => {
    const { text, model } = sample!(request.params);
    return { role: 'assistant' as const, content: { type: 'text' as const, text }, model };
  };
  const listedRoots = async () => ({ roots: roots! });
  let client: ClientV1 | ClientV2;
  if (era !== 'client-v2 (2026-07-28)') {
    const v1 = new ClientV1({ name: 'e2e-v1', version: '1.0.0' }, { capabilities });
    if (elicit) v1.setRequestHandler(ElicitRequestSchema, answer);
    if (sample) v1.setRequestHandler(CreateMessageRequestSchema, sampled);
    if (roots) v1.setRequestHandler(ListRootsRequestSchema, listedRoots);
    client = v1;
  } else {
    const v2 = new ClientV2(
      { name: 'e2e-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities },
    );
    if (elicit) v2.setRequestHandler('elicitation/create', answer);
    if (sample) v2.setRequestHandler('sampling/createMessage', sampled);
    if (roots) v2.setRequestHandler('roots/list', listedRoots);
    client = v2;
  }
  const sent: string[] = [];
  const spread = alsoVia.length ? alternatingFetch([url.origin, ...alsoVia], sent, reachWith) : reachWith;
  const reach = onReply ? watchingFetch(onReply, spread) : spread;
  const custom = tamper || alsoVia.length || onReply || reachWith !== fetch;
  const transportOptions = { requestInit: { headers }, ...(custom ? { fetch: tamperingFetch(tamper, reach) } : {}) };
  const transport =
    era === sseEra
      ? new SSEClientTransport(sseURL(target), transportOptions)
      : era === 'sdk-v1 (2025 era)'
        ? new TransportV1(url, transportOptions)
        : new TransportV2(url, transportOptions);
  await client.connect(transport as never);
  const sessionId = transport instanceof SSEClientTransport ? sseSessionOf(transport) : transport.sessionId;
  return {
    listTools: async () => (await client.listTools()).tools as never,
    callTool: async (name, args = {}, options = {}) => {
      const params = { name, arguments: args };
      const result = client instanceof ClientV1 ? await client.callTool(params, undefined, options) : await client.callTool(params, options);
      return toolOutput(result as ToolResult);
    },
    ping: async () => void (await client.ping()),
    readResource: async (uri) => toolOutput((await client.readResource({ uri })) as never) as never,
    sessionId,
    sent,
    close: async () => {
      if (transport instanceof TransportV1 && transport.sessionId) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** The session of an HTTP+SSE client: the `sessionId` of the endpoint its stream named. */
const sseSessionOf = (transport: SSEClientTransport) =>
  (transport as unknown as { _endpoint?: URL })._endpoint?.searchParams.get('sessionId') ?? undefined;

/** A fetch over `reach` that hands each reply to `onReply` with the JSON-RPC method of its request. */
function watchingFetch(onReply: NonNullable<ConnectOptions['onReply']>, reach: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await reach(input, init);
    const method = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }).method : undefined;
    onReply(response, method);
    return response;
  };
}

/**
 * A fetch that sends each request to the next of `baseURLs` in turn (same path and query), as a load balancer without
 * sticky sessions would; `sent` records where each went, as `METHOD port`.
 */
function alternatingFetch(baseURLs: string[], sent: string[], reach: typeof fetch): typeof fetch {
  let next = 0;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const target = new URL(`${url.pathname}${url.search}`, baseURLs[next++ % baseURLs.length]);
    sent.push(`${init?.method ?? 'GET'} ${target.port}`);
    return reach(target, init);
  };
}

/** Runs `use` with a client and closes it, whatever happens. */
export async function using<R>(opened: Promise<GatewayClient>, use: (client: GatewayClient) => Promise<R>): Promise<R> {
  const client = await opened;
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}
