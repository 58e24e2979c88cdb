// The entry of both doors: request context and log, DNS rebinding, sane headers, bearer auth, rate and body limits.
import 'server-only';
import { type AuthInfo, validateHostHeader, validateOriginHeader, verifyBearerToken } from '@modelcontextprotocol/server';
import { callerOf, createTokenVerifier } from '../auth/access-tokens.js';
import { acceptedAudiences, insufficientScopeResponse, resourceMetadataUrl, unauthorizedResponse } from '../auth/challenges.js';
import { missingScopes, scopeOfMethod } from '../auth/scopes.js';
import { config } from '../config.js';
import { type Door, requestContext, runInRequestContext } from '../request-context.js';
import { withBodyLimit } from './body-limit.js';
import { clientAddress } from './peer-address.js';
import { requestedHost } from './public-origin.js';
import { createRateLimiter } from './rate-limit.js';
import { underCompressionPolicy } from './compression-policy.js';
import { loggedResponse } from './request-log.js';

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
  const host = validateHostHeader(requestedHost(req.headers, trustProxy), allowedHostnames);
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

/** `make`'s value, made on first use and kept — undefined included (a `??=` would make it again on every request). */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The bearer-token verifier of the configured auth mode, made once; undefined when the gateway is open. Tokens must be
 * issued for OAUTH_AUDIENCE, else for the resource the request's own challenges and metadata name.
 */
const tokenVerifier = once(() => {
  const { token, oauth } = config();
  return createTokenVerifier({ token, oauth: oauth && { issuer: oauth.issuer, audiences: acceptedAudiences } }) ?? undefined;
});

/**
 * When OAUTH_ISSUER or GATEWAY_TOKEN is set: a valid bearer token is required (401 with the RFC 9728 challenge
 * otherwise); its caller joins the request context, and mcp-handler passes it on to the MCP SDK (`req.auth`). On the
 * REST door the HTTP method's scope is checked here (403 `insufficient_scope`); MCP checks each tool's scopes itself.
 */
function withAuthentication<TArgs extends unknown[]>(handler: Handler<TArgs>, door: Door): Handler<TArgs> {
  return async (req, ...args) => {
    const check = tokenVerifier();
    if (!check) return handler(req, ...args);
    let authInfo: AuthInfo;
    try {
      authInfo = await verifyBearerToken(req.headers.get('authorization'), { verifier: check, resourceMetadataUrl: resourceMetadataUrl() });
    } catch (error) {
      return unauthorizedResponse(error);
    }
    const context = requestContext();
    if (context) context.caller = callerOf(authInfo);
    const needed = [scopeOfMethod(req.method)];
    if (door === 'rest' && missingScopes(authInfo.scopes, needed).length) return insufficientScopeResponse(needed);
    Object.assign(req, { auth: authInfo });
    return handler(req, ...args);
  };
}

/** The rate limiter of GATEWAY_RATE_LIMIT, made once; undefined when there is no limit. */
const rateLimiter = once(() => {
  const { rateLimit } = config();
  return rateLimit ? createRateLimiter(rateLimit.perSecond, rateLimit.burst) : undefined;
});

/**
 * Takes one request of the allowance of `req`'s caller (its token's subject, else its address) under
 * GATEWAY_RATE_LIMIT: 0 when allowed (or no limit is set), else the seconds until one is. Code mode's inner calls
 * take from the same allowance as the requests.
 */
export function takeRateAllowance(req: Request): number {
  const limit = rateLimiter();
  return limit ? limit.take(callerKeyOf(req)) : 0;
}

/**
 * Who `req` comes from, for what is bounded per caller (rate, sessions): its token's subject, else its client's
 * address (behind a trusted proxy, the one it forwards).
 */
export function callerKeyOf(req: Request): string {
  const subject = requestContext()?.caller?.subject;
  return subject ? `sub:${subject}` : `address:${clientAddress(req, config().trustProxy)}`;
}

/** The message of a request over GATEWAY_RATE_LIMIT. */
export const tooManyRequests = (retryAfter: number) =>
  `Too Many Requests: over ${config().rateLimit?.perSecond} requests a second; retry in ${retryAfter} s`;

/** 429 with `Retry-After` when the caller (its token's subject, else its address) is over GATEWAY_RATE_LIMIT. */
function withRateLimit<TArgs extends unknown[]>(handler: Handler<TArgs>, reject: ErrorResponder): Handler<TArgs> {
  return (req, ...args) => {
    const retryAfter = takeRateAllowance(req);
    if (!retryAfter) return handler(req, ...args);
    const response = reject(429, tooManyRequests(retryAfter));
    response.headers.set('Retry-After', String(retryAfter));
    return response;
  };
}

const rejectionOf: Record<Door, ErrorResponder> = { mcp: jsonRpcError, rest: restError };

/** The body rules of each door: MCP_MAX_BODY_BYTES (JSON-RPC parses the body), REST_MAX_BODY_BYTES (JSON checked here). */
const bodyRulesOf = (door: Door) =>
  door === 'mcp'
    ? { limit: () => config().mcpMaxBodyBytes, limitName: 'MCP_MAX_BODY_BYTES', checkJson: false, reject: jsonRpcError }
    : { limit: () => config().restMaxBodyBytes, limitName: 'REST_MAX_BODY_BYTES', checkJson: true, reject: restError };

/**
 * Wraps a door's route handler with every guard, in its own request context, and logs one line per request. In
 * order: Host/Origin (403), the `x-meta` header (400), the bearer token (401; on REST also the method's scope, 403),
 * the caller's rate (429), the body's size (413) and, on REST, its JSON (400). Auth answers with the OAuth challenge,
 * the others in the door's own error shape.
 */
export function guarded<TArgs extends unknown[]>(handler: Handler<TArgs>, door: Door): Handler<TArgs> {
  const reject = rejectionOf[door];
  const authorized = withAuthentication(withRateLimit(withBodyLimit(handler, bodyRulesOf(door)), reject), door);
  return (req, ...args) =>
    runInRequestContext(
      door,
      async () => {
        const startedAt = performance.now();
        const response = await (rebindingRejection(req, reject) ?? headerRejection(req, reject) ?? authorized(req, ...args));
        return loggedResponse(req, requestContext(), await underCompressionPolicy(response, door), startedAt);
      },
      req,
    );
}
