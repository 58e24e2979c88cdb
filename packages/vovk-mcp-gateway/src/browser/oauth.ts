// The pages' OAuth sign-in (authorization code + PKCE through the MCP SDK's `auth()`, discovered from the gateway's 401
// challenge), the tokens kept for this browser tab, their refresh, and the bearer token every request of a page sends.
import 'client-only';
import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  OAuthError,
  OAuthErrorCode,
  refreshAuthorization,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { saveToken, savedToken } from './token.js';
import { ALL_SCOPES } from '../shared/scope-names.js';

const STORAGE_KEY = 'vovk-gateway-oauth';

/** Where the authorization server sends the browser back to, on the page's own origin. */
const CALLBACK_PATH = '/oauth/callback';

/** The public client the development authorization server (`npm run auth:dev`) has registered for these pages. */
const PAGES_CLIENT_ID = 'gateway-explorer';

/** What the pages do: read, write, and delete users (the gateway's scopes), when the metadata offers them. */
const PAGE_SCOPES: readonly string[] = ALL_SCOPES;

type SessionTokens = StoredOAuthTokens & {
  /** When the access token expires (ms since the epoch), from `expires_in`. */
  expiresAt?: number;
};

/** Everything this tab keeps about its OAuth session, in sessionStorage. */
interface Session {
  tokens?: SessionTokens;
  client?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  /** The resource indicator (RFC 8707) the tokens are for: the protected resource metadata's `resource`. */
  resource?: string;
  /** The sign-in under way, from the redirect to the authorization server until its answer. */
  pending?: { serverUrl: string; returnTo: string; state?: string; codeVerifier?: string };
}

const listeners = new Set<() => void>();

function readSession(): Session {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Session;
  } catch {
    return {}; // storage unavailable (server render, privacy mode) or not ours
  }
}

function updateSession(change: (session: Session) => Session): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(change(readSession())));
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever the session changes in this tab (sign-in, refresh, sign-out); returns the unsubscribe. */
export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const withExpiry = (tokens: StoredOAuthTokens): SessionTokens =>
  tokens.expires_in === undefined ? tokens : { ...tokens, expiresAt: Date.now() + tokens.expires_in * 1000 };

/**
 * Whether the authorization server knows `clientId`: a refresh with a made-up token is refused as `invalid_grant` for a
 * client it knows, `invalid_client` for one it does not (RFC 6749 §5.2).
 */
async function knowsClient(
  { authorizationServerUrl, authorizationServerMetadata }: OAuthDiscoveryState,
  clientId: string,
) {
  try {
    await refreshAuthorization(authorizationServerUrl, {
      metadata: authorizationServerMetadata,
      clientInformation: { client_id: clientId },
      refreshToken: crypto.randomUUID(),
    });
    return true;
  } catch (error) {
    return (
      OAuthError.isInstance(error) &&
      ![OAuthErrorCode.InvalidClient, OAuthErrorCode.UnauthorizedClient].includes(error.code as OAuthErrorCode)
    );
  }
}

/** The SDK's view of this tab's OAuth client: a public client (no secret) that comes back to CALLBACK_PATH. */
class PagesOAuthProvider implements OAuthClientProvider {
  get redirectUrl(): string {
    return new URL(CALLBACK_PATH, location.origin).href;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Gateway explorer and board',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
      // With refresh_token here the SDK adds `offline_access` when the server offers it, as many require for refresh.
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }

  state(): string {
    const state = crypto.randomUUID();
    updateSession((session) => ({ ...session, pending: session.pending && { ...session.pending, state } }));
    return state;
  }

  /** The client this tab registered or chose with this server; else the pre-registered one if the server knows it. */
  async clientInformation(context?: { issuer: string }) {
    const { client, discovery } = readSession();
    if (client && (!context || !client.issuer || client.issuer === context.issuer)) return client;
    // auth() saves the discovery state before it asks; without a known client it registers one (RFC 7591).
    if (discovery && (await knowsClient(discovery, PAGES_CLIENT_ID))) return { client_id: PAGES_CLIENT_ID };
    return undefined;
  }

  saveClientInformation(client: StoredOAuthClientInformation) {
    updateSession((session) => ({ ...session, client }));
  }

  tokens() {
    return readSession().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    updateSession((session) => ({ ...session, tokens: withExpiry(tokens) }));
  }

  redirectToAuthorization(authorizationUrl: URL) {
    location.assign(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string) {
    updateSession((session) => ({ ...session, pending: session.pending && { ...session.pending, codeVerifier } }));
  }

  codeVerifier(): string {
    const codeVerifier = readSession().pending?.codeVerifier;
    if (!codeVerifier) throw new Error('No sign-in was started in this tab');
    return codeVerifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState) {
    updateSession((session) => ({ ...session, discovery }));
  }

  discoveryState() {
    return readSession().discovery;
  }

  saveResourceUrl(resource: string) {
    updateSession((session) => ({ ...session, resource }));
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    updateSession((session) => {
      if (scope === 'all') return {};
      if (scope !== 'verifier') return { ...session, [scope]: undefined };
      return { ...session, pending: session.pending && { ...session.pending, codeVerifier: undefined } };
    });
  }
}

const provider = new PagesOAuthProvider();

let refreshing: Promise<boolean> | null = null;

/** Replaces the tokens with the refresh token; forgets them when that fails. */
async function refreshTokens(): Promise<boolean> {
  const { tokens, client, discovery, resource } = readSession();
  try {
    if (!tokens?.refresh_token || !client || !discovery) throw new Error('nothing to refresh with');
    const fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
      metadata: discovery.authorizationServerMetadata,
      clientInformation: client,
      refreshToken: tokens.refresh_token,
      resource: resource ? new URL(resource) : undefined,
    });
    updateSession((session) => ({ ...session, tokens: withExpiry({ ...fresh, issuer: tokens.issuer }) }));
    return true;
  } catch (error) {
    // A client the server no longer knows (a restarted development server) is registered again at the next sign-in.
    const clientGone = OAuthError.isInstance(error) && error.code === OAuthErrorCode.InvalidClient;
    updateSession((session) => ({ ...session, tokens: undefined, client: clientGone ? undefined : session.client }));
    return false;
  }
}

/** One refresh at a time: refresh tokens rotate, so a second refresh with the same one would be refused. */
function refreshSession(): Promise<boolean> {
  refreshing ??= refreshTokens().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** The token a page's request carries: the session's access token (refreshed once expired), else a pasted token. */
export async function bearerToken(): Promise<string | undefined> {
  const { tokens } = readSession();
  if (tokens?.expiresAt !== undefined && Date.now() >= tokens.expiresAt) await refreshSession();
  return readSession().tokens?.access_token ?? savedToken();
}

/**
 * After a 401 to a request that carried `sentToken`: whether sending it again may work — the session's tokens were
 * replaced since, or the refresh token got new ones now. When not, the session is forgotten: the page offers sign-in.
 */
export async function recoverFromUnauthorized(sentToken: string | undefined): Promise<boolean> {
  const { tokens } = readSession();
  if (!tokens) return false;
  return tokens.access_token !== sentToken || refreshSession();
}

/** The `resource_metadata` URL of the gateway's last 401 challenge (RFC 9728), where sign-in is discovered from. */
let challengedAt: URL | undefined;

/** Notes the challenge of a 401 response, for `signInOffer`. */
export function rememberChallenge(response: Response): void {
  challengedAt = extractWWWAuthenticateParams(response).resourceMetadataUrl ?? challengedAt;
}

export interface SignInOffer {
  resourceMetadataUrl: string;
  /** The protected resource (the gateway's MCP endpoint): the tokens' audience. */
  resource: string;
  authorizationServer: string;
  /** The page scopes the resource offers (undefined: let the SDK choose from its metadata). */
  scope?: string;
}

/** Sign-in as the gateway's last 401 offers it: its protected resource metadata names an authorization server. */
export async function signInOffer(): Promise<SignInOffer | undefined> {
  if (!challengedAt) return undefined;
  const metadata = await discoverOAuthProtectedResourceMetadata(challengedAt.origin, {
    resourceMetadataUrl: challengedAt,
  });
  const [authorizationServer] = metadata.authorization_servers ?? [];
  if (!authorizationServer) return undefined;
  const offered = metadata.scopes_supported ?? [];
  const scope = PAGE_SCOPES.filter((name) => offered.includes(name)).join(' ') || undefined;
  return { resourceMetadataUrl: challengedAt.href, resource: metadata.resource, authorizationServer, scope };
}

/** Starts signing in: forgets this tab's tokens and sends the browser to the authorization server. */
export async function signIn(offer: SignInOffer): Promise<void> {
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  // Discovery runs afresh (the gateway may have another authorization server by now); a known client is kept.
  updateSession(({ client }) => ({ client, pending: { serverUrl: offer.resource, returnTo } }));
  await auth(provider, {
    serverUrl: offer.resource,
    resourceMetadataUrl: new URL(offer.resourceMetadataUrl),
    scope: offer.scope,
    forceReauthorization: true,
  });
}

/** A path on this origin to return to (anything else: the explorer). */
const localPath = (path: string) => (path.startsWith('/') && !path.startsWith('//') ? path : '/');

/**
 * Finishes the sign-in this tab started, from the authorization server's answer at CALLBACK_PATH: checks its state,
 * exchanges the code (PKCE) for tokens and keeps them. Resolves to the page to return to.
 */
export async function completeSignIn(callback: URL): Promise<string> {
  const { pending } = readSession();
  try {
    if (!pending) throw new Error('No sign-in was started in this tab.');
    const answer = callback.searchParams;
    const refusal = answer.get('error');
    if (refusal) throw new Error(`The authorization server refused: ${answer.get('error_description') || refusal}`);
    if (!pending.state || answer.get('state') !== pending.state) {
      throw new Error('The answer does not match the sign-in of this tab (state).');
    }
    const code = answer.get('code');
    if (!code) throw new Error('The authorization server sent no code.');
    await auth(provider, {
      serverUrl: pending.serverUrl,
      authorizationCode: code,
      iss: answer.get('iss') ?? undefined,
    });
    saveToken(''); // the session's token replaces a pasted one
    return localPath(pending.returnTo);
  } finally {
    updateSession((session) => ({ ...session, pending: undefined }));
  }
}

/** Forgets the tokens (a pasted one too); revokes the refresh token where the server offers revocation (RFC 7009). */
export async function signOut(): Promise<void> {
  const { tokens, client, discovery } = readSession();
  updateSession((session) => ({ ...session, tokens: undefined }));
  saveToken('');
  const metadata = discovery?.authorizationServerMetadata;
  const endpoint = metadata && 'revocation_endpoint' in metadata ? metadata.revocation_endpoint : undefined;
  if (!tokens?.refresh_token || !client || !endpoint) return;
  const form = { token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: client.client_id };
  await fetch(endpoint, { method: 'POST', body: new URLSearchParams(form) }).catch(() => {}); // best effort
}

/**
 * Who is signed in, for display only: the access token's `sub` (its payload is read, not verified); '' for a token
 * that is not a readable JWT; null without a session.
 */
export function signedInUser(): string | null {
  const token = readSession().tokens?.access_token;
  if (!token) return null;
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    return typeof payload.sub === 'string' ? payload.sub : '';
  } catch {
    return '';
  }
}
