// Tells open `subscriptions/listen` streams (2026-07-28) and 2025-era sessions that a list of the gateway changed.
import 'server-only';
import {
  type AuthInfo,
  createMcpHandler,
  type Implementation,
  InMemoryServerEventBus,
  McpServer,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import type { SqlMessaging } from '../db/driver.js';
import { database } from '../db/database.js';
import { onShutdown } from '../lifecycle.js';
import type { GatewayServer } from './gateway-server.js';
import { withListenExtras } from './listen-extras.js';
import { sdkRequestHandler } from './register-tools.js';
import { detachedContext } from './resources/procedure-resources.js';
import type { ReadOther } from './resources/resource-subscriptions.js';

/** A list a client can be told has changed (it then lists it again). */
export type ChangingList = 'tools' | 'prompts' | 'resources';

const busKey = Symbol.for('vovk-gateway.list-changes');
type GlobalWithBus = typeof globalThis & { [busKey]?: ServerEventBus };

/** PostgreSQL channel of list changes (payload: the SDK's `ServerEvent` as JSON), heard by every instance. */
const LIST_CHANGE_CHANNEL = 'mcp_list_changes';

/**
 * A `ServerEventBus` across the instances sharing one PostgreSQL (the SDK's seam for multi-process deployments): a
 * publish is a NOTIFY, and every instance — this one too — hands what it hears on LISTEN to its own listeners. When the
 * NOTIFY fails (the database is down), the event still reaches this instance's streams.
 */
function postgresEventBus(messaging: SqlMessaging): ServerEventBus {
  const local = new InMemoryServerEventBus((error) => console.error('[gateway] list-change listener:', error));
  messaging.listen(LIST_CHANGE_CHANNEL, { message: (payload) => local.publish(JSON.parse(payload) as ServerEvent) });
  return {
    publish: (event) => void messaging.notify(LIST_CHANGE_CHANNEL, JSON.stringify(event)).catch(() => local.publish(event)),
    subscribe: (listener) => local.subscribe(listener),
  };
}

/**
 * The change events: the listen streams and sessions subscribe to it, {@link announceListChanged} publishes on it. One
 * per process (every route bundle has its own copy of this module). Over PostgreSQL it spans every instance; with
 * SQLite (one instance) it is in memory.
 */
function listChangeBus(): ServerEventBus {
  const scope = globalThis as GlobalWithBus;
  const messaging = database().messaging;
  scope[busKey] ??= messaging
    ? postgresEventBus(messaging)
    : new InMemoryServerEventBus((error) => console.error('[gateway] list-change listener:', error));
  return scope[busKey];
}

/** {@link listChangeBus}, reached on first use: loading the route (`next build`, `vovk-mcp-gateway tools`) opens no database. */
const firstUseBus: ServerEventBus = {
  publish: (event) => listChangeBus().publish(event),
  subscribe: (listener) => listChangeBus().subscribe(listener),
};

/**
 * Sends `notifications/<list>/list_changed` on every open listen stream that asked for it. Call it after changing
 * what the gateway serves; with no stream open it costs a look at an empty set.
 */
export function announceListChanged(list: ChangingList): void {
  listChangeBus().publish({ kind: `${list}_list_changed` });
}

/**
 * Forwards the list changes announced from now on to `server` — a 2025-era session's, which then sends
 * `notifications/<list>/list_changed` to its client (on the session's standalone stream). Returns the unsubscribe.
 */
export function forwardListChanges(server: McpServer): () => void {
  const notifications: Partial<Record<string, () => Promise<void>>> = {
    tools_list_changed: () => server.server.sendToolListChanged(),
    prompts_list_changed: () => server.server.sendPromptListChanged(),
    resources_list_changed: () => server.server.sendResourceListChanged(),
  };
  return listChangeBus().subscribe((event) => {
    const send = notifications[event.kind];
    if (!send || !server.isConnected()) return;
    send().catch((error: Error) => console.error(`[gateway] A list change could not be sent to a session: ${error.message}`));
  });
}

/** A request handler of the MCP route. */
type McpRouteHandler = (req: Request) => Promise<Response>;

/**
 * Serves `subscriptions/listen` (2026-07-28) with the SDK's own handler over the gateway's change bus, and every other
 * request with `handler`. mcp-handler would serve listen streams too, but over a bus of its own that nothing can
 * publish on. The SDK handler validates the request (headers, `_meta`, version) as for any other method, acknowledges
 * the subscription with what the gateway's capabilities can deliver, keeps the stream alive and ends it gracefully
 * at shutdown.
 */
export function withListenStreams(
  handler: McpRouteHandler,
  gateway: GatewayServer,
  serverInfo: Implementation,
): McpRouteHandler {
  const listen = createMcpHandler(
    () => {
      const server = new McpServer(serverInfo, gateway.serverOptions);
      gateway.setupListen(server);
      return server;
    },
    { bus: firstUseBus, legacy: 'reject' },
  );
  onShutdown(() => void listen.close());
  // A URI that is no procedure resource (an app's UI, a test fixture) exists when the request's server reads it.
  // One server of the process does (its resources do not depend on the caller), made when first needed.
  let probe: McpServer | undefined;
  const readOther: ReadOther = async (uri) => {
    if (!probe) gateway.setup((probe = new McpServer(serverInfo, gateway.serverOptions)));
    const read = sdkRequestHandler<(request: unknown, ctx: unknown) => Promise<unknown>>(probe, 'resources/read');
    return read?.({ method: 'resources/read', params: { uri } }, detachedContext(new AbortController().signal));
  };
  // The guards put the verified token on the request, as mcp-handler reads it.
  const withExtras = withListenExtras(
    (req) => {
      const { auth } = req as Request & { auth?: AuthInfo };
      return listen.fetch(req, auth ? { authInfo: auth } : undefined);
    },
    { subscriptions: gateway.subscriptions, readOther, serverInfo },
  );
  return (req) => {
    // 2026-07-28 requests name their method in a header (checked against the body by the SDK): no body parse here.
    if (req.method !== 'POST' || req.headers.get('mcp-method') !== 'subscriptions/listen') return handler(req);
    return withExtras(req);
  };
}
