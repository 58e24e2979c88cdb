// HTTP+SSE transport (2024-11-05), its messages: POST /api/message?sessionId=… takes one, 202; the answer comes on the stream.
import { mcpGateway } from '../mcp/gateway';

export const { POST } = mcpGateway.message;
