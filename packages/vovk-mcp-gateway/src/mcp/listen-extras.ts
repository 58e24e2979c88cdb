// What the gateway adds to 2026-07-28 `subscriptions/listen` streams: task notifications (`taskIds`) and resource
// updates (`resourceSubscriptions`), each acknowledged with what it honours; a per-caller share of streams; and an end
// (the closing result) when the caller's token expires.
import 'server-only';
import {
  type AuthInfo,
  CLIENT_CAPABILITIES_META_KEY,
  type Implementation,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/server';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { whenExpired } from '../auth/token-expiry.js';
import { callerKeyOf } from '../http/guards.js';
import { currentCaller, principalOf } from '../request-context.js';
import { jobRunner } from '../long-work/job-runner.js';
import { isFinished } from '../long-work/job-store.js';
import { detailedTaskV2 } from './mcp-tasks.js';
import type { ReadOther, ResourceSubscriptions } from './resources/resource-subscriptions.js';

type ListenHandler = (req: Request) => Promise<Response>;
type ListenBody = { id?: unknown; params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> } };
/** Sends one notification on the stream (its subscription id is added). */
type Send = (method: string, params: Record<string, unknown>) => void;

/** A filter key the gateway serves itself: what it honours of the request, and the notifications it then sends. */
interface Extra {
  honoured: unknown[];
  /** Starts sending (once the acknowledgement is on its way). */
  start(send: Send): void;
  /** Stops sending, and lets go of what it holds. */
  stop(): void;
}

const encoder = new TextEncoder();
const frame = (message: object) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

/** A JSON-RPC error answering a listen request, with its HTTP status. */
function listenError(id: unknown, status: number, error: { code: number; message: string; data?: unknown }): Response {
  return Response.json({ jsonrpc: '2.0', id: id ?? null, error }, { status });
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The JSON-RPC -32021 a listen request for task notifications gets from a client that did not declare the extension. */
function missingExtension(id: unknown): Response {
  const requiredCapabilities = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };
  return listenError(id, 400, { code: -32021, message: 'Missing required client capability: task notifications need the Tasks extension', data: { requiredCapabilities } });
}

/** `notifications/tasks` for the caller's tasks among `requested`, each time one of them changes (on any instance). */
async function taskNotifications(requested: unknown[]): Promise<Extra> {
  const owner = principalOf(currentCaller());
  const ids = requested.filter((id): id is string => typeof id === 'string');
  const owned = await Promise.all(ids.map(async (id) => ((await jobRunner().get(id, owner))?.door === 'mcp' ? id : undefined)));
  const taskIds = new Set(owned.filter((id) => id !== undefined));
  let stop = () => {};
  return {
    honoured: [...taskIds],
    stop: () => stop(),
    start: (send) => {
      stop = jobRunner().onChange((id) => {
        if (!taskIds.has(id)) return;
        void jobRunner()
          .get(id, owner)
          .then((job) => {
            if (!job) return;
            if (isFinished(job.status)) taskIds.delete(id);
            send('notifications/tasks', detailedTaskV2(job));
          })
          .catch(() => undefined);
      });
    },
  };
}

/**
 * `notifications/resources/updated` for the URIs among `requested` that name a resource that exists and that the
 * caller may read, within its share of subscriptions; the others are left out of the acknowledgement.
 */
async function resourceNotifications(requested: unknown[], caller: string, subscriptions: ResourceSubscriptions, readOther: ReadOther, signal: AbortSignal): Promise<Extra> {
  const uris = [...new Set(requested.filter((uri): uri is string => typeof uri === 'string'))];
  let send: Send | undefined;
  const held: Array<{ uri: string; stop: () => void }> = [];
  // One at a time, in the request's order: the caller's share goes to the first ones, and no more URIs than a share
  // are checked (each check is a read: a list of many URIs that do not exist costs no more than a share of them).
  for (const uri of uris.slice(0, subscriptions.share)) {
    const subscription = await subscriptions.subscribe(uri, caller, (updated) => send?.('notifications/resources/updated', { uri: updated }), { readOther, signal });
    if ('stop' in subscription) held.push({ uri, stop: subscription.stop });
  }
  const stop = () => {
    for (const subscription of held) subscription.stop();
  };
  if (signal.aborted) stop();
  return {
    honoured: held.map(({ uri }) => uri),
    start: (sender) => (send = sender),
    stop,
  };
}

/** What the gateway's listen streams need: the resources' subscriptions, reading other URIs, and the server's name. */
export interface ListenExtrasOptions {
  subscriptions: ResourceSubscriptions;
  /** Reads a URI that is no procedure resource (an app's UI, a test fixture), as the server of this request would. */
  readOther: ReadOther;
  serverInfo: Implementation;
}

/**
 * Serves a listen request: within the caller's share of streams (else HTTP 429 naming MCP_MAX_LISTEN_STREAMS_PER_CALLER),
 * the filter's `taskIds` and `resourceSubscriptions` served here, the rest by the SDK's handler `listen` (when nothing
 * else is asked, a list it then stays quiet about, so that the stream stays open); its acknowledgement amended with
 * what the gateway honours, the extras' notifications added, and the stream ended with the closing result when the
 * caller's token expires.
 */
export function withListenExtras(listen: ListenHandler, options: ListenExtrasOptions): ListenHandler {
  return async (req) => {
    const body = (await req.clone().json().catch(() => undefined)) as ListenBody | undefined;
    const filter = body?.params?.notifications;
    if (!body || !filter || typeof filter !== 'object') return listen(req);
    // The filter keys served here must be lists of strings, as the SDK checks the keys it serves.
    const malformed = (['taskIds', 'resourceSubscriptions'] as const).find((key) => key in filter && !isStringList(filter[key]));
    if (malformed) return listenError(body.id, 400, { code: -32602, message: `Invalid params: notifications.${malformed} must be an array of strings` });
    if (Array.isArray(filter.taskIds)) {
      const capabilities = body.params?._meta?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
      if (capabilities?.extensions?.[TASKS_EXTENSION_ID_V2] === undefined) return missingExtension(body.id);
    }
    const caller = callerKeyOf(req);
    const closeStream = options.subscriptions.openStream(caller);
    if (!closeStream) {
      const message = `Too many listen streams: this caller holds ${options.subscriptions.streamShare} open (MCP_MAX_LISTEN_STREAMS_PER_CALLER)`;
      return listenError(body.id, 429, { code: -32000, message });
    }
    const stopped = new AbortController();
    const extras: Record<string, Extra> = {};
    const giveUp = () => {
      stopped.abort();
      for (const extra of Object.values(extras)) extra.stop();
      closeStream();
    };
    try {
      if (Array.isArray(filter.taskIds)) extras.taskIds = await taskNotifications(filter.taskIds);
      if (Array.isArray(filter.resourceSubscriptions)) {
        extras.resourceSubscriptions = await resourceNotifications(filter.resourceSubscriptions, caller, options.subscriptions, options.readOther, stopped.signal);
      }
      const { taskIds: _taskIds, resourceSubscriptions: _resourceSubscriptions, ...rest } = filter;
      const quietList = Object.keys(rest).length === 0;
      const sdkBody = { ...body, params: { ...body.params, notifications: quietList ? { toolsListChanged: true } : rest } };
      const forwarded = new Request(req, { body: JSON.stringify(sdkBody), duplex: 'half' } as RequestInit);
      forwarded.headers.delete('content-length');
      // The verified token the guards put on the request goes along.
      const { auth } = req as Request & { auth?: AuthInfo };
      const upstream = await listen(Object.assign(forwarded, { auth }));
      if (!upstream.body || !upstream.headers.get('content-type')?.includes('text/event-stream')) {
        giveUp();
        return upstream;
      }
      const stream = amendedStream(upstream.body, { id: body.id, extras, quietList, expiresAt: auth?.expiresAt, serverInfo: options.serverInfo, onEnd: giveUp });
      return new Response(stream, { status: upstream.status, headers: upstream.headers });
    } catch (error) {
      giveUp();
      throw error;
    }
  };
}

interface AmendOptions {
  id: unknown;
  extras: Record<string, Extra>;
  quietList: boolean;
  /** When the caller's token expires (seconds since the epoch), if it does. */
  expiresAt?: number;
  serverInfo: Implementation;
  /** Called once the stream ended, however it ended: the extras stop, the caller's share is given back. */
  onEnd: () => void;
}

/** The SDK's listen stream, with its acknowledgement amended and the extras' notifications added (see above). */
function amendedStream(source: ReadableStream<Uint8Array>, { id, extras, quietList, expiresAt, serverInfo, onEnd }: AmendOptions) {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let subscriptionId: unknown = id;
  let cancelExpiry = () => {};
  let buffered = '';
  let ended = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const end = () => {
    if (ended) return;
    ended = true;
    cancelExpiry();
    onEnd();
  };
  /** The spec's graceful close: the listen request's (empty) result, then the end of the stream. */
  const close = () => {
    if (ended) return;
    const _meta = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId, [SERVER_INFO_META_KEY]: serverInfo };
    controller.enqueue(frame({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta } }));
    controller.close();
    end();
    void reader.cancel().catch(() => undefined);
  };
  const send: Send = (method, params) => {
    if (ended) return;
    controller.enqueue(frame({ jsonrpc: '2.0', method, params: { ...params, _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } } }));
  };
  /** One event of the SDK's stream, as it goes on to the client (or not at all). */
  const amended = (event: string): Uint8Array | undefined => {
    const data = event.match(/^data: (.*)$/m)?.[1];
    const message = data ? (JSON.parse(data) as { method?: string; params?: Record<string, unknown> }) : undefined;
    if (message?.method === 'notifications/tools/list_changed' && quietList) return undefined;
    if (message?.method !== 'notifications/subscriptions/acknowledged' || !message.params) return encoder.encode(`${event}\n\n`);
    subscriptionId = (message.params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY] ?? id;
    const honoured = quietList ? {} : (message.params.notifications as object);
    const added = Object.fromEntries(Object.entries(extras).map(([key, extra]) => [key, extra.honoured]));
    return frame({ ...message, params: { ...message.params, notifications: { ...honoured, ...added } } });
  };
  const honoursNothing = () => quietList && Object.values(extras).every((extra) => extra.honoured.length === 0);
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      cancelExpiry = whenExpired(expiresAt, close);
    },
    async pull() {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (ended) return;
      if (done) {
        controller.close();
        end();
        return;
      }
      buffered += decoder.decode(value, { stream: true });
      const events = buffered.split('\n\n');
      buffered = events.pop()!;
      for (const event of events) {
        if (ended) return;
        const bytes = amended(event);
        if (bytes) controller.enqueue(bytes);
        if (!bytes || !event.includes('notifications/subscriptions/acknowledged')) continue;
        // Nothing to tell (every URI and task left out, no list asked for): closed at once, as the SDK closes its own.
        if (honoursNothing()) close();
        else for (const extra of Object.values(extras)) extra.start(send);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}
