// createMcpGateway: an app's whole MCP door in one call (its route file exports what this returns): the controllers'
// procedures as tools over Streamable HTTP in both protocol eras, statelessly by mcp-handler, in sessions for 2025-era
// clients that start one, listen streams by the SDK, and over HTTP+SSE (2024-11-05), behind the gateway's guards.
import 'server-only';
import { createMcpHandler } from 'mcp-handler';
import { GATEWAY_NAME, GATEWAY_VERSION } from './about.js';
import { recordGateway } from './catalogue/catalogue-contract.js';
import { configureGateway, type GatewaySettings } from './config.js';
import { database } from './db/database.js';
import type { ChangeListener } from './db/driver.js';
import { guarded } from './http/guards.js';
import { publicOrigin } from './http/public-origin.js';
import { drainWhenServedByEntry } from './lifecycle.js';
import { jobRunner } from './long-work/job-runner.js';
import { createGatewayServer, type GatewayModules, noteCalledTool } from './mcp/gateway-server.js';
import { withListenStreams } from './mcp/list-changes.js';
import { createSessionLane } from './mcp/sessions/session-lane.js';

/** What an app gives its MCP route: its modules (controllers first) and any setting to change from its default. */
export interface McpGatewayOptions extends GatewayModules, GatewaySettings {
  /**
   * Where the app's data changes come from, for resource subscriptions (each change names its table and rows).
   * @default the changes of the watched tables of `database()` (see `MigrationSet.watched`)
   */
  dataChanges?: (listener: ChangeListener) => () => void;
}

type RouteHandler = (req: Request) => Promise<Response>;

/**
 * The route handlers of the MCP endpoint: `export const { GET, POST, DELETE } = createMcpGateway({ controllers })`;
 * and those of the HTTP+SSE transport (protocol revision 2024-11-05) for clients that still speak it, two route files
 * beside it: `api/sse/route.ts` exports `sse.GET`, `api/message/route.ts` exports `message.POST`.
 */
export interface McpGatewayRoute {
  GET: RouteHandler;
  POST: RouteHandler;
  DELETE: RouteHandler;
  /** `GET /api/sse`: opens the event stream of an HTTP+SSE session (its first event names the message endpoint). */
  sse: { GET: RouteHandler };
  /** `POST /api/message?sessionId=…`: a message of an HTTP+SSE session (202; the message route sits beside the SSE one). */
  message: { POST: RouteHandler };
}

/**
 * The MCP door of an app: every procedure of `controllers` (and of `segments`) a tool formatted per the spec, with the
 * catalogue surfaces, code mode, resources and subscriptions, sessions, tasks and jobs in the gateway's database. Every
 * setting not given keeps its documented default (the package never reads the environment; see `settingsFromEnv`).
 */
export function createMcpGateway(options: McpGatewayOptions): McpGatewayRoute {
  const { controllers, segments, tools, apps, setupServer, dataChanges, ...settings } = options;
  const { mcpMaxMediaBytes, resultBudget, streams, mcpMaxBodyBytes, oversizeMedia, stateSecret, confirmDestructive, sessions, tracing, mcpListMax, mcpListTtlMs, codeMode, subscriptions } =
    configureGateway(settings);
  // Served by the package's entry: SIGTERM drains (installed here when the app's instrumentation did not at start).
  drainWhenServedByEntry();
  const gateway = createGatewayServer(
    { controllers, segments, tools, apps, setupServer },
    {
      maxMediaBytes: mcpMaxMediaBytes,
      oversizeMedia,
      publicOrigin: () => publicOrigin(),
      stateSecret,
      confirmDestructive,
      listMax: mcpListMax,
      listTtlMs: mcpListTtlMs,
      codeMode: { ...codeMode, maxBodyBytes: mcpMaxBodyBytes },
      subscriptions,
      dataChanges: dataChanges ?? ((listener) => database().onChange(listener)),
      streams,
      resultBudget,
    },
  );
  // A process that set up the registry of gateways (the `tools` command's) hears of this one and of its tools.
  recordGateway(gateway);
  const serverInfo = { name: GATEWAY_NAME, version: GATEWAY_VERSION };

  // Each request's view of the catalogue (toolsets, read-only, surface) first; then 2026-07-28 listen streams → the
  // SDK's handler over the list-change bus; 2025-era sessions → the session lane; everything else → mcp-handler. An
  // HTTP+SSE stream is a session too, its view of the catalogue the one its GET selects.
  const stateless = createMcpHandler(gateway.setup, { serverInfo, onEvent: noteCalledTool, ...gateway.serverOptions });
  const sessionLane = createSessionLane({
    gateway,
    serverInfo,
    sessions,
    maxBodyBytes: mcpMaxBodyBytes,
    database,
    traced: Boolean(tracing),
  });
  const lanes = sessionLane.route(withListenStreams(stateless, gateway, serverInfo));
  const served = (door: RouteHandler): RouteHandler => {
    const guardedDoor = guarded(door, 'mcp');
    return async (req) => {
      // Jobs whose instance died are failed, and expired ones removed, by every instance: from its first request on
      // (not while `next build` loads the route), once per process.
      jobRunner().startSweeping();
      return guardedDoor(req);
    };
  };
  const handler = served(gateway.selecting(lanes));
  return {
    GET: handler,
    POST: handler,
    DELETE: handler,
    sse: { GET: served(gateway.selecting(sessionLane.openEventStream)) },
    message: { POST: served(sessionLane.postMessage) },
  };
}
