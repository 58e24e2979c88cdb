// Gateway configuration read from the environment, with embedded defaults so nothing needs to be set.
import path from 'node:path';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';

function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Port the server listens on (`PORT`, as `next start` reads it). @default 3000 */
export function serverPort(): number {
  return Number(process.env.PORT) || 3000;
}

/** The origin this server serves itself on, for URLs that point back at its own assets. @default http://localhost:PORT */
export function selfOrigin(): string {
  return new URL(process.env.GATEWAY_PUBLIC_ORIGIN || `http://localhost:${serverPort()}`).origin;
}

/** SQLite file of the embedded store (`DATABASE_FILE`), used when `DATABASE_URL` is unset. @default data/gateway.db under the working directory */
export function databaseFile(): string {
  return process.env.DATABASE_FILE || path.join(process.cwd(), 'data', 'gateway.db');
}

/** PostgreSQL connection string (`DATABASE_URL`); when set, the store uses PostgreSQL instead of SQLite. @default unset */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/**
 * Origins `MediaController.getAudioFromURL` may fetch from (`MEDIA_ALLOWED_ORIGINS`, comma-separated).
 * @default this server's own origin, by `localhost` and by `127.0.0.1`
 */
export function mediaAllowedOrigins(): string[] {
  const configured = listFromEnv(process.env.MEDIA_ALLOWED_ORIGINS);
  if (configured.length) return configured.map((origin) => new URL(origin).origin);
  const port = serverPort();
  return [...new Set([selfOrigin(), `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
}

/**
 * Host names (without port) the API answers to (`GATEWAY_ALLOWED_HOSTS`, comma-separated), against DNS rebinding.
 * @default localhost, 127.0.0.1, [::1], 0.0.0.0
 */
export function allowedHostnames(): string[] {
  // 0.0.0.0 reaches this machine too (tools print it as the listen address); browsers reaching it from another site
  // are still stopped by the Origin check.
  return [...localhostAllowedHostnames(), '0.0.0.0', ...listFromEnv(process.env.GATEWAY_ALLOWED_HOSTS)];
}

/**
 * Host names of browser origins allowed to call the API (`GATEWAY_ALLOWED_ORIGINS`, comma-separated origins or
 * host names). Requests without an `Origin` header (non-browser clients) are not affected.
 * @default localhost, 127.0.0.1, [::1]
 */
export function allowedOriginHostnames(): string[] {
  const configured = listFromEnv(process.env.GATEWAY_ALLOWED_ORIGINS).map((origin) =>
    URL.canParse(origin) ? new URL(origin).hostname : origin,
  );
  return [...localhostAllowedOrigins(), ...configured];
}

/** Whether to judge the host by `X-Forwarded-Host` (`GATEWAY_TRUST_PROXY=1`, only behind a proxy that sets it). @default false */
export function trustProxy(): boolean {
  return process.env.GATEWAY_TRUST_PROXY === '1';
}

/** Bearer token required on every MCP and REST request when set (`GATEWAY_TOKEN`). @default unset: no auth */
export function gatewayToken(): string | undefined {
  return process.env.GATEWAY_TOKEN || undefined;
}

function bytesFromEnv(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** Largest MCP request body accepted, in bytes (`MCP_MAX_BODY_BYTES`). @default 1 MiB */
export function mcpMaxBodyBytes(): number {
  return bytesFromEnv(process.env.MCP_MAX_BODY_BYTES, 1024 * 1024);
}

/** Largest response body a tool result inlines (base64 or text), in bytes (`MCP_MAX_MEDIA_BYTES`). @default 4 MiB */
export function mcpMaxMediaBytes(): number {
  return bytesFromEnv(process.env.MCP_MAX_MEDIA_BYTES, 4 * 1024 * 1024);
}

/**
 * What a tool answers when its response body is over the media budget (`MCP_OVERSIZE_MEDIA`): `error` (an isError
 * result) or `resource_link` (a link to the same REST URL, for GET procedures).
 * @default error
 */
export function oversizeMediaMode(): 'error' | 'resource_link' {
  return process.env.MCP_OVERSIZE_MEDIA === 'resource_link' ? 'resource_link' : 'error';
}

/** Whether the MCP conformance fixtures are served (`MCP_CONFORMANCE=1`; only for the conformance suite). @default false */
export function conformanceFixturesEnabled(): boolean {
  return process.env.MCP_CONFORMANCE === '1';
}

/** Benchmark-only tools and routes (`GATEWAY_BENCHMARK=1`, set by `npm run bench`; never in production). @default false */
export function benchmarkEnabled(): boolean {
  return process.env.GATEWAY_BENCHMARK === '1';
}

/** How many generated extra tools the benchmark registers (`GATEWAY_BENCHMARK_TOOLS`, with GATEWAY_BENCHMARK=1). @default 0 */
export function benchmarkExtraTools(): number {
  return benchmarkEnabled() ? Number(process.env.GATEWAY_BENCHMARK_TOOLS) || 0 : 0;
}
