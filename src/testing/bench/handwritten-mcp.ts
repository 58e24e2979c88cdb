// Benchmark baseline: getUser as a hand-written MCP tool, the code a user would write without the gateway.
import { createMcpHandler } from 'mcp-handler';
import { z } from 'zod';
import { guarded } from '@/lib/http/guards';
import UserService from '@/modules/user/user-service';

/** The POST handler of /api/bench/mcp: behind the same guards and body limit as /api/mcp. */
export const handwrittenMcpHandler = guarded(
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
  'mcp',
);
