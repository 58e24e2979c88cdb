// `npm run auth:dev`: starts the development authorization server on loopback, prints how to point the gateway at it.
import { startDevAuthServer } from './server.mjs';

/** A whole number of seconds or of a port from the environment, or `fallback` when unset. */
function wholeNumber(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name}: expected a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

const gatewayPort = wholeNumber('PORT', 3000);
const gatewayOrigin = (process.env.GATEWAY_PUBLIC_ORIGIN || `http://localhost:${gatewayPort}`).replace(/\/+$/, '');
// The audiences the gateway accepts: its OAUTH_AUDIENCE, or by default the canonical URL of its MCP endpoint.
const resources = (process.env.OAUTH_AUDIENCE || `${gatewayOrigin}/api/mcp`)
  .split(',')
  .map((resource) => resource.trim())
  .filter(Boolean);
const gatewayOrigins = [
  ...new Set([gatewayOrigin, `http://localhost:${gatewayPort}`, `http://127.0.0.1:${gatewayPort}`]),
];

const server = await startDevAuthServer({
  port: wholeNumber('AUTH_DEV_PORT', 3100),
  resources,
  gatewayOrigins,
  accessTokenTtlSeconds: wholeNumber('AUTH_DEV_ACCESS_TOKEN_TTL', 3600),
});
const { issuer, clients, user } = server;
// The gateway must see the same PORT / origin / audience settings this server was started with.
const gatewayEnv = [`OAUTH_ISSUER=${issuer}`]
  .concat(
    ['PORT', 'GATEWAY_PUBLIC_ORIGIN', 'OAUTH_AUDIENCE']
      .filter((name) => process.env[name])
      .map((name) => `${name}=${process.env[name]}`),
  )
  .join(' ');

console.log(`
Development authorization server (oidc-provider) at ${issuer}
Loopback only; keys, clients and sessions live in memory until you stop it (Ctrl+C). Not for production.

Point the gateway at it (in another terminal):
  ${gatewayEnv} npm start
Its tokens are JWTs (typ at+jwt, RS256, keys at ${issuer}/jwks) with aud = ${resources.join(' or ')}
(the gateway's default OAUTH_AUDIENCE for ${gatewayOrigin}); scopes: ${server.scopes.join(' ')}.

Test user (sign-in page):   ${user.login} / ${user.password}
Browser client (public, authorization code + PKCE S256, no secret):
  client_id ${clients.explorer.clientId}, redirect URIs ${clients.explorer.redirectUris.join(', ')}
  or register your own: open dynamic client registration at ${issuer}/reg
Script client (client credentials, HTTP Basic):
  client_id ${clients.script.clientId}, client_secret ${clients.script.clientSecret}
  curl -s -u ${clients.script.clientId}:${clients.script.clientSecret} -d grant_type=client_credentials \\
    -d resource=${resources[0]} -d 'scope=${clients.script.scope}' ${issuer}/token
Metadata: ${issuer}/.well-known/oauth-authorization-server (RFC 8414), ${issuer}/.well-known/openid-configuration
`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => server.stop().then(() => process.exit(0)));
}
