// ToModelOutput.MCP: turns a procedure's result, Response or error into an MCP CallToolResult, as the spec requires.
import 'server-only';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import { HttpException, type VovkRequest, type VovkTool } from 'vovk';
import { z } from 'zod';
import { essenceOf, kindOf } from '../shared/media-type.js';
import { currentToolCall } from '../request-context.js';
import { toPublicError } from './public-error.js';

/** The limits a formatter applies; the gateway passes its configuration, the defaults suit the spec's snippets. */
export interface McpFormatterOptions {
  /** Largest response body a result inlines (base64 or text), in bytes. @default 4194304 (4 MiB) */
  maxMediaBytes?: number;
  /** What a body over the budget becomes: an isError result, or a `resource_link` to `restUrl()`. @default 'error' */
  oversizeMedia?: 'error' | 'resource_link';
  /** The REST URL where the call being formatted can be fetched instead (GET procedures). @default none */
  restUrl?: () => string | undefined;
}

type Limits = Required<Omit<McpFormatterOptions, 'restUrl'>> & Pick<McpFormatterOptions, 'restUrl'>;

/** What `req.vovk.meta({ mcpOutput })` may set: annotations for each content item, and keys that override the output. */
type McpOutputMeta = Partial<CallToolResult> & { annotations?: Record<string, unknown> };

/** MCP content annotations: who the item is for, and a priority from 0 (least) to 1 (most important). */
const AnnotationsSchema = z.looseObject({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});

/** The request part the formatter reads (`null` for standalone tools). */
type FormatterRequest = Pick<VovkRequest, 'vovk'> | null;

/** An isError result: the message, then the error's public details as JSON when it has some. */
function errorResult(text: string, errorId?: string, details?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text }, ...(details ? [{ type: 'text' as const, text: JSON.stringify(details) }] : [])],
    isError: true,
    ...(errorId ? { _meta: { errorId } } : {}),
  };
}

/** JSON value → one text item; an object also becomes structuredContent, an array goes under `items`. */
function jsonResult(value: unknown): CallToolResult {
  const text = JSON.stringify(value === undefined ? null : value);
  // Read back what the text says, so structuredContent never differs from it (toJSON, Dates, dropped undefineds).
  const json: unknown = JSON.parse(text);
  const content: ContentBlock[] = [{ type: 'text', text }];
  if (Array.isArray(json)) return { content, structuredContent: { items: json } };
  if (typeof json === 'object' && json !== null) return { content, structuredContent: json as Record<string, unknown> };
  return { content };
}

/**
 * Reads a response body, but never more than `limit` bytes: a declared Content-Length over it is refused unread,
 * and a stream is cancelled as soon as it passes the limit. Undefined means "too large". With a Content-Length the
 * bytes land in one buffer of that size (no second copy to join chunks: this is the path of large media).
 */
async function readWithin(response: Response, limit: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.body) return Buffer.alloc(0);
  const preallocated = Number.isInteger(declared) && declared >= 0 ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (size + chunk.value.byteLength > (preallocated ? declared : limit)) {
      await reader.cancel();
      return undefined;
    }
    if (preallocated) preallocated.set(chunk.value, size);
    else chunks.push(chunk.value);
    size += chunk.value.byteLength;
  }
  if (preallocated) return preallocated.subarray(0, size);
  // A body that came as one chunk (an in-memory Response) is used as it is; only several chunks are joined.
  return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, size) : Buffer.concat(chunks, size);
}

/** A body over the media budget: an isError result, or a resource_link to the same call over REST if configured. */
function oversizeResult(mimeType: string, { maxMediaBytes: limit, oversizeMedia, restUrl: restUrlOfCall }: Limits): CallToolResult {
  const restUrl = restUrlOfCall?.();
  if (restUrl && oversizeMedia === 'resource_link') {
    return { content: [{ type: 'resource_link', uri: restUrl, name: restUrl, mimeType }] };
  }
  const where = restUrl ? ` Fetch it over REST instead: GET ${restUrl}` : '';
  return errorResult(`Response too large for an MCP result: ${mimeType} body over ${limit} bytes (MCP_MAX_MEDIA_BYTES).${where}`);
}

async function responseResult(response: Response, limits: Limits): Promise<CallToolResult> {
  const mimeType = essenceOf(response.headers.get('content-type'));
  const kind = response.status >= 400 ? 'error' : kindOf(mimeType);
  if (kind === 'unsupported') {
    await response.body?.cancel();
    return errorResult(`Unsupported response content type ${mimeType}`);
  }
  const body = await readWithin(response, limits.maxMediaBytes);
  if (!body) return oversizeResult(mimeType, limits);
  switch (kind) {
    case 'error':
      return errorResult(body.toString('utf8') || `HTTP ${response.status}`);
    case 'image':
    case 'audio':
      return { content: [{ type: kind, data: body.toString('base64'), mimeType }] };
    case 'text':
      return { content: [{ type: 'text', text: body.toString('utf8') }] };
    case 'json':
      try {
        return jsonResult(JSON.parse(body.toString('utf8')));
      } catch {
        return errorResult(`Response body is not valid JSON (${mimeType})`);
      }
  }
}

/** The status and media type of `result`, noted on the tool call being formatted (what a resource read answers by). */
function noteOutcome(result: unknown): void {
  const toolCall = currentToolCall();
  if (!toolCall) return;
  if (result instanceof Response) toolCall.outcome = { status: result.status, mimeType: essenceOf(result.headers.get('content-type')) };
  else if (result instanceof Error) toolCall.outcome = { status: result instanceof HttpException ? result.statusCode : 500, mimeType: 'text/plain' };
  else toolCall.outcome = { status: 200, mimeType: 'application/json' };
}

async function baseResult(result: unknown, limits: Limits): Promise<CallToolResult> {
  noteOutcome(result);
  if (result instanceof Error) {
    const { message, errorId, details } = toPublicError(result);
    return errorResult(message, errorId, details);
  }
  if (result instanceof Response) return responseResult(result, limits);
  return jsonResult(result);
}

/** Applies `mcpOutput` meta: its annotations go on each content item, its other keys override the output. */
function applyMcpOutputMeta(output: CallToolResult, meta: McpOutputMeta | undefined): CallToolResult {
  if (!meta) return output;
  const { annotations, ...overrides } = meta;
  const merged: CallToolResult = { ...output, ...overrides };
  if (!annotations) return merged;
  return {
    ...merged,
    content: merged.content.map((item) => ({ ...item, annotations: { ...annotations, ...item.annotations } })),
  } as CallToolResult;
}

function mcpOutputMetaOf(req: FormatterRequest): McpOutputMeta | undefined {
  const meta = req?.vovk.meta() as { mcpOutput?: McpOutputMeta } | undefined;
  return meta?.mcpOutput;
}

/** A tool-output formatter: what `deriveTools({ toModelOutput })` and `withFormattedOutput` call. */
export type McpFormatter = <TOutput>(
  result: TOutput | Error,
  tool: Pick<VovkTool, 'name'> | null,
  req: FormatterRequest,
) => Promise<CallToolResult>;

/**
 * A formatter that turns a tool's result (a JSON value, a `Response`, or an `Error`) into an MCP tool result, within
 * the given limits. `req` is the procedure's request (for `mcpOutput` meta) or `null` for standalone tools.
 */
export function createMcpFormatter(options: McpFormatterOptions = {}): McpFormatter {
  const limits: Limits = { maxMediaBytes: 4 * 1024 * 1024, oversizeMedia: 'error', ...options };
  return async (result, _tool, req) => {
    const meta = mcpOutputMetaOf(req);
    const annotations = meta?.annotations === undefined ? undefined : AnnotationsSchema.safeParse(meta.annotations);
    if (annotations && !annotations.success) {
      // A procedure bug: report it (masked in production) rather than send a result MCP clients reject.
      if (result instanceof Response) await result.body?.cancel();
      return baseResult(new Error(`Invalid mcpOutput annotations: ${z.prettifyError(annotations.error)}`), limits);
    }
    return applyMcpOutputMeta(await baseResult(result, limits), meta);
  };
}
