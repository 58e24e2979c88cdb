// Benchmark baseline: getUser as a hand-written MCP tool, the code a user would write without the gateway.
import { createMcpHandler } from 'mcp-handler';
import { z } from 'zod';
import { store } from '@/lib/db/store';

/** The MCP handler behind POST /api/bench/mcp (BenchController, which the REST door's guards wrap). */
export const handwrittenMcpHandler = createMcpHandler((server) => {
  server.registerTool(
    'getUser',
    { description: 'Get a user by id', inputSchema: z.object({ id: z.coerce.number().int().positive() }) },
    async ({ id }) => {
      try {
        const user = await store().getUser(id);
        if (!user) return { content: [{ type: 'text', text: `User ${id} not found` }], isError: true };
        return { content: [{ type: 'text', text: JSON.stringify(user) }], structuredContent: { ...user } };
      } catch (error) {
        return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
      }
    },
  );
});
