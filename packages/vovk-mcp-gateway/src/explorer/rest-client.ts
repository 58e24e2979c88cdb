// The explorer's REST calls, through vovk's client machinery over the route each tool advertises (the app's own
// generated client is not the package's to import).
import { createRPC } from 'vovk/create-rpc';
import type { RestRoute } from '../shared/rest-meta.js';

interface RawCallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Any type but JSON (Lines) makes vovk's fetcher hand back the Response untouched, whatever its status. */
  interpretAs: string;
}

/** A procedure of vovk's client, called for its raw Response. */
type RawCall = ((input: RawCallInput) => Promise<Response>) & {
  schema: { httpMethod: string };
  getURL(): string;
};

/** vovk's client for one route (under /api, as every derived tool's). */
function routeCall({ method, path }: RestRoute): RawCall {
  const handlers = { send: { httpMethod: method.toUpperCase(), path: path.replace(/^\/api\/?/, '') } };
  const controllers = { Route: { rpcModuleName: 'Route', handlers } };
  const schema = { segments: { '': { segmentName: '', controllers } } };
  const module = createRPC(schema, '', 'Route', import('../browser/rest-fetcher.js')) as unknown as { send: RawCall };
  return module.send;
}

/** Sends a tool's REST request (with the gateway token) and returns the raw HTTP response. */
export function sendRest(route: RestRoute, input: Omit<RawCallInput, 'interpretAs'>): Promise<Response> {
  return routeCall(route)({ ...input, interpretAs: 'application/octet-stream' });
}
