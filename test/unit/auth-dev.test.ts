// The development authorization server (auth-dev/, `npm run auth:dev`) through real HTTP: discovery, both grants, PKCE,
// resource indicators, JWT access tokens checked with jose against the published keys, refresh, CORS, refusals.
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DevAuthServer, GATEWAY_SCOPES, startDevAuthServer } from '../../auth-dev/server.mjs';
import { createCookieJar, signInOverHttp } from '../../auth-dev/sign-in.mjs';

/** A gateway that is never started: only its origin and its audiences matter to the authorization server. */
const gatewayOrigin = 'http://localhost:3217';
const mcpResource = `${gatewayOrigin}/api/mcp`;
const otherResource = `${gatewayOrigin}/api`;
const foreignOrigin = 'http://localhost:3649';

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  scope?: string;
  expires_in: number;
  token_type: string;
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Everything one authorization-code client needs to talk to one server. */
function codeClient(server: DevAuthServer, clientId: string, redirectUri: string) {
  const pkce = pkcePair();
  return {
    authorizationUrl(params: Record<string, string> = {}): URL {
      const url = new URL(`${server.issuer}/auth`);
      const defaults = {
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'gateway:read',
        state: randomBytes(8).toString('hex'),
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        resource: mcpResource,
      };
      for (const [name, value] of Object.entries({ ...defaults, ...params })) url.searchParams.set(name, value);
      return url;
    },
    exchange(callback: URL, extra: Record<string, string> = {}) {
      return postToken(server, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: pkce.verifier,
        ...extra,
      });
    },
  };
}

async function postToken(
  server: DevAuthServer,
  params: Record<string, string>,
  { basic, origin }: { basic?: [string, string]; origin?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(basic.join(':')).toString('base64')}`;
  if (origin) headers.origin = origin;
  const response = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(params),
  });
  return { response, body: (await response.json()) as TokenResponse & { error?: string } };
}

function clientCredentials(server: DevAuthServer, params: Record<string, string>) {
  const { clientId, clientSecret } = server.clients.script;
  return postToken(server, { grant_type: 'client_credentials', ...params }, { basic: [clientId, clientSecret] });
}

/** Verifies an access token as a resource server would: signature against the published JWKS, iss, aud, exp. */
async function verifyAccessToken(server: DevAuthServer, token: string, audience = mcpResource) {
  const metadata = await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json();
  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
  const { payload, protectedHeader } = await jwtVerify(token, keys, {
    issuer: server.issuer,
    audience,
    typ: 'at+jwt',
    algorithms: ['RS256'],
  });
  return { payload, protectedHeader };
}

async function registerPublicClient(server: DevAuthServer, redirectUri: string, origin = gatewayOrigin) {
  const response = await fetch(`${server.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    // What an MCP SDK sends: a public client, its redirect URI, and the scopes it found in the resource's metadata.
    body: JSON.stringify({
      client_name: 'Test MCP client',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: `${GATEWAY_SCOPES.join(' ')} offline_access`,
    }),
  });
  return { response, client: (await response.json()) as { client_id: string; client_secret?: string } };
}

describe('auth:dev authorization server', () => {
  let server: DevAuthServer;
  beforeAll(async () => {
    server = await startDevAuthServer({ resources: [mcpResource, otherResource], gatewayOrigins: [gatewayOrigin] });
  });
  afterAll(() => server?.stop());

  test('serves RFC 8414 metadata and OIDC discovery with the same issuer, jwks_uri, S256 only, registration', async () => {
    const [oauth, openid] = await Promise.all(
      ['oauth-authorization-server', 'openid-configuration'].map(async (name) => {
        const response = await fetch(`${server.issuer}/.well-known/${name}`, { headers: { origin: gatewayOrigin } });
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBeTruthy();
        return response.json();
      }),
    );
    expect(oauth).toEqual(openid);
    expect(oauth).toMatchObject({
      issuer: server.issuer,
      jwks_uri: `${server.issuer}/jwks`,
      token_endpoint: `${server.issuer}/token`,
      authorization_endpoint: `${server.issuer}/auth`,
      registration_endpoint: `${server.issuer}/reg`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(oauth.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );
    expect(oauth.grant_types_supported).not.toContain('implicit');
    expect(oauth.scopes_supported).toEqual(expect.arrayContaining([...GATEWAY_SCOPES]));
    expect(oauth.token_endpoint_auth_methods_supported).toContain('none');
    expect(server.issuer).toMatch(/^http:\/\/localhost:\d+$/);
  });

  test('client credentials with a resource: a JWT (typ at+jwt, RS256) with iss, aud, sub, scope, client_id, exp, iat', async () => {
    const { response, body } = await clientCredentials(server, {
      resource: mcpResource,
      scope: 'gateway:read gateway:write',
    });
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'gateway:read gateway:write' });
    expect(body.refresh_token).toBeUndefined();
    const { payload, protectedHeader } = await verifyAccessToken(server, body.access_token);
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(payload).toMatchObject({
      iss: server.issuer,
      aud: mcpResource,
      sub: 'gateway-script',
      client_id: 'gateway-script',
      scope: 'gateway:read gateway:write',
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  test('client credentials: the resource asked for selects the audience; none asked for means the first one', async () => {
    const other = await clientCredentials(server, { resource: otherResource, scope: 'gateway:admin' });
    expect((await verifyAccessToken(server, other.body.access_token, otherResource)).payload.aud).toBe(otherResource);
    await expect(verifyAccessToken(server, other.body.access_token, mcpResource)).rejects.toThrow(
      joseErrors.JWTClaimValidationFailed,
    );
    const defaulted = await clientCredentials(server, { scope: 'gateway:read' });
    expect((await verifyAccessToken(server, defaulted.body.access_token)).payload).toMatchObject({
      aud: mcpResource,
      scope: 'gateway:read',
    });
  });

  test('a token for an unknown resource is refused (invalid_target), on the token and authorization endpoints', async () => {
    const refused = await clientCredentials(server, {
      resource: 'http://localhost:3649/api/mcp',
      scope: 'gateway:read',
    });
    expect(refused.response.status).toBe(400);
    expect(refused.body.error).toBe('invalid_target');

    const client = codeClient(server, server.clients.explorer.clientId, server.clients.explorer.redirectUris[0]);
    const callback = await signInOverHttp(
      client.authorizationUrl({ resource: 'http://localhost:3649/api/mcp' }),
      server.user,
    );
    expect(callback.searchParams.get('error')).toBe('invalid_target');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  test('client credentials: a wrong secret is refused, an unknown scope left out, a scope not allowed refused', async () => {
    const wrongSecret = await postToken(
      server,
      { grant_type: 'client_credentials', resource: mcpResource, scope: 'gateway:read' },
      { basic: [server.clients.script.clientId, 'not-the-secret'] },
    );
    expect(wrongSecret.response.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');
    // RFC 6749 §3.3: the server may grant less than asked for; a scope it does not know is left out of the token.
    const unknownScope = await clientCredentials(server, {
      resource: mcpResource,
      scope: 'gateway:read gateway:everything',
    });
    expect(unknownScope.body.scope).toBe('gateway:read');
    expect((await verifyAccessToken(server, unknownScope.body.access_token)).payload.scope).toBe('gateway:read');
    const notAllowed = await clientCredentials(server, { resource: mcpResource, scope: 'openid gateway:read' });
    expect(notAllowed.response.status).toBe(400);
    expect(notAllowed.body.error).toBe('invalid_scope');
  });

  test('authorization code + PKCE for the pre-registered public client gateway-explorer, through login and consent', async () => {
    const [redirectUri] = server.clients.explorer.redirectUris;
    expect(redirectUri).toBe(`${gatewayOrigin}/oauth/callback`);
    const client = codeClient(server, server.clients.explorer.clientId, redirectUri);
    const authorizationUrl = client.authorizationUrl({ state: 'explorer-state' });
    const callback = await signInOverHttp(authorizationUrl, server.user);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe('explorer-state');
    expect(callback.searchParams.get('iss')).toBe(server.issuer);

    const { response, body } = await client.exchange(callback);
    expect(response.status).toBe(200);
    expect(body.refresh_token).toEqual(expect.any(String));
    const { payload } = await verifyAccessToken(server, body.access_token);
    expect(payload).toMatchObject({
      sub: 'ada',
      client_id: 'gateway-explorer',
      scope: 'gateway:read',
      aud: mcpResource,
    });
  });

  test('the code is refused without the PKCE verifier, and an authorization request without a challenge is refused', async () => {
    const client = codeClient(server, server.clients.explorer.clientId, server.clients.explorer.redirectUris[0]);
    const callback = await signInOverHttp(client.authorizationUrl(), server.user);
    const wrongVerifier = await client.exchange(callback, { code_verifier: pkcePair().verifier });
    expect(wrongVerifier.response.status).toBe(400);
    expect(wrongVerifier.body.error).toBe('invalid_grant');

    const noChallenge = client.authorizationUrl();
    noChallenge.searchParams.delete('code_challenge');
    noChallenge.searchParams.delete('code_challenge_method');
    const refused = await signInOverHttp(noChallenge, server.user);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  test('dynamic registration (as MCP clients do) from the gateway origin, then its own code flow with CORS', async () => {
    const redirectUri = 'http://127.0.0.1:3648/callback';
    const { response, client } = await registerPublicClient(server, redirectUri);
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe(gatewayOrigin);
    expect(client.client_secret).toBeUndefined();

    const preflight = await fetch(`${server.issuer}/reg`, {
      method: 'OPTIONS',
      headers: { origin: gatewayOrigin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(gatewayOrigin);

    const flow = codeClient(server, client.client_id, redirectUri);
    const callback = await signInOverHttp(flow.authorizationUrl({ scope: 'gateway:read gateway:write' }), server.user);
    const { response: tokenResponse, body } = await flow.exchange(callback, { resource: mcpResource });
    // The registered client's redirect origin may call the token endpoint from a browser.
    expect(tokenResponse.status).toBe(200);
    const { payload } = await verifyAccessToken(server, body.access_token);
    expect(payload).toMatchObject({ sub: 'ada', client_id: client.client_id, scope: 'gateway:read gateway:write' });
  });

  test('CORS on the token endpoint: the gateway origin is allowed, another origin is refused', async () => {
    const params = { grant_type: 'client_credentials', scope: 'gateway:read' };
    const basic: [string, string] = [server.clients.script.clientId, server.clients.script.clientSecret];
    const allowed = await postToken(server, params, { basic, origin: gatewayOrigin });
    expect(allowed.response.status).toBe(200);
    expect(allowed.response.headers.get('access-control-allow-origin')).toBe(gatewayOrigin);
    const refused = await postToken(server, params, { basic, origin: foreignOrigin });
    expect(refused.response.status).toBe(400);
    expect(refused.response.headers.get('access-control-allow-origin')).toBeNull();
    const registration = await registerPublicClient(server, 'http://127.0.0.1:3648/callback', foreignOrigin);
    expect(registration.response.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('step-up: the signed-in user is asked only to consent to the wider scope, and the new token carries it', async () => {
    const cookieJar = createCookieJar();
    const client = codeClient(server, server.clients.explorer.clientId, server.clients.explorer.redirectUris[0]);
    const readOnly = await client.exchange(
      await signInOverHttp(client.authorizationUrl(), { ...server.user, cookieJar }),
    );
    expect(readOnly.body.scope).toBe('gateway:read');
    // The same browser session, no password this time: only the consent page can be answered.
    const wider = client.authorizationUrl({ scope: 'gateway:read gateway:write' });
    const callback = await signInOverHttp(wider, { login: '', password: '', cookieJar });
    const { body } = await client.exchange(callback);
    expect((await verifyAccessToken(server, body.access_token)).payload.scope).toBe('gateway:read gateway:write');
  });

  test('a wrong password stays on the sign-in page; denying consent returns access_denied', async () => {
    const client = codeClient(server, server.clients.explorer.clientId, server.clients.explorer.redirectUris[0]);
    await expect(signInOverHttp(client.authorizationUrl(), { login: 'ada', password: 'wrong' })).rejects.toThrow(
      /HTTP 401[\s\S]*Wrong username or password/,
    );
    const denied = await signInOverHttp(client.authorizationUrl(), { ...server.user, allow: false });
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });

  test('the sign-in page is a plain form with the documented test user, and loads nothing from elsewhere', async () => {
    const client = codeClient(server, server.clients.explorer.clientId, server.clients.explorer.redirectUris[0]);
    const start = await fetch(client.authorizationUrl(), { redirect: 'manual' });
    const interaction = new URL(start.headers.get('location') ?? '', server.issuer);
    const cookie = start.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    const page = await (await fetch(interaction, { headers: { cookie } })).text();
    expect(page).toContain('name="login"');
    expect(page).toContain('name="password"');
    expect(page).toContain(`${server.user.login} / ${server.user.password}`);
    expect(page).not.toMatch(/https?:\/\//);
  });
});

describe('auth:dev refresh tokens', () => {
  let server: DevAuthServer;
  beforeAll(async () => {
    // exp and iat are whole seconds: a 2 s lifetime leaves at least 1 s to check the token before it expires.
    server = await startDevAuthServer({ resources: [mcpResource], accessTokenTtlSeconds: 2 });
  });
  afterAll(() => server?.stop());

  test('an expired access token is replaced with the refresh token, which rotates (the old one is then refused)', async () => {
    const client = codeClient(server, server.clients.explorer.clientId, server.clients.explorer.redirectUris[0]);
    const first = await client.exchange(await signInOverHttp(client.authorizationUrl(), server.user));
    expect(first.body.expires_in).toBe(2);
    const firstClaims = (await verifyAccessToken(server, first.body.access_token)).payload;
    await new Promise((resolve) => setTimeout(resolve, 3100));
    await expect(verifyAccessToken(server, first.body.access_token)).rejects.toThrow(joseErrors.JWTExpired);

    const refreshParams = { grant_type: 'refresh_token', client_id: server.clients.explorer.clientId };
    const refreshed = await postToken(server, { ...refreshParams, refresh_token: first.body.refresh_token! });
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.body.refresh_token);
    const { payload } = await verifyAccessToken(server, refreshed.body.access_token);
    expect(payload).toMatchObject({
      sub: 'ada',
      aud: mcpResource,
      scope: 'gateway:read',
      client_id: 'gateway-explorer',
    });
    expect(payload.jti).not.toBe(firstClaims.jti);
    expect(decodeProtectedHeader(refreshed.body.access_token).typ).toBe('at+jwt');

    const reused = await postToken(server, { ...refreshParams, refresh_token: first.body.refresh_token! });
    expect(reused.response.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
  });
});
