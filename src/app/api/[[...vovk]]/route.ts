// REST door: every controller of the registry under /api, through Vovk's segment router, behind the gateway guards.
import { initSegment } from 'vovk';
import { guarded } from '@/lib/http/guards';
import { maskErrorForRest, withErrorDetails } from '@/lib/tools';
import { withRetryAfter } from '@/lib/unavailable';
import { controllers } from '@/modules';

export type { Controllers } from '@/modules';

const segment = initSegment({ controllers, onError: maskErrorForRest });
const guard = <T extends unknown[]>(handler: (req: Request, ...args: T) => Promise<Response>) => guarded(withRetryAfter(withErrorDetails(handler)), 'rest');

export const GET = guard(segment.GET);
export const POST = guard(segment.POST);
export const PUT = guard(segment.PUT);
export const PATCH = guard(segment.PATCH);
export const DELETE = guard(segment.DELETE);
export const HEAD = guard(segment.HEAD);
export const OPTIONS = guard(segment.OPTIONS);
