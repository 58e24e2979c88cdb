// MCP door: the quickstart's route (README "Add it to your Vovk app") with the reference app's options: its registry,
// its MCP App UIs, and the settings of its environment.
import { createMcpGateway } from 'vovk-mcp-gateway';
import { gatewaySettings } from '@/lib/settings';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';

export const { GET, POST, DELETE } = createMcpGateway({ ...gatewaySettings, ...gatewayModules, apps: mcpApps });
