// HTTP+SSE transport (2024-11-05), its event stream: GET opens a session whose first event names the message endpoint.
import { mcpGateway } from '../mcp/gateway';

export const { GET } = mcpGateway.sse;
