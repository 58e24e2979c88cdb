// The entry of both doors: the request context, DNS-rebinding protection, bearer-token auth, sane headers, body limits.
import { timingSafeEqual } from 'node:crypto';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { withMcpAuth } from 'mcp-handler';
import { config } from '@/lib/config';
import { type Door, runInRequestContext } from '@/lib/request-context';
import { withBodyLimit } from './body-limit';

/** Builds a door's own error response (JSON-RPC for MCP, Vovk's error JSON for REST). */
type ErrorResponder = (status: number, message: string) => Response;

/** A JSON-RPC error response, as MCP clients expect from the MCP door. */
const jsonRpcError: ErrorResponder = (status, message) =>
  Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });

/** An error response in Vovk's REST shape. */
const restError: ErrorResponder = (status, message) =>
  Response.json({ statusCode: status, message, isError: true }, { status });

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Response | Promise<Response>;

/** 403 unless the Host (or, behind a trusted proxy, X-Forwarded-Host) and any Origin are allowed. */
function rebindingRejection(req: Request, reject: ErrorResponder): Response | undefined {
  const { trustProxy, allowedHostnames, allowedOriginHostnames } = config();
  const forwardedHost = trustProxy ? req.headers.get('x-forwarded-host')?.split(',')[0].trim() : undefined;
  const host = validateHostHeader(forwardedHost || req.headers.get('host'), allowedHostnames);
  if (!host.ok) return reject(403, `${host.message}: this gateway answers only to its allowed host names`);
  const origin = validateOriginHeader(req.headers.get('origin'), allowedOriginHostnames);
  if (!origin.ok) return reject(403, `${origin.message}: cross-origin requests from this origin are not allowed`);
  return undefined;
}

/** 400 for a Vovk `x-meta` header that is not JSON (Vovk would otherwise fail with a 500). */
function headerRejection(req: Request, reject: ErrorResponder): Response | undefined {
  const xMeta = req.headers.get('x-meta');
  if (xMeta === null) return undefined;
  try {
    JSON.parse(xMeta);
    return undefined;
  } catch {
    return reject(400, 'The x-meta header must be JSON');
  }
}

function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** When GATEWAY_TOKEN is set: mcp-handler's bearer auth (401 + WWW-Authenticate with RFC 9728 metadata). */
function withTokenAuth<TArgs extends unknown[]>(handler: Handler<TArgs>): Handler<TArgs> {
  return (req, ...args) => {
    const { token } = config();
    if (!token) return handler(req, ...args);
    const verify = (_req: Request, bearer?: string) =>
      tokenMatches(token, bearer) ? { token: bearer!, clientId: 'gateway-token', scopes: [] } : undefined;
    return withMcpAuth((authorized) => handler(authorized, ...args), verify, { required: true })(req);
  };
}

const rejectionOf: Record<Door, ErrorResponder> = { mcp: jsonRpcError, rest: restError };

/**
 * Wraps a door's route handler with every guard, in its own request context. In order: Host/Origin (403), the
 * `x-meta` header (400), the bearer token (401), and on the MCP door the body limit (413); each answers in the door's
 * own error shape.
 */
export function guarded<TArgs extends unknown[]>(handler: Handler<TArgs>, door: Door): Handler<TArgs> {
  const reject = rejectionOf[door];
  const limited = door === 'mcp' ? withBodyLimit(handler, () => config().mcpMaxBodyBytes, reject) : handler;
  const authorized = withTokenAuth(limited);
  return (req, ...args) =>
    runInRequestContext(door, () => rebindingRejection(req, reject) ?? headerRejection(req, reject) ?? authorized(req, ...args));
}
