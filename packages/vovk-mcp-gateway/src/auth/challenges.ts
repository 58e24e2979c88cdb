// The bearer challenges both doors answer with: 401 (no or bad token) and 403 insufficient_scope, per RFC 6750 / 9728.
import 'server-only';
import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { config } from '../config.js';
import { publicOrigin } from '../http/public-origin.js';
import { READ_SCOPE } from '../shared/scope-names.js';

/**
 * The gateway's resource (the MCP endpoint's canonical URL) as the request with `headers` (the one being served by
 * default) sees it: OAUTH_AUDIENCE's first when set, else `/api/mcp` on the request's public origin.
 */
export function resourceUrl(headers?: Headers): string {
  const { resource, resourceConfigured } = config();
  return resourceConfigured ? resource : new URL('/api/mcp', publicOrigin(headers)).href;
}

/** The audiences an access token of the request being served may carry: OAUTH_AUDIENCE, else the request's resource. */
export function acceptedAudiences(): string[] {
  const { oauth, resourceConfigured } = config();
  return resourceConfigured && oauth ? oauth.audiences : [resourceUrl()];
}

/** Where the Protected Resource Metadata (RFC 9728) of the gateway's resource is: every challenge names it. */
export function resourceMetadataUrl(headers?: Headers): string {
  const resource = new URL(resourceUrl(headers));
  return `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname.replace(/\/$/, '')}`;
}

/** 401 with `WWW-Authenticate: Bearer …, scope="gateway:read", resource_metadata="…"`: what a first call needs. */
export function unauthorizedResponse(error: unknown): Response {
  const reason = OAuthError.isInstance(error) ? error : new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
  return bearerAuthChallengeResponse(reason, { requiredScopes: [READ_SCOPE], resourceMetadataUrl: resourceMetadataUrl() });
}

/** 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<needed>", resource_metadata="…"`. */
export function insufficientScopeResponse(needed: readonly string[]): Response {
  const error = new OAuthError(OAuthErrorCode.InsufficientScope, `This call needs the scopes: ${needed.join(' ')}`);
  return bearerAuthChallengeResponse(error, { requiredScopes: [...needed], resourceMetadataUrl: resourceMetadataUrl() });
}
