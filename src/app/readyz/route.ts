// GET /readyz: the readiness probe (200 when the database answers and the instance is not draining, else 503).
import { readiness } from 'vovk-mcp-gateway';

export const dynamic = 'force-dynamic';
export const GET = readiness;
