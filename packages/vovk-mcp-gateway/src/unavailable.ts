// "Try again shortly": the error a store raises while the database cannot be reached, answered 503 on both doors.
import 'server-only';

const unavailableBrand = Symbol.for('vovk-gateway.service-unavailable');

/** How long (seconds) a client is asked to wait before sending a request again after a 503 (`Retry-After`). */
const RETRY_AFTER_SECONDS = 2;

/**
 * A dependency (the database) cannot be reached now. Its message is safe to show: REST answers 503 with it (Vovk reads
 * `statusCode`) and `Retry-After`, MCP an isError result with it, in production too.
 */
export class ServiceUnavailableError extends Error {
  readonly [unavailableBrand] = true;
  readonly statusCode = 503;

  constructor(message: string) {
    super(message);
    this.name = 'ServiceUnavailableError';
  }

  /** Unlike `instanceof`, also true across the server's bundles (the store is shared by all of them). */
  static is(error: unknown): error is ServiceUnavailableError {
    return typeof error === 'object' && error !== null && unavailableBrand in error;
  }
}

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Promise<Response>;

/** Wraps a route handler so that a 503 answer tells the client when to try again (`Retry-After`). */
export function withRetryAfter<TArgs extends unknown[]>(handler: Handler<TArgs>): Handler<TArgs> {
  return async (req, ...args) => {
    const response = await handler(req, ...args);
    if (response.status === 503 && !response.headers.has('retry-after')) response.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
    return response;
  };
}
