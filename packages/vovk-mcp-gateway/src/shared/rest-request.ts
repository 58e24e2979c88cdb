// The REST request equivalent to a tool call (URL from the route and the arguments) and its curl line; browser-safe.
import type { RestRoute } from './rest-meta.js';
import { shellQuote } from './shell-words.js';

/** Tool arguments: the `params`, `query` and `body` slots of a derived tool. */
type ToolArguments = Record<string, unknown>;

export interface RestRequest {
  method: string;
  url: string;
  /** JSON body, for methods that carry one. */
  body?: unknown;
}

const BODYLESS = ['GET', 'HEAD'];

function slot(args: ToolArguments, name: 'params' | 'query'): Record<string, unknown> {
  const value = args[name];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

const asText = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/** `{name}` segments take the `params` values (left as `{name}` while unknown); `query` becomes the query string. */
export function restRequest(route: RestRoute, args: ToolArguments, origin: string): RestRequest {
  const params = slot(args, 'params');
  const path = route.path.replace(/\{([^}]+)\}/g, (segment, name: string) =>
    params[name] === undefined ? segment : encodeURIComponent(asText(params[name])),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(slot(args, 'query'))) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) search.append(name, asText(item));
  }
  const query = search.toString() ? `?${search}` : '';
  const method = route.method.toUpperCase();
  const withBody = !BODYLESS.includes(method) && args.body !== undefined;
  return { method, url: `${origin}${path}${query}`, ...(withBody ? { body: args.body } : {}) };
}

/** A curl command line that sends the same request. */
export function curlCommand({ method, url, body }: RestRequest): string {
  const parts = ['curl', '-s'];
  if (method !== 'GET') parts.push('-X', method);
  parts.push(shellQuote(url));
  if (body !== undefined) parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(body)));
  return parts.join(' ');
}
