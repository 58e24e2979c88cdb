// A REST segment behind the gateway's guards: Vovk's segment router, errors masked, details kept, 503s with Retry-After.
import 'server-only';
import { initSegment } from 'vovk';
import { configureGateway, type GatewaySettings } from '../config.js';
import { drainWhenServedByEntry } from '../lifecycle.js';
import { guarded } from './guards.js';
import { maskErrorForRest, withErrorDetails } from '../tools/index.js';
import { withRetryAfter } from '../unavailable.js';

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Promise<Response>;

const guard = <TArgs extends unknown[]>(handler: Handler<TArgs>) => guarded(withRetryAfter(withErrorDetails(handler)), 'rest');

/**
 * The route handlers of a REST segment (`controllers` under `/api/<segmentName>/…`, the root one without a name)
 * with every rule of the REST door: auth, rate limit, body limit and JSON check, production error masking. `settings`
 * (the same ones the app gives `createMcpGateway`) are set for the process when given, so both doors hold one set of rules.
 */
export function guardedSegment(
  { segmentName, controllers }: { segmentName?: string; controllers: Parameters<typeof initSegment>[0]['controllers'] },
  settings?: GatewaySettings,
) {
  if (settings) configureGateway(settings);
  // Served by the package's entry: SIGTERM drains (installed here when the app's instrumentation did not at start).
  drainWhenServedByEntry();
  const segment = initSegment({ segmentName, controllers, onError: maskErrorForRest });
  return {
    GET: guard(segment.GET),
    POST: guard(segment.POST),
    PUT: guard(segment.PUT),
    PATCH: guard(segment.PATCH),
    DELETE: guard(segment.DELETE),
    HEAD: guard(segment.HEAD),
    OPTIONS: guard(segment.OPTIONS),
  };
}
