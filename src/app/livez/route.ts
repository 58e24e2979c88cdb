// GET /livez: the liveness probe (200 while the process serves); unauthenticated, never rate-limited.
import { liveness } from 'vovk-mcp-gateway';

export const dynamic = 'force-dynamic';
export const GET = liveness;
