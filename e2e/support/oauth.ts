// OAuth for end-to-end tests: the dev authorization server beside a gateway, script tokens, and SDK client providers.
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { type DevAuthServer, startDevAuthServer } from '../../auth-dev/server.mjs';
import { createCookieJar, signInOverHttp } from '../../auth-dev/sign-in.mjs';
import { type RunningServer, startServer } from './server';

export interface OAuthGateway {
  as: DevAuthServer;
  gateway: RunningServer;
  /** The gateway's MCP URL: the resource (audience) of its tokens. */
  resource: string;
  stop(): Promise<void>;
}

interface OAuthGatewayOptions {
  accessTokenTtlSeconds?: number;
  extraResources?: string[];
  /** The authorization server's port. @default 0 (a free port) */
  authPort?: number;
  /** More of the gateway's environment. @default none */
  env?: Record<string, string>;
}

/** A dev authorization server and a gateway (test build) that accepts its tokens, on `port`. */
export async function startOAuthGateway(
  port: number,
  { accessTokenTtlSeconds, extraResources = [], authPort = 0, env = {} }: OAuthGatewayOptions = {},
): Promise<OAuthGateway> {
  const origin = `http://localhost:${port}`;
  const resource = `${origin}/api/mcp`;
  const as = await startDevAuthServer({
    port: authPort,
    resources: [resource, ...extraResources],
    gatewayOrigins: [origin],
    accessTokenTtlSeconds,
  });
  const gateway = await startServer(port, { ...env, OAUTH_ISSUER: as.issuer }, `test-results/oauth-server-${port}.log`);
  // Warmed up before any test mints a token: the MCP route loaded (a request without a token) and the issuer's keys
  // fetched (a REST request with one), so that a short-lived token is not spent waiting for a cold start.
  await fetch(resource, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await fetch(`${origin}/api/users/1`, { headers: { authorization: `Bearer ${await scriptToken(as, resource, 'gateway:read')}` } });
  return { as, gateway, resource, stop: async () => void (await Promise.all([gateway.stop(), as.stop()])) };
}

/** An access token of the client-credentials client `gateway-script` for `resource`, with `scope`. */
export async function scriptToken(as: DevAuthServer, resource: string, scope: string): Promise<string> {
  const { clientId, clientSecret } = as.clients.script;
  const response = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
  });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

type Tokens = Awaited<ReturnType<OAuthClientProvider['tokens']>>;
type DiscoveryState = Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0];
type ClientInformation = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;

/**
 * An interactive OAuth client as an MCP SDK client drives it (both SDK versions take this shape): it registers itself
 * dynamically, keeps its tokens in memory, and — where a browser would be sent to the authorization server —
 * signs in over HTTP as the dev server's user, handing the callback to `finishAuth` of the transport.
 */
export class SignedInUser implements OAuthClientProvider {
  /** Every authorization URL the SDK sent the "user" to (one per sign-in or step-up). */
  readonly authorizations: URL[] = [];
  private information: ClientInformation;
  private saved: Tokens;
  private verifier = '';
  private discovery: DiscoveryState | undefined;
  private readonly cookies = createCookieJar();

  constructor(
    private readonly as: DevAuthServer,
    readonly redirectUrl: string,
  ) {}

  get clientMetadata() {
    return {
      client_name: 'e2e MCP client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: ClientInformation) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: Tokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: DiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  redirectToAuthorization(url: URL) {
    this.authorizations.push(url);
  }

  /** Completes the last authorization the SDK asked for: signs in (or only consents, when signed in already). */
  async signIn(): Promise<URLSearchParams> {
    const url = this.authorizations.at(-1);
    if (!url) throw new Error('the client never asked to sign in');
    const { login, password } = this.as.user;
    const callback = await signInOverHttp(url, { login, password, cookieJar: this.cookies });
    if (!callback.searchParams.has('code')) throw new Error(`sign-in failed: ${callback}`);
    return callback.searchParams;
  }
}
