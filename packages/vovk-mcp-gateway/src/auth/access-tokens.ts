// Verifies bearer tokens: JWT access tokens of the configured OAuth issuer (jose, keys from its JWKS), or GATEWAY_TOKEN.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { type AuthInfo, OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { Caller } from '../request-context.js';
import { ALL_SCOPES } from '../shared/scope-names.js';

/** Clock difference tolerated on `exp` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Signature algorithms accepted: asymmetric only (never `none`, never a shared secret). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** How long to wait for the authorization server's metadata or keys. */
const FETCH_TIMEOUT_MS = 5000;


/** The caller an `AuthInfo` verified by this module stands for. */
export function callerOf(authInfo: AuthInfo): Caller {
  const subject = (authInfo.extra?.subject as string | undefined) ?? null;
  return { subject, clientId: authInfo.clientId, scopes: authInfo.scopes };
}

const invalid = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);

/** The metadata URLs to try for an issuer: RFC 8414 (path inserted after the host), then OpenID Connect discovery. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** The issuer's `jwks_uri`, discovered from its metadata (whose `issuer` must be exactly the configured one). */
async function discoverJwksUri(issuer: string): Promise<URL> {
  for (const url of metadataUrls(issuer)) {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' }).catch(() => undefined);
    if (!response?.ok) continue;
    const metadata = (await response.json().catch(() => ({}))) as { issuer?: string; jwks_uri?: string };
    if (metadata.issuer !== issuer || !metadata.jwks_uri) continue;
    return new URL(metadata.jwks_uri);
  }
  throw new Error(`No authorization server metadata with issuer ${issuer} and a jwks_uri at ${metadataUrls(issuer).join(' or ')}`);
}

function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  if (Array.isArray(payload.scp)) return payload.scp.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/**
 * JWT access tokens of `issuer` for one of `audiences()`: signature by a key of the issuer's JWKS (cached; fetched again
 * for an unknown `kid`), `iss`, `aud`, `exp` and `nbf` within a small clock skew. Anything else is `invalid_token`.
 */
function jwtVerifier(issuer: string, audiences: () => string[]): OAuthTokenVerifier {
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keySet = async () => {
    keys ??= createRemoteJWKSet(await discoverJwksUri(issuer), { timeoutDuration: FETCH_TIMEOUT_MS });
    return keys;
  };
  return {
    async verifyAccessToken(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await keySet(), {
          issuer,
          audience: audiences(),
          algorithms: ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp'],
        }));
      } catch (error) {
        if (error instanceof errors.JOSEError) throw invalid(`Invalid access token: ${error.message}`);
        console.error('[gateway] access token verification failed:', error);
        throw new OAuthError(OAuthErrorCode.ServerError, 'The authorization server could not be reached');
      }
      return {
        token,
        clientId: String(payload.client_id ?? payload.azp ?? ''),
        scopes: scopesOf(payload),
        expiresAt: payload.exp,
        extra: { subject: payload.sub ?? null },
      };
    },
  };
}

function sameSecret(expected: string, given: string): boolean {
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A far expiry for the static token (the SDK's bearer check wants one). */
const STATIC_TOKEN_EXPIRY = () => Math.floor(Date.now() / 1000) + 3600;

/**
 * The verifier of the configured modes: GATEWAY_TOKEN (every scope, no subject), OAuth JWTs, or both (either
 * accepted). Undefined when neither is configured: the gateway is open.
 */
export function createTokenVerifier(options: {
  token?: string;
  /** The issuer, and the audiences a token may carry (asked for each token: they may depend on the request). */
  oauth?: { issuer: string; audiences: () => string[] };
}): OAuthTokenVerifier | undefined {
  const { token: staticToken, oauth } = options;
  if (!staticToken && !oauth) return undefined;
  const jwt = oauth && jwtVerifier(oauth.issuer, oauth.audiences);
  return {
    async verifyAccessToken(token) {
      if (staticToken && sameSecret(staticToken, token)) {
        return { token, clientId: 'gateway-token', scopes: [...ALL_SCOPES], expiresAt: STATIC_TOKEN_EXPIRY() };
      }
      if (!jwt) throw invalid('Invalid token');
      return jwt.verifyAccessToken(token);
    },
  };
}
