// ToModelOutput.MCP: turns a procedure's result, Response or error into an MCP CallToolResult, as the spec requires.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { VovkRequest, VovkTool } from 'vovk';
import { z } from 'zod';
import { essenceOf, kindOf } from './media-type';
import { toPublicError } from './public-error';

/** What `req.vovk.meta({ mcpOutput })` may set: annotations for each content item, and keys that override the output. */
export type McpOutputMeta = Partial<CallToolResult> & { annotations?: Record<string, unknown> };

/** MCP content annotations: who the item is for, and a priority from 0 (least) to 1 (most important). */
const AnnotationsSchema = z.looseObject({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});

/** The request part the formatter reads (`null` for standalone tools). */
export type FormatterRequest = Pick<VovkRequest, 'vovk'> | null;

function errorResult(text: string, errorId?: string): CallToolResult {
  return {
    content: [{ type: 'text', text }],
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

function toBase64(body: ArrayBuffer): string {
  return Buffer.from(body).toString('base64');
}

async function responseResult(response: Response): Promise<CallToolResult> {
  if (response.status >= 400) {
    const body = await response.text();
    return errorResult(body || `HTTP ${response.status}`);
  }
  const mimeType = essenceOf(response.headers.get('content-type'));
  const kind = kindOf(mimeType);
  switch (kind) {
    case 'json': {
      const body = await response.text();
      try {
        return jsonResult(JSON.parse(body));
      } catch {
        return errorResult(`Response body is not valid JSON (${mimeType})`);
      }
    }
    case 'text':
      return { content: [{ type: 'text', text: await response.text() }] };
    case 'image':
    case 'audio':
      return { content: [{ type: kind, data: toBase64(await response.arrayBuffer()), mimeType }] };
    default:
      await response.body?.cancel();
      return errorResult(`Unsupported response content type ${mimeType}`);
  }
}

async function baseResult(result: unknown): Promise<CallToolResult> {
  if (result instanceof Error) {
    const { message, errorId } = toPublicError(result);
    return errorResult(message, errorId);
  }
  if (result instanceof Response) return responseResult(result);
  return jsonResult(result);
}

/** Applies `mcpOutput` meta: its annotations go on each content item, its other keys override the output. */
export function applyMcpOutputMeta(output: CallToolResult, meta: McpOutputMeta | undefined): CallToolResult {
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

/**
 * Formats a tool's result (a JSON value, a `Response`, or an `Error`) as an MCP tool result.
 * `req` is the procedure's request (for `mcpOutput` meta) or `null` for standalone tools.
 */
export async function toModelOutputMCP<TOutput>(
  result: TOutput | Error,
  _tool: Pick<VovkTool, 'name'> | null,
  req: FormatterRequest,
): Promise<CallToolResult> {
  const meta = mcpOutputMetaOf(req);
  const annotations = meta?.annotations === undefined ? undefined : AnnotationsSchema.safeParse(meta.annotations);
  if (annotations && !annotations.success) {
    // A procedure bug: report it (masked in production) rather than send a result MCP clients reject.
    return baseResult(new Error(`Invalid mcpOutput annotations: ${z.prettifyError(annotations.error)}`));
  }
  return applyMcpOutputMeta(await baseResult(result), meta);
}
