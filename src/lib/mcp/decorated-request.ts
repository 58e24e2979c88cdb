// Lets a procedure's vovk decorators see the HTTP request of an MCP tool call (headers, method, URL), as on REST.
import 'server-only';
import { requestContext } from '@/lib/request-context';
import type { RestRoute } from '@/shared/rest-meta';
import { restRequest } from '@/shared/rest-request';

type Handler = ((req: Record<string, unknown>, params: unknown) => unknown) & {
  _sourceMethod?: SourceMethod;
  wrapper?: Handler;
  definition?: { contentType?: string[] };
};
type SourceMethod = Handler & { wrapper?: Handler };

const shimmed = new WeakSet<Handler>();

/**
 * vovk's deriveTools calls a procedure's `.fn`, which runs the decorator chain (`_sourceMethod.wrapper`) with a
 * stand-in request that has no `headers`, `method` or `url` — a decorator reading them (auth, logging, rate limits)
 * would fail on the MCP door. This wraps that entry so the stand-in gets them: the headers of the MCP HTTP request,
 * the procedure's REST method and the REST URL of the call (on `origin()`, the request's public origin). The REST door calls its route handler directly and is
 * not affected. Since vovk's own body checks then treat the stand-in as a real request, it also answers them as one
 * would for this call: a Content-Type the procedure accepts, and the tool's `body` argument as the bytes.
 */
export function exposeHttpRequestToDecorators(procedure: unknown, route: RestRoute, origin: () => string): void {
  const source = (procedure as Handler | undefined)?._sourceMethod;
  const outermost = source?.wrapper;
  if (!source || !outermost || shimmed.has(outermost)) return;
  const wrapper: Handler = function (this: unknown, req, params) {
    const request = requestContext()?.request;
    const vovk = req.vovk as { query(): unknown; body(): Promise<unknown> } | undefined;
    if (request && vovk && req.headers === undefined) {
      const { url } = restRequest(route, { params, query: vovk.query() }, origin());
      const headers = new Headers(request.headers);
      headers.set('content-type', source.definition?.contentType?.[0] ?? 'application/json');
      const arrayBuffer = async () => new TextEncoder().encode(JSON.stringify((await vovk.body()) ?? null)).buffer;
      Object.assign(req, { headers, method: route.method, url, signal: request.signal, arrayBuffer });
    }
    return outermost.call(this, req, params);
  };
  shimmed.add(wrapper);
  source.wrapper = wrapper;
}
