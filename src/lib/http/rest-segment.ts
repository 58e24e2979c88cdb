// A REST segment behind the gateway's guards: Vovk's segment router, errors masked, details kept, 503s with Retry-After.
import 'server-only';
import { initSegment } from 'vovk';
import { guarded } from '@/lib/http/guards';
import { maskErrorForRest, withErrorDetails } from '@/lib/tools';
import { withRetryAfter } from '@/lib/unavailable';

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Promise<Response>;

const guard = <TArgs extends unknown[]>(handler: Handler<TArgs>) => guarded(withRetryAfter(withErrorDetails(handler)), 'rest');

/**
 * The route handlers of a REST segment (`controllers` under `/api/<segmentName>/…`, the root one without a name)
 * with every rule of the REST door: auth, rate limit, body limit and JSON check, production error masking.
 */
export function guardedSegment({ segmentName, controllers }: { segmentName?: string; controllers: Parameters<typeof initSegment>[0]['controllers'] }) {
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
