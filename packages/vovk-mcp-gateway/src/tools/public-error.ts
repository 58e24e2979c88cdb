// Decides what a client may read of a thrown error: in production only an HttpException keeps its message.
import 'server-only';
import { HttpException, type HttpStatus } from 'vovk';
import { isProduction } from '../config.js';
import { requestContext } from '../request-context.js';
import { ServiceUnavailableError } from '../unavailable.js';

/** The text every masked error reads, exactly as the formatting spec says. */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/**
 * An error as a client sees it; `errorId` is set when the real message was masked and logged, `details` when the error
 * is a {@link DetailedHttpException}.
 */
export type PublicError = { message: string; errorId?: string; details?: Record<string, unknown> };

const detailedBrand = Symbol.for('vovk-gateway.detailed-http-exception');

/**
 * An `HttpException` whose client-facing form carries more than its status and message, e.g. the rows an import
 * refused: `{ statusCode, message, errors }`. Its details are public like its message (in production too): REST answers
 * them in the error body (`withErrorDetails`), MCP as a second text item of the isError result (their JSON).
 */
export class DetailedHttpException<Details extends Record<string, unknown> = Record<string, unknown>> extends HttpException {
  readonly [detailedBrand] = true;
  /** The fields the client-facing form adds, e.g. `{ errors }` (not an own enumerable field: `toJSON` has them once). */
  declare readonly details: Details;

  constructor(statusCode: HttpStatus, message: string, details: Details) {
    super(statusCode, message);
    Object.defineProperty(this, 'details', { value: details, enumerable: false });
  }

  override toJSON() {
    return { ...super.toJSON(), ...this.details };
  }

  /** Unlike `instanceof`, also true across the server's bundles. */
  static is(error: unknown): error is DetailedHttpException {
    return typeof error === 'object' && error !== null && detailedBrand in error;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The client-facing form of an error. In production any error that is not an `HttpException` (or a
 * `ServiceUnavailableError`: the database is down) reads "Internal server error"; the real error is logged with a
 * fresh id that the caller passes on to the client, so an operator can find the log line from what the client reports.
 */
export function toPublicError(error: unknown): PublicError {
  if (DetailedHttpException.is(error)) return { message: error.message, details: error.details };
  // The call was cancelled (its caller, a disconnect, a shutdown): what its work threw on stopping is no fault to log.
  const work = requestContext()?.work;
  if (work?.signal.aborted) return { message: `Cancelled: ${messageOf(work.signal.reason ?? error)}` };
  if ((error as Error | undefined)?.name === 'WorkCancelled') return { message: `Cancelled: ${messageOf(error)}` };
  if (error instanceof HttpException || ServiceUnavailableError.is(error) || !isProduction()) return { message: messageOf(error) };
  const errorId = globalThis.crypto.randomUUID();
  console.error(`[gateway] error ${errorId}:`, error);
  requestContext()?.maskedErrorIds.push(errorId);
  return { message: INTERNAL_ERROR_MESSAGE, errorId };
}

/** The details of the DetailedHttpException each failed REST request threw, until `withErrorDetails` answers them. */
const detailsOfFailedRequest = new WeakMap<Request, Record<string, unknown>>();

/**
 * REST counterpart of {@link toPublicError}, for Vovk's segment `onError` hook: in production it rewrites a thrown
 * error in place so Vovk's error response says only "Internal server error" (status 500, `cause: { errorId }`). The
 * details of a {@link DetailedHttpException} are kept for {@link withErrorDetails} (Vovk's error body has no room for them).
 */
export function maskErrorForRest(error: Error & { statusCode?: number }, req?: Request): void {
  if (req && DetailedHttpException.is(error)) detailsOfFailedRequest.set(req, error.details);
  const { message, errorId } = toPublicError(error);
  if (!errorId) return;
  error.message = message;
  error.cause = { errorId };
  error.statusCode = 500;
}

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Promise<Response>;

/**
 * Wraps the REST segment's route handler (whose `onError` is {@link maskErrorForRest}): when the procedure threw a
 * {@link DetailedHttpException}, its details join Vovk's error body, `{ statusCode, message, isError, ...details }`.
 */
export function withErrorDetails<TArgs extends unknown[]>(handler: Handler<TArgs>): Handler<TArgs> {
  return async (req, ...args) => {
    const response = await handler(req, ...args);
    const details = detailsOfFailedRequest.get(req);
    if (!details) return response;
    const body = (await response.json()) as Record<string, unknown>;
    return Response.json({ ...body, ...details }, { status: response.status, headers: response.headers });
  };
}
