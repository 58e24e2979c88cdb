// Benchmark floors: getUser as a bare Next.js route handler (REST) and, with a large image, a bare mcp-handler route (MCP).
import { createMcpHandler } from 'mcp-handler';
import { z } from 'zod';
import { appSettings } from '@/lib/settings';
import { store } from '@/lib/store';
import { largeImage } from './bench-media';

const userOne = async () => (await store().getUser(1))!;

/** The REST floor: the same JSON as GET /api/users/1, from the same store, without guards, context, log or Vovk. */
async function restFloor(): Promise<Response> {
  return Response.json(await userOne());
}

/**
 * The same JSON answering a POST whose JSON body is read (what Next.js costs for a request like an MCP one, without
 * MCP): beside the GET floor, the part of MCP ÷ REST that is the HTTP method's.
 */
async function restPostFloor(req: Request): Promise<Response> {
  await req.json();
  return restFloor();
}

/**
 * getUser as a hand-written mcp-handler tool, the code a user would write without the gateway (the gateway's input
 * shape, so that one request serves both): bare here, it is the MCP floor; behind the REST door's guards
 * (POST /api/bench/mcp, BenchController) it is the baseline derived tools are compared with.
 */
export const handwrittenMcpHandler = createMcpHandler((server) => {
  // The media floor: the same bytes as BenchController_getLargeImage, as the image content a user would build.
  server.registerTool(
    'BenchController_getLargeImage',
    { description: 'A large image', inputSchema: z.object({ query: z.object({ mib: z.enum(['1', '8']) }) }) },
    async ({ query }) => ({
      content: [{ type: 'image', data: Buffer.from(largeImage(Number(query.mib))).toString('base64'), mimeType: 'image/png' }],
    }),
  );
  server.registerTool(
    'UserController_getUser',
    { description: 'Get a user by id', inputSchema: z.object({ params: z.object({ id: z.coerce.number().int().positive() }) }) },
    async ({ params }) => {
      const user = await store().getUser(params.id);
      if (!user) return { content: [{ type: 'text', text: `User ${params.id} not found` }], isError: true };
      return { content: [{ type: 'text', text: JSON.stringify(user) }], structuredContent: { ...user } };
    },
  );
});

/** GET and POST /api/bench-floor/rest and POST /api/bench-floor/mcp, with GATEWAY_BENCHMARK=1; 404 otherwise. */
export async function benchFloor(req: Request, door: string): Promise<Response> {
  if (!appSettings().benchmark) return new Response(null, { status: 404 });
  if (door === 'rest' && req.method === 'GET') return restFloor();
  if (door === 'rest' && req.method === 'POST') return restPostFloor(req);
  if (door === 'mcp') return handwrittenMcpHandler(req);
  return new Response(null, { status: 404 });
}
