// GET /api/openapi.json: the OpenAPI 3.1 document of the REST door, generated from the same registry of controllers.
import { GATEWAY_TITLE, GATEWAY_VERSION, guarded, openApiDocument } from 'vovk-mcp-gateway';
import { controllers, segments } from '@/modules';

const document = openApiDocument(controllers, {
  title: GATEWAY_TITLE,
  version: GATEWAY_VERSION,
  description:
    'The REST door of the gateway: every procedure of its Vovk controllers, also served as MCP tools at /api/mcp.',
  servers: [{ url: '/', description: 'This server' }],
}, segments);

export const GET = guarded(async () => Response.json(document), 'rest');
