// Request guards shared by the REST and MCP doors: DNS-rebinding protection, bearer-token auth, sane headers.
import { timingSafeEqual } from 'node:crypto';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { withMcpAuth } from 'mcp-handler';
import { allowedHostnames, allowedOriginHostnames, gatewayToken, trustProxy } from '@/lib/config';

/** Builds a door's own error response (JSON-RPC for MCP, Vovk's error JSON for REST). */
export type ErrorResponder = (status: number, message: string) => Response;

/** A JSON-RPC error response, as MCP clients expect from the MCP door. */
export const jsonRpcError: ErrorResponder = (status, message) =>
  Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });

/** An error response in Vovk's REST shape. */
export const restError: ErrorResponder = (status, message) =>
  Response.json({ statusCode: status, message, isError: true }, { status });

type Handler<TArgs extends unknown[]> = (req: Request, ...args: TArgs) => Response | Promise<Response>;

/** 403 unless the Host (or, behind a trusted proxy, X-Forwarded-Host) and any Origin are allowed. */
function rebindingRejection(req: Request, reject: ErrorResponder): Response | undefined {
  const forwardedHost = trustProxy() ? req.headers.get('x-forwarded-host')?.split(',')[0].trim() : undefined;
  const host = validateHostHeader(forwardedHost || req.headers.get('host'), allowedHostnames());
  if (!host.ok) return reject(403, `${host.message}: this gateway answers only to its allowed host names`);
  const origin = validateOriginHeader(req.headers.get('origin'), allowedOriginHostnames());
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
    const token = gatewayToken();
    if (!token) return handler(req, ...args);
    const verify = (_req: Request, bearer?: string) =>
      tokenMatches(token, bearer) ? { token: bearer!, clientId: 'gateway-token', scopes: [] } : undefined;
    return withMcpAuth((authorized) => handler(authorized, ...args), verify, { required: true })(req);
  };
}

/** Wraps a route handler with every guard; `reject` shapes the error responses the guards themselves send. */
export function guarded<TArgs extends unknown[]>(handler: Handler<TArgs>, reject: ErrorResponder): Handler<TArgs> {
  const authorized = withTokenAuth(handler);
  return (req, ...args) => rebindingRejection(req, reject) ?? headerRejection(req, reject) ?? authorized(req, ...args);
}
