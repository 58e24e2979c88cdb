// MCP door: the quickstart's route (README "Add it to your Vovk app") with the reference app's options: its registry,
// its MCP App UIs, the settings of its environment, and the changes of its store for resource subscriptions.
import { createMcpGateway } from 'vovk-mcp-gateway';
import { gatewaySettings } from '@/lib/settings';
import { store } from '@/lib/store';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';

export const { GET, POST, DELETE } = createMcpGateway({
  ...gatewaySettings,
  ...gatewayModules,
  apps: mcpApps,
  dataChanges: (listener) => store().onChange(listener),
});
