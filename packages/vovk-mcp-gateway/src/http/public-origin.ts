// The origin a request reached the gateway at, for every URL the gateway hands out: configured, forwarded by a
// trusted proxy (GATEWAY_TRUST_PROXY=1), or the default one.
import 'server-only';
import { config } from '../config.js';
import { requestContext } from '../request-context.js';

/** What decides a request's public origin (the gateway's configuration). */
export interface OriginSettings {
  /** The origin everything falls back to: GATEWAY_PUBLIC_ORIGIN, or `http://localhost:$PORT`. */
  publicOrigin: string;
  /** Whether `publicOrigin` was configured: then it wins over anything forwarded. */
  publicOriginConfigured: boolean;
  /** Whether a reverse proxy's `X-Forwarded-*` headers are believed. */
  trustProxy: boolean;
  /** Host names the gateway answers to: a forwarded host must be one of them. */
  allowedHostnames: string[];
}

/** The first entry of a comma-separated header (a chain of proxies appends to it), trimmed; undefined when empty. */
export function firstHeaderValue(headers: Headers, name: string): string | undefined {
  return headers.get(name)?.split(',')[0].trim() || undefined;
}

/** The host a request names: behind a trusted proxy its `X-Forwarded-Host` (else `Host`), otherwise its `Host`. */
export function requestedHost(headers: Headers, trustProxy: boolean): string | undefined {
  return (trustProxy ? firstHeaderValue(headers, 'x-forwarded-host') : undefined) ?? (headers.get('host') || undefined);
}

/** `host[:port]` and nothing else: no path, query, credentials, spaces or other characters a host cannot have. */
const HOST_AND_PORT = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** `scheme://host` as an origin when `host` is a well-formed `host[:port]` whose name is allowed; else undefined. */
function originOf(scheme: string, host: string, allowedHostnames: string[]): string | undefined {
  if (!HOST_AND_PORT.test(host) || !URL.canParse(`${scheme}://${host}`)) return undefined;
  const url = new URL(`${scheme}://${host}`);
  return allowedHostnames.includes(url.hostname) ? url.origin : undefined;
}

/**
 * The public origin of a request with `headers` when the configuration or a trusted proxy tells it: the configured
 * GATEWAY_PUBLIC_ORIGIN when set; else, behind a trusted proxy, `X-Forwarded-Proto` (`http` or `https`; `http` when
 * absent) `://` `X-Forwarded-Host` (else `Host`). Undefined otherwise — and whenever a forwarded value is malformed or
 * names a host the gateway does not answer to.
 */
export function knownOriginOf(headers: Headers | undefined, settings: OriginSettings): string | undefined {
  if (settings.publicOriginConfigured) return settings.publicOrigin;
  if (!settings.trustProxy || !headers) return undefined;
  const scheme = (firstHeaderValue(headers, 'x-forwarded-proto') ?? 'http').toLowerCase();
  const host = requestedHost(headers, true);
  if ((scheme !== 'http' && scheme !== 'https') || !host) return undefined;
  return originOf(scheme, host, settings.allowedHostnames);
}

/** The public origin of a request with `headers`: the known one, else the default (`http://localhost:$PORT`). */
export function publicOriginOf(headers: Headers | undefined, settings: OriginSettings): string {
  return knownOriginOf(headers, settings) ?? settings.publicOrigin;
}

/** The public origin of the request being served (its headers by default), by the gateway's configuration. */
export function publicOrigin(headers: Headers | undefined = requestContext()?.request?.headers): string {
  return publicOriginOf(headers, config());
}

/**
 * The public origin of a page's request when the configuration or a trusted proxy tells it; undefined when only the
 * default is known (a browser then knows better: the address it is at).
 */
export function knownPublicOrigin(headers: Headers): string | undefined {
  return knownOriginOf(headers, config());
}
