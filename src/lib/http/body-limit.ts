// Keeps MCP request bodies within MCP_MAX_BODY_BYTES: 413 from the declared length, or after reading at most the limit.
import { readRequestBody } from '@modelcontextprotocol/server';

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Response | Promise<Response>;

/**
 * A declared Content-Length over `limit` is refused unread; a body without one (chunked) is read, never past the
 * limit, before `handler` (mcp-handler would buffer it whole) sees it.
 */
export function withBodyLimit<TArgs extends unknown[]>(
  handler: Handler<TArgs>,
  limit: () => number,
  reject: (status: number, message: string) => Response,
): Handler<TArgs> {
  return async (req, ...args) => {
    if (req.method !== 'POST') return handler(req, ...args);
    const bytes = limit();
    const tooLarge = () => reject(413, `Payload Too Large: the request body must not exceed ${bytes} bytes`);
    const declared = req.headers.get('content-length');
    if (declared !== null) return Number(declared) > bytes ? tooLarge() : handler(req, ...args);
    const body = await readRequestBody(req, bytes);
    return body.tooLarge ? tooLarge() : handler(new Request(req, { body: body.text }), ...args);
  };
}
