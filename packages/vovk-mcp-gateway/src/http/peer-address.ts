// The address of the TCP peer of each request, stamped by the server itself (clients cannot forge it): who is calling.
import 'server-only';
import http from 'node:http';
import { isIP } from 'node:net';
import { firstHeaderValue } from './public-origin.js';

/** Header the server writes on every request it receives; any value a client sent under that name is replaced. */
const PEER_HEADER = 'x-gateway-peer-address';
const installed = Symbol.for('vovk-gateway.peer-address');

/**
 * Makes every HTTP server of this process stamp the socket's remote address on the requests it emits, before Next.js
 * (which keeps a client-sent `X-Forwarded-For` as it is) hands them to a route. Called once at start.
 */
export function stampPeerAddresses(): void {
  const prototype = http.Server.prototype as http.Server & { [installed]?: true };
  if (prototype[installed]) return;
  const emit = prototype.emit;
  prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = req.socket.remoteAddress ?? 'unknown';
    }
    return (emit as (event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
  prototype[installed] = true;
}

/**
 * The client's address: behind a trusted proxy (GATEWAY_TRUST_PROXY=1) the first `X-Forwarded-For` entry when it is an
 * IP address, else the connection's peer.
 */
export function clientAddress(req: Request, trustProxy: boolean): string {
  const forwarded = trustProxy ? firstHeaderValue(req.headers, 'x-forwarded-for') : undefined;
  return (forwarded && isIP(forwarded) ? forwarded : undefined) ?? req.headers.get(PEER_HEADER) ?? 'unknown';
}
