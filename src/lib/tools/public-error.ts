// Decides what a client may read of a thrown error: in production only an HttpException keeps its message.
import 'server-only';
import { HttpException } from 'vovk';
import { isProduction } from '@/lib/config';
import { requestContext } from '@/lib/request-context';
import { ServiceUnavailableError } from '@/lib/unavailable';

/** The text every masked error reads, exactly as the formatting spec says. */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/** An error as a client sees it; `errorId` is set when the real message was masked and logged. */
export type PublicError = { message: string; errorId?: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The client-facing form of an error. In production any error that is not an `HttpException` (or a
 * `ServiceUnavailableError`: the database is down) reads "Internal server error"; the real error is logged with a
 * fresh id that the caller passes on to the client, so an operator can find the log line from what the client reports.
 */
export function toPublicError(error: unknown): PublicError {
  if (error instanceof HttpException || ServiceUnavailableError.is(error) || !isProduction()) return { message: messageOf(error) };
  const errorId = globalThis.crypto.randomUUID();
  console.error(`[gateway] error ${errorId}:`, error);
  requestContext()?.maskedErrorIds.push(errorId);
  return { message: INTERNAL_ERROR_MESSAGE, errorId };
}

/**
 * REST counterpart of {@link toPublicError}, for Vovk's segment `onError` hook: in production it rewrites a thrown
 * error in place so Vovk's error response says only "Internal server error" (status 500, `cause: { errorId }`).
 */
export function maskErrorForRest(error: Error & { statusCode?: number }): void {
  const { message, errorId } = toPublicError(error);
  if (!errorId) return;
  error.message = message;
  error.cause = { errorId };
  error.statusCode = 500;
}
