// Store results and refusals as HttpExceptions, which both doors report: a REST status, an MCP isError with the message.
import 'server-only';
import { HttpException, HttpStatus } from 'vovk';
import { StoreError } from '@/lib/store';

const statusOf: Record<StoreError['code'], HttpStatus> = {
  email_taken: HttpStatus.CONFLICT,
  unknown_assignee: HttpStatus.UNPROCESSABLE_ENTITY,
};

/** `value`, or a 404 `HttpException` "<what> not found" when the store found nothing. */
export function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new HttpException(HttpStatus.NOT_FOUND, `${what} not found`);
  return value;
}

/** Runs a store write, turning a `StoreError` into the `HttpException` of its status (other errors pass through). */
export async function refusalsAsHttp<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (StoreError.is(error)) throw new HttpException(statusOf[error.code], error.message);
    throw error;
  }
}
