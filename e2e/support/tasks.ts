// The official Tasks requester (@modelcontextprotocol/ext-tasks/client) over the v2 client, pinned to 2026-07-28.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  type ApplicationElicitResult,
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type JsonRpcResponse,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import { modernEnvelope, modernHeaders } from './json-rpc';

const PROTOCOL = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const clientInfo = { name: 'e2e-tasks', version: '1.0.0' };

/** The JSON-RPC messages of a reply, plain JSON or SSE-framed (a reply that carried progress is a stream). */
function messagesOfReply(contentType: string, text: string): Array<Record<string, unknown>> {
  if (!contentType.includes('text/event-stream')) return text ? [JSON.parse(text)] : [];
  return [...text.matchAll(/^data: (.+)$/gm)].map((match) => JSON.parse(match[1]));
}

/** What a 2026-07-28 request names in its `Mcp-Name` header: the tool of a call, the task of a task request. */
const nameOf = (params?: Record<string, unknown>) => {
  const name = params?.name ?? params?.taskId;
  return typeof name === 'string' ? name : undefined;
};

/**
 * A plain fetch of a framed 2026-07-28 request (the v2 `Client` refuses `resultType: "task"` answers, so the
 * requester needs this path): it answers the final JSON-RPC response of the reply.
 */
function rawDispatch(url: string, headers: Record<string, string> = {}) {
  let lastId = 0;
  return async (request: unknown, options?: { signal?: AbortSignal; context?: { headers?: Record<string, string> } }) => {
    // The requester hands over `{ method, params }`: the JSON-RPC framing (and the id) is the host's.
    const message = { jsonrpc: '2.0', id: ++lastId, ...(request as object) } as {
      id: number;
      method?: string;
      params?: Record<string, unknown>;
    };
    const merged = new Headers(modernHeaders(message.method ?? '', nameOf(message.params)));
    // Set one by one (case-insensitively): the requester's own Mcp-Name replaces the one worked out here.
    for (const [name, value] of Object.entries({ ...headers, ...options?.context?.headers })) merged.set(name, value);
    const response = await fetch(url, {
      method: 'POST',
      headers: merged,
      body: JSON.stringify(message),
      signal: options?.signal,
    });
    const reply = messagesOfReply(response.headers.get('content-type') ?? '', await response.text()).find(
      (candidate) => candidate.id === message.id,
    );
    if (!reply) throw new Error(`HTTP ${response.status}: no JSON-RPC response to request ${String(message.id)}`);
    return (reply.error ? { kind: 'error', error: reply.error } : { kind: 'result', result: reply.result }) as JsonRpcResponse;
  };
}

export interface TaskClient {
  session: TaskEnabledSession;
  client: Client;
  close(): Promise<void>;
}

type Elicit = (params: Readonly<Record<string, unknown>>) => ApplicationElicitResult | Promise<ApplicationElicitResult>;

const notAsked = () => {
  throw new Error('This test client answers elicitation only');
};

/**
 * A v2 client of `baseURL` declaring elicitation and the Tasks extension, with the ext-tasks requester session over
 * it; `elicit` answers a task's elicitation requests.
 */
export async function connectTaskClient(
  baseURL: string,
  { elicit, headers = {} }: { elicit?: Elicit; headers?: Record<string, string> } = {},
): Promise<TaskClient> {
  const onInputRequest = elicit
    ? createApplicationInputHandler({ elicitation: (request) => elicit(request.params), sampling: notAsked, roots: notAsked })
    : undefined;
  const url = `${baseURL}/api/mcp`;
  const clientCapabilities = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };
  const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: PROTOCOL } }, capabilities: clientCapabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }) as never);
  const session = createTaskSessionFromClient(client, {
    endpointId: url,
    rawDispatch: rawDispatch(url, headers),
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo, clientCapabilities },
    ...(onInputRequest ? { onInputRequest } : {}),
  });
  return {
    session,
    client,
    close: async () => {
      await session.close().catch(() => undefined);
      await client.close();
    },
  };
}

/** One raw 2026-07-28 request (the Tasks extension declared unless `declare` is false): its JSON-RPC result or error. */
export async function taskRequest(
  baseURL: string,
  method: string,
  params: Record<string, unknown>,
  { declare = true, headers = {} }: { declare?: boolean; headers?: Record<string, string> } = {},
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } }> {
  const _meta = modernEnvelope(declare ? { extensions: { [TASKS]: {} } } : {});
  const response = await rawDispatch(`${baseURL}/api/mcp`, headers)({ method, params: { ...params, _meta } });
  return response.kind === 'result'
    ? { result: response.result as Record<string, unknown> }
    : { error: response.error as { code: number; message: string } };
}

/** How many counts labelled `label` run on a server (a cancelled count stops counting); each test has its own label. */
export const countsRunning = async (baseURL: string, label: string) =>
  ((await (await fetch(`${baseURL}/api/fixture/counting?label=${label}`)).json()) as { running: number }).running;
