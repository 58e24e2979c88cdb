// Types of server.mjs (the development authorization server), for the TypeScript tests that start it.

/** The scopes the gateway knows: `gateway:read`, `gateway:write`, `gateway:admin`. */
export declare const GATEWAY_SCOPES: readonly string[];

export interface DevAuthServerOptions {
  /** Port on 127.0.0.1 (and ::1 where present); the issuer is `http://localhost:<port>`. @default 0 (a free port) */
  port?: number;
  /** Accepted resource indicators = token audiences, e.g. `http://localhost:3217/api/mcp`; the first is the default. */
  resources: string[];
  /**
   * Gateway origins: `gateway-explorer`'s redirect URIs are `<origin>/oauth/callback`; CORS is allowed from them.
   * @default the resources' origins
   */
  gatewayOrigins?: string[];
  /**
   * Scopes a resource accepts, all allowed to `gateway-script` (add any a procedure declares).
   * @default GATEWAY_SCOPES
   */
  scopes?: string[];
  /** Lifetime of access tokens (both grants). @default 3600 */
  accessTokenTtlSeconds?: number;
  /** Lifetime of refresh tokens, grants and sign-in sessions. @default 86400 */
  refreshTokenTtlSeconds?: number;
  /** Secret of `gateway-script`. @default 'gateway-script-dev-secret' */
  scriptClientSecret?: string;
}

export interface DevAuthServer {
  /** `http://localhost:<port>`: the `iss` of its tokens and the base of both metadata documents. */
  issuer: string;
  resources: string[];
  scopes: string[];
  clients: {
    explorer: { clientId: string; redirectUris: string[] };
    script: { clientId: string; clientSecret: string; scope: string };
  };
  user: { login: string; password: string; sub: string; name: string };
  /** Closes the listeners and their connections. */
  stop(): Promise<void>;
}

/** Starts the development authorization server on loopback and resolves once it listens. */
export declare function startDevAuthServer(options: DevAuthServerOptions): Promise<DevAuthServer>;
