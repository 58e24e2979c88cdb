// createMcpGateway: an app's whole MCP door in one call (its route file exports what this returns): the controllers'
// procedures as tools over Streamable HTTP in both protocol eras, statelessly by mcp-handler, in sessions for 2025-era
// clients that start one, listen streams by the SDK, behind the gateway's guards.
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
import { withSessionLane } from './mcp/sessions/session-lane.js';

/** What an app gives its MCP route: its modules (controllers first) and any setting to change from its default. */
export interface McpGatewayOptions extends GatewayModules, GatewaySettings {
  /**
   * Where the app's data changes come from, for resource subscriptions (each change names its table and rows).
   * @default the changes of the watched tables of `database()` (see `MigrationSet.watched`)
   */
  dataChanges?: (listener: ChangeListener) => () => void;
}

/** The route handlers of the MCP endpoint: `export const { GET, POST, DELETE } = createMcpGateway({ controllers })`. */
export interface McpGatewayRoute {
  GET: (req: Request) => Promise<Response>;
  POST: (req: Request) => Promise<Response>;
  DELETE: (req: Request) => Promise<Response>;
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
  // SDK's handler over the list-change bus; 2025-era sessions → the session lane; everything else → mcp-handler.
  const stateless = createMcpHandler(gateway.setup, { serverInfo, onEvent: noteCalledTool, ...gateway.serverOptions });
  const lanes = withSessionLane(withListenStreams(stateless, gateway, serverInfo), {
    gateway,
    serverInfo,
    sessions,
    maxBodyBytes: mcpMaxBodyBytes,
    database,
    traced: Boolean(tracing),
  });
  const guardedDoor = guarded(gateway.selecting(lanes), 'mcp');
  const handler = async (req: Request): Promise<Response> => {
    // Jobs whose instance died are failed, and expired ones removed, by every instance: from its first request on (not
    // while `next build` loads the route), once per process.
    jobRunner().startSweeping();
    return guardedDoor(req);
  };
  return { GET: handler, POST: handler, DELETE: handler };
}
