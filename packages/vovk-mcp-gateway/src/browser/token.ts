// The gateway token (GATEWAY_TOKEN auth) a person gave a page, kept for this browser tab and sent with its requests.
import 'client-only';
const STORAGE_KEY = 'vovk-gateway-token';

/** The token saved in this tab, if any. */
export function savedToken(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) || undefined;
  } catch {
    return undefined; // storage unavailable (server render, privacy mode)
  }
}

/** Saves the token for this tab (an empty one forgets it). */
export function saveToken(token: string): void {
  if (token) sessionStorage.setItem(STORAGE_KEY, token);
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** Whether a failure is the gateway asking for the token (HTTP 401): a REST client error or an MCP client message. */
export function isUnauthorized(failure: unknown): boolean {
  if ((failure as { statusCode?: unknown } | null)?.statusCode === 401) return true;
  return /\b401\b|requires authorization|Unauthorized/i.test(failure instanceof Error ? failure.message : String(failure));
}
