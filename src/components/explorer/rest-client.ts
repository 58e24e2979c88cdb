// The explorer's REST calls, through vovk's client: the generated one for every route it has, and the same machinery
// over the advertised route for the rest (test-only modules the production client is not generated with).
import * as generated from '@/client';
import { createRPC } from 'vovk/create-rpc';
import type { RestRoute } from '@/shared/rest-meta';

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

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The generated client's modules (each of its exports but the schema), as raw calls. */
const rpcModules = Object.values(generated).filter((value) => value !== generated.schema) as unknown as Record<
  string,
  RawCall
>[];

/** Every procedure of the generated client, by its route as tools advertise it ("GET /api/users/{id}"). */
const generatedByRoute = new Map(
  rpcModules
    .flatMap((module) => Object.values(module))
    .map((call) => [routeKey(call.schema.httpMethod, call.getURL()), call]),
);

/** vovk's client for one route (under /api, as every derived tool's) the generated client does not have. */
function routeCall({ method, path }: RestRoute): RawCall {
  const handlers = { send: { httpMethod: method.toUpperCase(), path: path.replace(/^\/api\/?/, '') } };
  const controllers = { Route: { rpcModuleName: 'Route', handlers } };
  const schema = { segments: { '': { segmentName: '', controllers } } };
  const module = createRPC(schema, '', 'Route', import('@/browser/rest-fetcher')) as unknown as { send: RawCall };
  return module.send;
}

/** Sends a tool's REST request (with the gateway token) and returns the raw HTTP response. */
export function sendRest(route: RestRoute, input: Omit<RawCallInput, 'interpretAs'>): Promise<Response> {
  const call = generatedByRoute.get(routeKey(route.method, route.path)) ?? routeCall(route);
  return call({ ...input, interpretAs: 'application/octet-stream' });
}
