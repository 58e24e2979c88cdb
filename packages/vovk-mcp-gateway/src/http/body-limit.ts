// Keeps request bodies within a limit (413 from the declared length, or after reading at most the limit), and on REST
// refuses a JSON body that does not parse (400) before the procedure would fail on it.
import 'server-only';
import { NextRequest } from 'next/server';

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Response | Promise<Response>;

interface BodyRules {
  /** Largest body, in bytes. */
  limit: () => number;
  /** Which variable sets it, for the 413 message. */
  limitName: string;
  /** Whether a body declared as JSON must parse (REST); MCP leaves that to the JSON-RPC parser. */
  checkJson: boolean;
  reject: (status: number, message: string) => Response;
}

const METHODS_WITH_BODY = ['POST', 'PUT', 'PATCH', 'DELETE'];
/** Whether a request declares a JSON body (`application/json`, `application/…+json`). */
export const isJson = (req: Request) => /^application\/([\w.-]+\+)?json\b/i.test(req.headers.get('content-type') ?? '');

/** The body's bytes, read without ever holding more than `limit`; undefined when it is larger (the rest is cancelled). */
async function readBounded(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(chunk.value);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/** Why `text` is not JSON, or undefined when it is (an empty body is left to the procedure's own validation). */
function jsonProblem(text: string): string | undefined {
  if (!text.trim()) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A declared Content-Length over the limit is refused unread. A body without one (chunked) is read, never past the
 * limit, before `handler` sees it (mcp-handler and vovk would buffer it whole). With `checkJson`, a JSON body is read
 * (within the limit) and parsed once, so a malformed one is a 400 naming the problem.
 */
export function withBodyLimit<TArgs extends unknown[]>(handler: Handler<TArgs>, rules: BodyRules): Handler<TArgs> {
  return async (req, ...args) => {
    if (!METHODS_WITH_BODY.includes(req.method)) return handler(req, ...args);
    const bytes = rules.limit();
    const tooLarge = () => rules.reject(413, `Payload Too Large: the request body must not exceed ${bytes} bytes (${rules.limitName})`);
    const declared = req.headers.get('content-length');
    if (declared !== null && Number(declared) > bytes) return tooLarge();
    const mustParse = rules.checkJson && isJson(req);
    if (declared !== null && !mustParse) return handler(req, ...args);
    const body = await readBounded(req, bytes);
    if (!body) return tooLarge();
    const problem = mustParse ? jsonProblem(new TextDecoder().decode(body)) : undefined;
    if (problem) return rules.reject(400, `Malformed JSON body: ${problem}`);
    // A NextRequest again: vovk reads the query of a procedure from `nextUrl`, which a plain Request lacks.
    return handler(new NextRequest(req, { body, duplex: 'half' } as ConstructorParameters<typeof NextRequest>[1]), ...args);
  };
}
