// Benchmark baseline: getUser as a hand-written MCP tool, the code a user would write without the gateway.
// Served only with GATEWAY_BENCHMARK=1 (404 otherwise), behind the same guards and body limit as /api/mcp.
import { createMcpHandler } from 'mcp-handler';
import { z } from 'zod';
import { benchmarkEnabled } from '@/lib/config';
import { guarded, jsonRpcError } from '@/lib/http/guards';
import { withRequestScope } from '@/lib/mcp/request-scope';
import UserService from '@/modules/user/user-service';

const handwritten = guarded(
  withRequestScope(
    createMcpHandler((server) => {
      server.registerTool(
        'getUser',
        { description: 'Get a user by id', inputSchema: z.object({ id: z.coerce.number().int().positive() }) },
        async ({ id }) => {
          try {
            const user = await UserService.getUser(id);
            return { content: [{ type: 'text', text: JSON.stringify(user) }], structuredContent: user };
          } catch (error) {
            return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
          }
        },
      );
    }),
  ),
  jsonRpcError,
);

const handler = (req: Request) => (benchmarkEnabled() ? handwritten(req) : new Response('Not found', { status: 404 }));

export { handler as POST };
