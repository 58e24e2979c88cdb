// A streaming procedure's items for one tool result: collected within bounds, each sent on as progress, stopped on cancel.
import 'server-only';
import { HttpException, HttpStatus, JSONLinesResponder } from 'vovk';
import { reportProgress, WorkCancelled, workSignal } from '../long-work/current-work.js';
import { currentToolCall } from '../request-context.js';

/** How much of a stream one tool result holds (MCP_STREAM_MAX_ITEMS, MCP_STREAM_MAX_BYTES). */
export interface StreamLimits {
  maxItems: number;
  /** The items' JSON, in bytes. */
  maxBytes: number;
}

/** What a stream gave a tool result: the items kept, and how many came after the bound (counted, not kept). */
export interface CollectedStream {
  items: unknown[];
  /** Items left out past the bound; `leftOutAtLeast` when the stream was stopped before it ended. */
  leftOut: number;
  leftOutAtLeast: boolean;
  /** Which bound cut it. */
  cutBy?: 'items' | 'bytes';
}

/** How many items past the bound are counted (not kept) before a stream that goes on is stopped. */
const COUNT_PAST_BOUND_FACTOR = 10;

/** An error line of a JSONLines stream (`responder.throw(e)`), as vovk writes it. */
type ErrorLine = { isError: true; reason?: unknown };
const isErrorLine = (item: unknown): item is ErrorLine => typeof item === 'object' && item !== null && (item as ErrorLine).isError === true;

/** Whether a handler's result is a stream: a `JSONLinesResponder`, or an iterator that is not an array (as REST decides). */
export function isStream(result: unknown): result is JSONLinesResponder<unknown> | AsyncIterable<unknown> | Iterable<unknown> {
  if (result instanceof JSONLinesResponder) return true;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  return typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' || typeof (result as Iterable<unknown>)[Symbol.iterator] === 'function';
}

/** The items of a JSONLines response body, one per line as they arrive; an error line is thrown as the error it reports. */
async function* jsonLines(body: ReadableStream<Uint8Array> | null): AsyncGenerator<unknown> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      pending += decoder.decode(chunk.value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) yield JSON.parse(line);
    }
    if (pending.trim()) yield JSON.parse(pending);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The items of a stream result, whatever its kind. An error line of a JSONLines body (`responder.throw(e)`) ends it
 * with that error as REST showed it: its reason is public already, so it is not masked.
 */
async function* itemsOf(stream: JSONLinesResponder<unknown> | AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<unknown> {
  if (!(stream instanceof JSONLinesResponder)) {
    yield* stream as AsyncIterable<unknown>;
    return;
  }
  for await (const item of jsonLines(stream.response.body)) {
    if (isErrorLine(item)) {
      throw new HttpException(HttpStatus.INTERNAL_SERVER_ERROR, typeof item.reason === 'string' ? item.reason : JSON.stringify(item.reason));
    }
    yield item;
  }
}

/** Sends an item on while the stream runs: a progress notification of the call (when it asked for progress), else the work's progress. */
function passOn(item: unknown, count: number): void {
  const mcp = currentToolCall()?.mcp;
  const progressToken = mcp?.mcpReq._meta?.progressToken;
  const message = JSON.stringify(item);
  if (progressToken === undefined) return reportProgress({ done: count, message });
  mcp!.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: count, message } }).catch(() => {});
}

/** The next item, unless the call is cancelled first (a generator waiting on something else is not waited for). */
function nextOrCancel(iterator: AsyncIterator<unknown>, signal: AbortSignal): Promise<IteratorResult<unknown>> {
  if (signal.aborted) return Promise.reject(new WorkCancelled(signal.reason));
  return new Promise((resolve, reject) => {
    const cancel = () => reject(new WorkCancelled(signal.reason));
    signal.addEventListener('abort', cancel, { once: true });
    iterator.next().then(resolve, reject).finally(() => signal.removeEventListener('abort', cancel));
  });
}

/**
 * Reads a stream into one tool result's items: each item is passed on as it comes (progress), the stream is stopped
 * when the call is cancelled (its generator returned, its body cancelled), and once a bound is reached the rest is
 * counted without being kept — up to {@link COUNT_PAST_BOUND_FACTOR} times the item bound, then the stream is stopped.
 * A failure of the stream is thrown.
 */
export async function collectStream(stream: Parameters<typeof itemsOf>[0], limits: StreamLimits): Promise<CollectedStream> {
  const signal = workSignal();
  const iterator = itemsOf(stream);
  const collected: CollectedStream = { items: [], leftOut: 0, leftOutAtLeast: false };
  let bytes = 0;
  let finished = false;
  try {
    for (let next = await nextOrCancel(iterator, signal); !next.done; next = await nextOrCancel(iterator, signal)) {
      const count = collected.items.length + collected.leftOut + 1;
      if (collected.cutBy) {
        collected.leftOut++;
        if (collected.leftOut >= limits.maxItems * COUNT_PAST_BOUND_FACTOR) {
          collected.leftOutAtLeast = true;
          break;
        }
        continue;
      }
      const size = Buffer.byteLength(JSON.stringify(next.value) ?? 'null');
      if (collected.items.length >= limits.maxItems || bytes + size > limits.maxBytes) {
        collected.cutBy = collected.items.length >= limits.maxItems ? 'items' : 'bytes';
        collected.leftOut++;
        continue;
      }
      bytes += size;
      collected.items.push(next.value);
      passOn(next.value, count);
    }
    finished = !collected.leftOutAtLeast;
    return collected;
  } finally {
    // A stream left early (bound, cancel, failure) is stopped: its generator's `finally` runs, its body is cancelled.
    if (!finished) void iterator.return(undefined).catch(() => {});
  }
}

/** The line a cut result adds for the model: how many items it holds, and how many were left out and why. */
export function cutNote(collected: CollectedStream, limits: StreamLimits): string | undefined {
  if (!collected.cutBy) return undefined;
  const bound = collected.cutBy === 'items' ? `${limits.maxItems} items (MCP_STREAM_MAX_ITEMS)` : `${limits.maxBytes} bytes of items (MCP_STREAM_MAX_BYTES)`;
  const leftOut = `${collected.leftOutAtLeast ? 'at least ' : ''}${collected.leftOut} more item${collected.leftOut === 1 ? '' : 's'}`;
  return `The stream was cut at ${bound}: ${collected.items.length} items shown, ${leftOut} left out${collected.leftOutAtLeast ? ' (the stream was stopped)' : ''}.`;
}
