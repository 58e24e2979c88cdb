// Runs a procedure for an MCP tool call as the REST door would: on the request REST would have seen, through its decorators.
import 'server-only';
import { NextRequest } from 'next/server';
import type { VovkRequest } from 'vovk';
import { workSignal } from '../long-work/current-work.js';
import { requestContext } from '../request-context.js';
import type { RestRoute } from '../shared/rest-meta.js';
import { restRequest } from '../shared/rest-request.js';

/** A tool call's arguments: the procedure's slots. */
export interface ToolArguments {
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
}

/** A handler as vovk leaves it on its controller: callable with (req, params), maybe with `@get(path, { before })`. */
type Handler = ((req: unknown, params: unknown) => unknown) & { _options?: { before?: (req: unknown) => unknown } };

/** Where a tool call goes: the controller, the handler's name, its REST route and the body media type it takes. */
export interface ProcedureTarget {
  controller: object;
  handlerName: string;
  route: RestRoute;
  /** The media types the procedure's body may have (its `contentType`); JSON when it declares none. */
  contentTypes?: string[];
}

/** What `req.vovk` offers a procedure: its arguments and the request's meta. */
interface VovkAccessors {
  body(): Promise<unknown>;
  query(): Record<string, unknown>;
  params(): Record<string, unknown>;
  meta(meta?: Record<string, unknown> | null): Record<string, unknown>;
}

/** The request a procedure gets on a tool call: a real `NextRequest`, plus `req.vovk` (vovk's own `VovkRequest` shape). */
export type ProcedureRequest = NextRequest & Pick<VovkRequest, 'vovk'>;

/** What a request body may be (the DOM's `RequestBody`, which the server's type-check does not see). */
type RequestBody = NonNullable<ConstructorParameters<typeof Request>[1]>['body'];

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** A form field's value as text: JSON for objects, as a browser form would send what it was given. */
const fieldText = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/** Every (name, value) a form of `body` holds: a list is one field per item, as vovk's parseForm reads it back. */
function formFields(body: unknown): [string, unknown][] {
  if (typeof body !== 'object' || body === null) return [];
  return Object.entries(body).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).filter((item) => item !== undefined).map((item): [string, unknown] => [name, item]));
}

/**
 * The body of the REST request of a call, in the media type the procedure takes: JSON by default, a multipart form
 * (files as files) or a URL-encoded one, text for a `text/*` type. Multipart gets its Content-Type, with its boundary,
 * from the request itself.
 */
function encodeBody(body: unknown, contentType: string): { body: RequestBody; contentType?: string } {
  if (contentType === 'multipart/form-data') {
    const form = new FormData();
    for (const [name, value] of formFields(body)) form.append(name, value instanceof Blob ? value : fieldText(value));
    return { body: form };
  }
  if (contentType === 'application/x-www-form-urlencoded') {
    return { body: new URLSearchParams(formFields(body).map(([name, value]): [string, string] => [name, fieldText(value)])), contentType };
  }
  if (contentType.startsWith('text/') && typeof body === 'string') return { body, contentType };
  return { body: JSON.stringify(body), contentType: contentType.includes('*') ? 'application/json' : contentType };
}

/** Whether a tool's arguments can be sent as a body of this media type: JSON (any), a form, text. */
const canSend = (type: string) => type.includes('*') || type.includes('json') || FORM_TYPES.includes(type) || type.startsWith('text/');

/**
 * The media type a tool call's body is sent as: JSON when the procedure names none, else its first form type, else
 * its first type that tool arguments can be (undefined when none can: such a procedure is left out of the tools).
 */
export function bodyTypeOf(contentTypes: string[] | undefined): string | undefined {
  if (!contentTypes?.length) return 'application/json';
  return contentTypes.find((type) => FORM_TYPES.includes(type)) ?? contentTypes.find(canSend);
}

/** Meta by request: what `req.vovk.meta()` keeps, as vovk's REST door keeps it per request. */
const metaOfRequest = new WeakMap<object, Record<string, unknown>>();

/**
 * The request REST would have seen for this call (ONE place builds it): the URL of the procedure's route with the
 * call's params and query (so `nextUrl`, `url` and `searchParams` read them), its method, the MCP HTTP request's
 * headers (cookies, authorization, …) with the body's Content-Type, the body in that type (`json()`, `text()`,
 * `formData()`, `arrayBuffer()`), the call's cancellation as `signal`. `req.vovk` answers the tool's own arguments,
 * as vovk's own tool calls do, and keeps meta per request (`mcpOutput`).
 */
function procedureRequest(target: ProcedureTarget, input: ToolArguments, origin: string): ProcedureRequest {
  const { method, url } = restRequest(target.route, { params: input.params, query: input.query }, origin);
  const headers = new Headers(requestContext()?.request?.headers);
  for (const name of ['content-type', 'content-length', 'transfer-encoding', 'content-encoding']) headers.delete(name);
  let body: RequestBody | undefined;
  if (input.body !== undefined && !['GET', 'HEAD'].includes(method)) {
    const encoded = encodeBody(input.body, bodyTypeOf(target.contentTypes) ?? 'application/json');
    body = encoded.body;
    if (encoded.contentType) headers.set('content-type', encoded.contentType);
  }
  const request = new NextRequest(url, { method, headers, body, signal: workSignal() }) as ProcedureRequest;
  const accessors: VovkAccessors = {
    body: async () => input.body ?? null,
    query: () => input.query ?? {},
    params: () => input.params ?? {},
    meta: (meta) => {
      if (meta === null) metaOfRequest.delete(request);
      else if (meta) metaOfRequest.set(request, { ...metaOfRequest.get(request), ...meta });
      return metaOfRequest.get(request) ?? {};
    },
  };
  request.vovk = accessors as unknown as ProcedureRequest['vovk'];
  return request;
}

/**
 * Calls the handler as vovk's REST door does — `before` of its route options (`@get(path, { before })`), then the
 * handler with `(req, params)`, its decorators first — on `procedureRequest`'s request. Answers what the handler
 * returned (a value, a `Response`, a stream) and the request (its meta); an error is thrown on. The REST segment's own
 * hooks (`initSegment({ onError, onBefore, onSuccess })`) stay the REST route's: the MCP door reports errors itself.
 */
export async function callProcedure(target: ProcedureTarget, input: ToolArguments, origin: string): Promise<{ result: unknown; req: ProcedureRequest }> {
  const handler = (target.controller as Record<string, Handler>)[target.handlerName];
  const req = procedureRequest(target, input, origin);
  await handler._options?.before?.call(target.controller, req);
  return { result: await handler.call(target.controller, req, input.params ?? {}), req };
}
