// MCP door: the registry's tools over Streamable HTTP (both protocol eras): statelessly by mcp-handler, in sessions
// for 2025-era clients that start one (server-to-client requests such as elicitation need one), listen streams by the SDK.
import { createMcpHandler } from 'mcp-handler';
import { GATEWAY_NAME, GATEWAY_VERSION } from '@/lib/about';
import { config } from '@/lib/config';
import { store } from '@/lib/db/store';
import { guarded } from '@/lib/http/guards';
import { publicOrigin } from '@/lib/http/public-origin';
import { createGatewayServer, noteCalledTool } from '@/lib/mcp/gateway-server';
import { withListenStreams } from '@/lib/mcp/list-changes';
import { withSessionLane } from '@/lib/mcp/sessions/session-lane';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';

const { mcpMaxMediaBytes, streams, mcpMaxBodyBytes, oversizeMedia, stateSecret, confirmDestructive, sessions, tracing, mcpListMax, codeMode, subscriptions } = config();
const gateway = createGatewayServer({ ...gatewayModules, apps: mcpApps }, {
  maxMediaBytes: mcpMaxMediaBytes,
  oversizeMedia,
  publicOrigin: () => publicOrigin(),
  stateSecret,
  confirmDestructive,
  listMax: mcpListMax,
  codeMode: { ...codeMode, maxBodyBytes: mcpMaxBodyBytes },
  subscriptions,
  dataChanges: (listener) => store().onChange(listener),
  streams,
});
const serverInfo = { name: GATEWAY_NAME, version: GATEWAY_VERSION };

// Each request's view of the catalogue (toolsets, read-only, surface) first; then 2026-07-28 listen streams → the SDK's
// handler over the list-change bus; 2025-era sessions → the session lane; everything else → mcp-handler, statelessly.
const stateless = createMcpHandler(gateway.setup, { serverInfo, onEvent: noteCalledTool, ...gateway.serverOptions });
const lanes = withSessionLane(withListenStreams(stateless, gateway, serverInfo), {
  gateway,
  serverInfo,
  sessions,
  maxBodyBytes: mcpMaxBodyBytes,
  store: store(),
  traced: Boolean(tracing),
});
const handler = guarded(gateway.selecting(lanes), 'mcp');

export { handler as GET, handler as POST, handler as DELETE };
