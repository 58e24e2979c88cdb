// The REST route a derived tool advertises in tools/list `_meta`; shared by the MCP door and the browser explorer.

/** The REST route a derived tool comes from, advertised in its tools/list `_meta` under {@link REST_META_KEY}. */
export interface RestRoute {
  method: string;
  path: string;
}

/** `_meta` key of a derived tool's REST route in tools/list. */
export const REST_META_KEY = 'dev.vovk/rest';

/** The REST route in a tool's `_meta`, or undefined when it has none (a standalone tool) or it is malformed. */
export function restRouteOf(meta: Record<string, unknown> | undefined): RestRoute | undefined {
  const route = meta?.[REST_META_KEY] as Partial<RestRoute> | undefined;
  return typeof route?.method === 'string' && typeof route.path === 'string'
    ? { method: route.method, path: route.path }
    : undefined;
}
