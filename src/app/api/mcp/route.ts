// MCP door: Streamable HTTP, both protocol eras (the gateway is made in ./gateway.ts, shared with the HTTP+SSE routes).
import { mcpGateway } from './gateway';

export const { GET, POST, DELETE } = mcpGateway;
