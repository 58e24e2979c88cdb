// The development authorization server: oidc-provider on loopback with JWT access tokens, a test user and dev clients.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { interactionRoutes } from './interactions.mjs';
import { logoutSource, postLogoutSuccessSource, renderError } from './pages.mjs';

/** The scopes the gateway knows: read (GET procedures), write (every other method), admin (deleting users). */
export const GATEWAY_SCOPES = ['gateway:read', 'gateway:write', 'gateway:admin'];

/** The test user: sign in with `login` / `password`; `login` becomes the tokens' `sub`. */
const DEV_USER = { login: 'ada', password: 'ada-dev-password', name: 'Ada Lovelace', email: 'ada@example.com' };

/** The pre-registered public client for browsers (authorization code + PKCE, no secret). */
const EXPLORER_CLIENT_ID = 'gateway-explorer';

/** The pre-registered confidential client for scripts (client credentials, HTTP Basic authentication). */
const SCRIPT_CLIENT = { clientId: 'gateway-script', clientSecret: 'gateway-script-dev-secret' };

/** Where the explorer's browser sign-in returns to, on each gateway origin. */
const EXPLORER_CALLBACK_PATH = '/oauth/callback';

const registrationPath = '/reg';

/** An RS256 signing key made with jose, as the private JWK oidc-provider takes (kid = its thumbprint). */
async function makeSigningKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
}

/** Listens on 127.0.0.1 (and on ::1 at the same port where there is one); resolves to the servers and the port. */
async function listenOnLoopback(handler, port) {
  const listen = (server, host, atPort) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(atPort, host, () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  const ipv4 = await listen(http.createServer(handler), '127.0.0.1', port);
  const boundPort = ipv4.address().port;
  const servers = [ipv4];
  try {
    servers.push(await listen(http.createServer(handler), '::1', boundPort));
  } catch {
    // no IPv6 loopback here: `localhost` resolves to 127.0.0.1 only
  }
  return { servers, port: boundPort };
}

function isLoopbackUrl(url) {
  return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
}

/** Koa middleware for `provider.use`: CORS for dynamic registration from allowed origins (oidc-provider has none). */
function registrationCors(allowedOrigins) {
  return async function allowRegistrationFromOrigins(ctx, next) {
    const origin = ctx.get('Origin');
    if (ctx.path !== registrationPath || !allowedOrigins.has(origin)) return next();
    ctx.vary('Origin');
    ctx.set('Access-Control-Allow-Origin', origin);
    if (ctx.method !== 'OPTIONS') return next();
    ctx.set('Access-Control-Allow-Methods', 'POST');
    ctx.set('Access-Control-Allow-Headers', 'Content-Type, Authorization');
    ctx.set('Access-Control-Max-Age', '3600');
    ctx.status = 204;
  };
}

/**
 * Starts the development authorization server on loopback and resolves once it listens.
 * @param {import('./server.d.mts').DevAuthServerOptions} options
 * @returns {Promise<import('./server.d.mts').DevAuthServer>}
 */
export async function startDevAuthServer({
  port = 0,
  resources,
  gatewayOrigins = [...new Set(resources.map((resource) => new URL(resource).origin))],
  scopes = GATEWAY_SCOPES,
  accessTokenTtlSeconds = 3600,
  refreshTokenTtlSeconds = 24 * 3600,
  scriptClientSecret = SCRIPT_CLIENT.clientSecret,
}) {
  if (!resources?.length) throw new Error('startDevAuthServer: give at least one resource (an accepted audience)');
  const allowedOrigins = new Set(gatewayOrigins);
  const users = new Map([[DEV_USER.login, DEV_USER]]);

  let handleRequest = (_request, response) => response.writeHead(503).end();
  const { servers, port: boundPort } = await listenOnLoopback(
    (request, response) => handleRequest(request, response),
    port,
  );
  const issuer = `http://localhost:${boundPort}`;
  const stop = () =>
    Promise.all(
      servers.map(
        (server) =>
          new Promise((resolve) => {
            server.close(resolve);
            server.closeAllConnections();
          }),
      ),
    ).then(() => undefined);

  const explorerClient = {
    client_id: EXPLORER_CLIENT_ID,
    client_name: 'Gateway explorer',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: gatewayOrigins.map((origin) => `${origin}${EXPLORER_CALLBACK_PATH}`),
    post_logout_redirect_uris: gatewayOrigins.map((origin) => `${origin}/`),
  };
  const scriptClient = {
    client_id: SCRIPT_CLIENT.clientId,
    client_name: 'Gateway scripts',
    client_secret: scriptClientSecret,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    scope: scopes.join(' '),
  };

  try {
    const provider = new Provider(issuer, {
      clients: [explorerClient, scriptClient],
      jwks: { keys: [await makeSigningKey()] },
      // Cookies ignore ports: name them after this server's, so that two dev servers on localhost never mix sessions.
      cookies: {
        keys: [randomBytes(32).toString('base64url')],
        names: {
          session: `auth_dev_${boundPort}_session`,
          interaction: `auth_dev_${boundPort}_interaction`,
          resume: `auth_dev_${boundPort}_resume`,
        },
      },
      // What oidc-provider would fetch for a client (its jwks_uri, sector_identifier_uri): loopback only, as the server.
      fetch: (url, options) =>
        isLoopbackUrl(url)
          ? globalThis.fetch(url, options)
          : Promise.reject(new Error(`auth:dev fetches nothing outside loopback (${url})`)),
      // Resource scopes are listed here too, so that clients may register with them (MCP SDKs send `scope` on DCR).
      scopes: ['openid', 'offline_access', ...scopes],
      // MCP SDKs register with the scope of the first challenge only (e.g. gateway:read), which would forbid every later
      // step-up. A development server lets each registered client ask for every scope it knows; consent still decides.
      extraClientMetadata: {
        properties: ['x_dev_all_scopes'],
        validator(_ctx, key, _value, metadata) {
          if (key === 'x_dev_all_scopes' && metadata.client_id !== SCRIPT_CLIENT.clientId) {
            metadata.scope = ['openid', 'offline_access', ...scopes].join(' ');
          }
        },
      },
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
      async findAccount(_ctx, sub) {
        const user = users.get(sub);
        if (!user) return undefined;
        return {
          accountId: sub,
          claims: async () => ({ sub, name: user.name, preferred_username: sub, email: user.email }),
        };
      },
      // OAuth 2.1: authorization code only (no implicit, no hybrid), PKCE for every client.
      responseTypes: ['code'],
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        registration: { enabled: true },
        revocation: { enabled: true },
        rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
        resourceIndicators: {
          enabled: true,
          // No `resource` asked for: the first configured one. Several granted: the first configured among them.
          defaultResource: async (_ctx, _client, oneOf) =>
            oneOf ? (resources.find((resource) => oneOf.includes(resource)) ?? oneOf[0]) : resources[0],
          // Tokens from a grant are for its resource even when `openid` was asked for too.
          useGrantedResource: async () => true,
          async getResourceServerInfo(_ctx, resource) {
            if (!resources.includes(resource)) {
              throw new errors.InvalidTarget(`unknown resource; this server issues tokens for ${resources.join(', ')}`);
            }
            return {
              audience: resource,
              scope: scopes.join(' '),
              accessTokenTTL: accessTokenTtlSeconds,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
      // Refresh tokens for every client allowed the grant, without `offline_access`; rotated on each use.
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      expiresWithSession: async () => false,
      rotateRefreshToken: true,
      clientBasedCORS: (_ctx, origin, client) =>
        allowedOrigins.has(origin) || client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
      ttl: {
        AccessToken: accessTokenTtlSeconds,
        ClientCredentials: accessTokenTtlSeconds,
        AuthorizationCode: 60,
        IdToken: 3600,
        RefreshToken: refreshTokenTtlSeconds,
        Interaction: 600,
        Session: refreshTokenTtlSeconds,
        Grant: refreshTokenTtlSeconds,
      },
      renderError,
    });
    provider.use(registrationCors(allowedOrigins));
    provider.use(
      interactionRoutes(provider, {
        users,
        loginHint: `Development user: ${DEV_USER.login} / ${DEV_USER.password}`,
      }),
    );
    handleRequest = provider.callback();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    issuer,
    resources: [...resources],
    scopes: [...scopes],
    clients: {
      explorer: { clientId: EXPLORER_CLIENT_ID, redirectUris: explorerClient.redirect_uris },
      script: { clientId: SCRIPT_CLIENT.clientId, clientSecret: scriptClientSecret, scope: scriptClient.scope },
    },
    user: { login: DEV_USER.login, password: DEV_USER.password, sub: DEV_USER.login, name: DEV_USER.name },
    stop,
  };
}
