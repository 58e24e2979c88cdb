// The app's MCP gateway, made once per route bundle and used by three route files: the MCP door (`api/mcp`) and the
// HTTP+SSE transport's two (`api/sse`, `api/message`). The quickstart's call (README "Add it to your Vovk app") with the
// reference app's options: its registry, its MCP App UIs, the settings of its environment, the changes of its store.
import 'server-only';
import { createMcpGateway } from 'vovk-mcp-gateway';
import { gatewaySettings } from '@/lib/settings';
import { store } from '@/lib/store';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';

export const mcpGateway = createMcpGateway({
  ...gatewaySettings,
  ...gatewayModules,
  apps: mcpApps,
  dataChanges: (listener) => store().onChange(listener),
});
