// The health probes: `/livez` (the process serves) and `/readyz` (the database answers and the instance is not draining).
import 'server-only';
import { database, migrateGateway } from './db/database.js';
import { isShuttingDown } from './lifecycle.js';

/** How long `/readyz` waits for the database before it says "not ready" (a probe must answer quickly). */
const DATABASE_PROBE_TIMEOUT_MS = 2000;

/** Probes are never cached and never kept from the balancer by a proxy's cache. */
const PROBE_HEADERS = { 'cache-control': 'no-store' };

function notReady(reason: string, retryAfterSeconds: number): Response {
  return Response.json({ status: 'unavailable', reason }, { status: 503, headers: { ...PROBE_HEADERS, 'retry-after': String(retryAfterSeconds) } });
}

/** Resolves once the gateway's tables are migrated and the database answers a trivial query. */
async function databaseAnswers(): Promise<void> {
  await migrateGateway();
  await database().read((query) => query('SELECT 1'));
}

/** `GET /livez`: 200 as long as the process answers requests (also while it drains: it is alive, only not ready). */
export function liveness(): Response {
  return Response.json({ status: 'alive' }, { headers: PROBE_HEADERS });
}

/** `GET /readyz`: 200 when this instance should get traffic; 503 from the first moment of a drain, or when the database does not answer. */
export async function readiness(): Promise<Response> {
  if (isShuttingDown()) return notReady('draining: this instance is shutting down', 1);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_PROBE_TIMEOUT_MS} ms`)), DATABASE_PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([databaseAnswers(), timedOut]);
  } catch {
    return notReady('the database does not answer', 2);
  } finally {
    clearTimeout(timer);
  }
  if (isShuttingDown()) return notReady('draining: this instance is shutting down', 1);
  return Response.json({ status: 'ready' }, { headers: PROBE_HEADERS });
}
