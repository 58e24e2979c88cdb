// Every environment variable the gateway reads: one zod schema with defaults and docs, read once, checked at start.
import 'server-only';
import path from 'node:path';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** One documented variable: its schema (parsing the raw string), its default as people read it, and what it does. */
export interface Variable<T extends z.ZodType = z.ZodType> {
  schema: T;
  default: string;
  doc: string;
  /** Where docs/configuration.md groups it. */
  group: 'server' | 'security' | 'testing';
}

/** Declares one variable (its type kept for the parsed value). */
export const variable = <T extends z.ZodType>(definition: Variable<T>) => definition;

/** A comma-separated list; empty items are dropped. */
const list = (item: z.ZodType<string, string>, expects: string) =>
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item, { error: `expected ${expects}` }));

const url = (what: string) =>
  z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: (issue) => `expected ${what} (an http or https URL), got ${JSON.stringify(issue.input)}`,
  });

/** A positive whole number of bytes, given in decimal. */
const byteCount = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return fallback;
      if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
        context.addIssue({ code: 'custom', message: `expected a positive whole number of bytes, got ${JSON.stringify(value)}` });
        return z.NEVER;
      }
      return Number(value);
    });

/** A whole number of `unit`: `fallback` when unset, from `min` to `max`. */
const wholeNumber = (fallback: number, unit: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const expected = `expected a whole number of ${unit}`;
  return z
    .string()
    .optional()
    .transform((value) => (value ? Number(value) : fallback))
    .pipe(z.number({ error: expected }).int(expected).min(min).max(max));
};

/** `1` turns a switch on; `0` or nothing leaves it off. */
const flag = z
  .enum(['', '0', '1'], { error: (issue) => `expected 1 (on) or 0 (off), got ${JSON.stringify(issue.input)}` })
  .optional()
  .transform((value) => value === '1');

/** A flag that is on unless set to `0`. */
const flagOn = z
  .enum(['', '0', '1'], { error: (issue) => `expected 1 (on) or 0 (off), got ${JSON.stringify(issue.input)}` })
  .optional()
  .transform((value) => value !== '0');

const optionalText = z
  .string()
  .optional()
  .transform((value) => value || undefined);

/** An origin only, `scheme://host[:port]` (http or https): a URL with a path, query or credentials is refused. */
const originOnly = (what: string) =>
  url(what).refine(
    (value) => {
      if (!URL.canParse(value)) return true; // refused as no URL already
      const { pathname, search, hash, username, password } = new URL(value);
      return pathname === '/' && !search && !hash && !username && !password;
    },
    { error: (issue) => `expected ${what} as scheme://host[:port] (no path), got ${JSON.stringify(issue.input)}` },
  );

/** The schemas of the gateway's variables, for an app that declares its own with `variable` (same parsing, same messages). */
export const variableSchemas = { list, url, byteCount, wholeNumber, flag, flagOn, optionalText, originOnly };

const hostName = z.string().regex(/^[\w.-]+$|^\[[\d:a-f.]+\]$/i, 'expected host names such as api.example.com');

/** The variables, by name. Their order is the order of the docs. */
export const VARIABLES = {
  PORT: variable({
    group: 'server',
    schema: z
      .string()
      .optional()
      .transform((value) => (value ? Number(value) : 3000))
      .pipe(z.number({ error: 'expected a port number' }).int('expected a port number').min(1, 'expected a port from 1 to 65535').max(65535, 'expected a port from 1 to 65535')),
    default: '`3000`',
    doc: 'Port `npm start` listens on.',
  }),
  DATABASE_FILE: variable({
    group: 'server',
    schema: optionalText,
    default: '`data/gateway.db`',
    doc: 'SQLite file of the embedded database (created and migrated on first start: the gateway\'s `gateway_` tables, and the app\'s own tables when it keeps them there; the reference app seeds demo users); unused with `DATABASE_URL`.',
  }),
  DATABASE_URL: variable({
    group: 'server',
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\/.+/, 'expected a PostgreSQL URL such as postgres://user:password@host:5432/db')
        .optional(),
    ),
    default: 'unset',
    doc: 'PostgreSQL connection string (`postgres://user:password@host:port/db`); when set the database is PostgreSQL (migrated on start) instead of SQLite.',
  }),
  GATEWAY_PUBLIC_ORIGIN: variable({
    group: 'server',
    schema: optionalText.pipe(url('the origin this server is reached at').optional()),
    default: '`http://localhost:$PORT`',
    doc: 'The origin this server is reached at; the default audio URL points there. When set, it is also the public origin of every URL the gateway hands out (the OAuth resource, the REST links of tool results, the explorer\'s connect panel), whatever a proxy forwards; unset, those follow `GATEWAY_TRUST_PROXY`.',
  }),
  SHUTDOWN_GRACE_MS: variable({
    group: 'server',
    schema: wholeNumber(10_000, 'milliseconds', 0, 600_000),
    default: '`10000`',
    doc: 'On SIGTERM or SIGINT, how long (ms) requests in flight may take to finish before the process exits anyway; requests arriving meanwhile get 503.',
  }),
  JOB_RESULT_TTL_MS: variable({
    group: 'server',
    schema: wholeNumber(3_600_000, 'milliseconds', 1000),
    default: '`3600000` (1 hour)',
    doc: 'How long a finished REST job or MCP task (and its result or error) is kept after it ended, then removed; also how long one waiting for input is kept.',
  }),
  JOB_MAX_PER_CALLER: variable({
    group: 'server',
    schema: wholeNumber(10, 'jobs', 1, 10_000),
    default: '`10`',
    doc: 'How many jobs and tasks one caller (token subject and client, or everyone when auth is off) may have running or waiting for input at once; one more is refused (REST 429, MCP error) until one ends.',
  }),
  JOB_MAX_PER_INSTANCE: variable({
    group: 'server',
    schema: wholeNumber(100, 'jobs', 1, 100_000),
    default: '`100`',
    doc: 'How many jobs and tasks one instance runs at once; one more is refused (REST 503 with `Retry-After`, MCP error) until one ends.',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable({
    group: 'server',
    schema: optionalText.pipe(url('the base URL of an OTLP/HTTP receiver').optional()),
    default: 'unset (no tracing)',
    doc: 'Base URL of an OpenTelemetry OTLP/HTTP receiver (traces go to `<URL>/v1/traces`). Turns tracing on: a span per REST request and per MCP message. The SDK reads the other standard `OTEL_*` variables itself (`OTEL_EXPORTER_OTLP_PROTOCOL` `http/protobuf` or `http/json`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_SDK_DISABLED`, …).',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable({
    group: 'server',
    schema: optionalText.pipe(url('the full URL traces are posted to').optional()),
    default: 'unset',
    doc: 'Full URL traces are posted to, used as is; overrides `OTEL_EXPORTER_OTLP_ENDPOINT` and also turns tracing on.',
  }),
  OTEL_SERVICE_NAME: variable({
    group: 'server',
    schema: optionalText,
    default: '`vovk-mcp-gateway`',
    doc: '`service.name` of the traces.',
  }),
  OAUTH_ISSUER: variable({
    group: 'security',
    schema: optionalText.pipe(url('the issuer URL of an OAuth 2.1 authorization server').optional()),
    default: 'unset (no OAuth)',
    doc: 'Issuer of the authorization server whose JWT access tokens the gateway accepts (metadata discovered from it, RFC 8414 or OpenID Connect). Turns OAuth on for every MCP and REST request.',
  }),
  OAUTH_AUDIENCE: variable({
    group: 'security',
    schema: list(url('an audience (the URL the tokens are issued for)'), 'comma-separated audience URLs'),
    default: '`<public origin>/api/mcp`',
    doc: 'Accepted audiences (`aud`) of access tokens, comma-separated: the resource indicator (RFC 8707) clients ask tokens for. The same tokens work on REST. When set, the first is the resource the metadata names, whatever a proxy forwards; unset, the resource is `<public origin>/api/mcp` of each request (see `GATEWAY_TRUST_PROXY`) and tokens must be issued for it.',
  }),
  GATEWAY_TOKEN: variable({
    group: 'security',
    schema: optionalText,
    default: 'unset (no auth)',
    doc: 'A static bearer token required on every MCP and REST request (simple mode: it grants every scope). With `OAUTH_ISSUER` too, either is accepted.',
  }),
  GATEWAY_ALLOWED_HOSTS: variable({
    group: 'security',
    schema: list(hostName, 'comma-separated host names such as api.example.com'),
    default: '—',
    doc: 'Extra host names (comma-separated) the gateway answers to, besides the localhost names.',
  }),
  GATEWAY_ALLOWED_ORIGINS: variable({
    group: 'security',
    schema: list(z.string().refine((value) => URL.canParse(value) || hostName.safeParse(value).success), 'comma-separated origins or host names'),
    default: '—',
    doc: 'Extra browser origins (or host names) allowed to call the API.',
  }),
  GATEWAY_COMPRESS: variable({
    group: 'server',
    schema: flagOn,
    default: '`1`',
    doc: '`0`: never compress answers (for a proxy that compresses itself). With `1`, JSON, HTML, CSS and JS of 1 KiB or more are gzipped when the client asks; small bodies, images, audio, MCP results that carry them and SSE streams never are. Read at start.',
  }),
  GATEWAY_COMPILE_CACHE: variable({
    group: 'server',
    schema: flagOn,
    default: '`1`',
    doc: '`0`: no code cache. With `1`, the gateway\'s entry keeps V8\'s compiled code of Next.js and the build\'s modules in `compile-cache.bin` of the build directory (written by a start that compiled modules without it, once no module has compiled for 5 s, and at exit; a new build starts without it), so later starts compile less. A directory it cannot write to leaves starts as without it, with one warning each. Read at start.',
  }),
  GATEWAY_TRUST_PROXY: variable({
    group: 'security',
    schema: flag,
    default: '`0`',
    doc: '`1` (only behind a reverse proxy that sets these headers itself, replacing any a client sent): the host is judged by `X-Forwarded-Host` (else `Host`); the public origin of the URLs the gateway hands out (the OAuth resource and `resource_metadata`, REST links in tool results, the explorer\'s connect panel) is `X-Forwarded-Proto` (`http` or `https`, default `http`) `://` that host, unless `GATEWAY_PUBLIC_ORIGIN` / `OAUTH_AUDIENCE` fix it; a malformed or not allowed value falls back to the default origin; the rate limiter counts per the first `X-Forwarded-For` address (so the proxy must overwrite that header with the client\'s address, e.g. nginx `proxy_set_header X-Forwarded-For $remote_addr`). `0`: every forwarded header is ignored.',
  }),
  MCP_MAX_BODY_BYTES: variable({
    group: 'security',
    schema: byteCount(1024 * 1024),
    default: '`1048576`',
    doc: 'Largest MCP request body, in bytes; larger ones get 413.',
  }),
  REST_MAX_BODY_BYTES: variable({
    group: 'security',
    schema: byteCount(1024 * 1024),
    default: '`1048576`',
    doc: 'Largest REST request body, in bytes; larger ones get 413 (refused from the declared length, or after reading at most this much).',
  }),
  GATEWAY_RATE_LIMIT: variable({
    group: 'security',
    schema: z
      .string()
      .optional()
      .transform((value) => (value ? Number(value) : 0))
      .pipe(z.number({ error: 'expected requests per second (a number; 0 for no limit)' }).min(0, 'expected requests per second (a number; 0 for no limit)')),
    default: '`0` (off)',
    doc: 'Requests per second each caller may make, on REST and MCP together (the caller: the token’s subject, else the client address); excess requests get 429 with `Retry-After`.',
  }),
  GATEWAY_RATE_LIMIT_BURST: variable({
    group: 'security',
    schema: z
      .string()
      .optional()
      .transform((value) => (value ? Number(value) : undefined))
      .pipe(z.number({ error: 'expected a whole number of requests' }).int('expected a whole number of requests').min(1).optional()),
    default: 'twice `GATEWAY_RATE_LIMIT`',
    doc: 'How many requests a caller may make at once before `GATEWAY_RATE_LIMIT` applies.',
  }),
  MCP_MAX_MEDIA_BYTES: variable({
    group: 'security',
    schema: byteCount(4 * 1024 * 1024),
    default: '`4194304`',
    doc: 'Largest response body a tool result inlines, in bytes.',
  }),
  MCP_STREAM_MAX_ITEMS: variable({
    group: 'server',
    schema: wholeNumber(1000, 'items', 1),
    default: '`1000`',
    doc: 'The most items of a streaming procedure (an async generator, `JSONLinesResponder`, an `iteration` schema) one tool result holds; the rest is counted, not kept (up to ten times this, then the stream is stopped), and a line of the result says how many were left out. REST streams every item.',
  }),
  MCP_STREAM_MAX_BYTES: variable({
    group: 'server',
    schema: byteCount(1024 * 1024),
    default: '`1048576`',
    doc: 'The most bytes of items (their JSON) a streamed tool result holds; the item that would pass it and the rest are left out, as with `MCP_STREAM_MAX_ITEMS`.',
  }),
  MCP_RESULT_BUDGET_TOKENS: variable({
    group: 'server',
    schema: wholeNumber(25000, 'tokens', 100),
    default: '`25000`',
    doc: 'The most tokens (o200k_base, see docs/tools.md "Results that fit") one JSON or text tool result, or resources/read contents, may cost a model; a procedure may declare its own with `@resultBudget`. Over it, an array keeps the first items that fit with the way to the rest, anything else becomes a `resource_link` to the whole answer with a preview.',
  }),
  MCP_RESULT_HOLD_SECONDS: variable({
    group: 'server',
    schema: wholeNumber(900, 'seconds', 1),
    default: '`900`',
    doc: 'How long the whole answer of a result over its budget stays readable (resources/read of its `vovk://gateway/results/…` link), by its caller only.',
  }),
  MCP_OVERSIZE_MEDIA: variable({
    group: 'security',
    schema: z
      .enum(['', 'error', 'resource_link'], {
        error: (issue) => `expected error or resource_link, got ${JSON.stringify(issue.input)}`,
      })
      .optional()
      .transform((value) => value || 'error'),
    default: '`error`',
    doc: '`resource_link`: answer oversize media of GET tools with a link to the REST URL instead of an error.',
  }),
  MCP_LIST_MAX: variable({
    group: 'server',
    schema: wholeNumber(40, 'tools', 1),
    default: '`40`',
    doc: 'The most tools `tools/list` shows by default: a connection whose selected tools (toolsets, `readonly`) are more gets the `search` surface (`search_tools` + `call_tool`) unless it asks for `?tools=all` (`X-MCP-Tools`).',
  }),
  MCP_LIST_TTL_MS: variable({
    group: 'server',
    schema: wholeNumber(300_000, 'milliseconds', 0, 86_400_000),
    default: '`300000` (5 minutes)',
    doc: 'How long (ms) a 2026-07-28 client may keep an answer of `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` and `server/discover` (their `ttlMs`): the catalogue changes only when the server is deployed again, and a `list_changed` notification ends it sooner. `0`: nothing may be kept. Whether it is `public` or `private` follows the caller (docs/resources.md, "Cache hints").',
  }),
  CODE_MODE_WALL_MS: variable({
    group: 'server',
    schema: wholeNumber(30_000, 'milliseconds', 100, 600_000),
    default: '`30000`',
    doc: 'Code mode: the longest one `execute` program may take, time spent waiting for its tool calls included; past it the program is stopped and `execute` answers an error naming this limit.',
  }),
  CODE_MODE_MEMORY_BYTES: variable({
    group: 'server',
    schema: byteCount(64 * 1024 * 1024),
    default: '`67108864` (64 MiB)',
    doc: 'Code mode: the most memory one program may take in its sandbox (its objects, strings and arrays; the sandbox’s memory, not the gateway’s). A worker whose memory grew past it is replaced after the program.',
  }),
  CODE_MODE_MAX_CALLS: variable({
    group: 'server',
    schema: wholeNumber(50, 'calls', 1, 10_000),
    default: '`50`',
    doc: 'Code mode: the most tool calls (`tools.*`) one program may make.',
  }),
  CODE_MODE_MAX_RESULT_BYTES: variable({
    group: 'server',
    schema: byteCount(256 * 1024),
    default: '`262144` (256 KiB)',
    doc: 'Code mode: the largest result (its JSON) one program may return.',
  }),
  CODE_MODE_MAX_LOG_BYTES: variable({
    group: 'server',
    schema: byteCount(64 * 1024),
    default: '`65536` (64 KiB)',
    doc: 'Code mode: the most a program may print with `console.log`.',
  }),
  CODE_MODE_MAX_PER_CALLER: variable({
    group: 'security',
    schema: wholeNumber(2, 'programs', 1, 64),
    default: '`2`',
    doc: 'Code mode: the most programs one caller (its token’s subject, else its client address) runs or has waiting at once on one instance; one more answers an error naming this limit, so that one caller never holds the sandbox workers others need.',
  }),
  CODE_MODE_WORKERS: variable({
    group: 'server',
    schema: wholeNumber(4, 'workers', 1, 64),
    default: '`4`',
    doc: 'Code mode: how many programs one instance runs at once, each on a sandbox thread of its own (a program that computes takes one core); the others wait for a free one, their wall time running.',
  }),
  MCP_CONFIRM_DESTRUCTIVE: variable({
    group: 'server',
    schema: flagOn,
    default: '`1`',
    doc: 'Tools annotated `destructiveHint: true` ask the user to confirm (MCP elicitation) before they act, when the client can be asked; `0` turns it off. REST is never asked.',
  }),
  GATEWAY_STATE_SECRET: variable({
    group: 'security',
    schema: z
      .string()
      .optional()
      .refine((value) => !value || new TextEncoder().encode(value).length >= 32, {
        error: 'expected a secret of at least 32 bytes',
      })
      .transform((value) => value || undefined),
    default: 'random per process',
    doc: 'Key that signs the `requestState` of MCP input-required results (2026-07-28). Instances behind one load balancer must share it; without it each process makes its own, and a retry reaching another instance is refused.',
  }),
  MCP_MAX_SESSIONS: variable({
    group: 'security',
    schema: wholeNumber(1000, 'sessions', 1),
    default: '`1000`',
    doc: 'Most 2025-era MCP sessions (`Mcp-Session-Id`) one instance holds at once; an `initialize` beyond it gets HTTP 503 with `Retry-After` and a JSON-RPC error naming the limit, while the sessions it holds keep working.',
  }),
  MCP_MAX_SESSIONS_PER_CALLER: variable({
    group: 'security',
    schema: wholeNumber(20, 'sessions', 1),
    default: '`20`',
    doc: 'Most 2025-era MCP sessions one caller (its token’s subject, else its client address) holds on one instance: its `initialize` beyond it ends that caller’s longest-unused session first (whose next request then answers 404, so its client starts again). Clients that never send DELETE (one session per call) thus keep to their own share and never lock others out of `MCP_MAX_SESSIONS`.',
  }),
  MCP_MAX_LISTEN_STREAMS_PER_CALLER: variable({
    group: 'security',
    schema: wholeNumber(10, 'streams', 1),
    default: '`10`',
    doc: 'Most 2026-07-28 `subscriptions/listen` streams one caller (its token’s subject, else its client address) holds open on one instance; one more is refused (HTTP 429, a JSON-RPC error naming this setting) while its open streams keep working.',
  }),
  MCP_MAX_SUBSCRIPTIONS_PER_CALLER: variable({
    group: 'security',
    schema: wholeNumber(100, 'subscriptions', 1),
    default: '`100`',
    doc: 'Most resource subscriptions one caller holds on one instance, over its listen streams and its 2025-era sessions together (a URI per stream or session counts once): a listen stream’s acknowledgement leaves out the URIs beyond it, a `resources/subscribe` beyond it is a JSON-RPC error naming this setting.',
  }),
  MCP_SESSION_IDLE_SECONDS: variable({
    group: 'server',
    schema: wholeNumber(600, 'seconds', 1),
    default: '`600`',
    doc: 'A 2025-era MCP session with no request in progress for this long is closed (its id then answers 404; its stored events are dropped). An open standalone GET stream counts as a request in progress.',
  }),
  MCP_SSE_HEARTBEAT_SECONDS: variable({
    group: 'server',
    schema: wholeNumber(15, 'seconds', 1),
    default: '`15`',
    doc: 'How often an open HTTP+SSE stream (`GET /api/sse`, protocol revision 2024-11-05) with nothing to carry sends a comment line, so that proxies and load balancers do not close it as idle (nginx: 60 s by default).',
  }),
  MCP_RELAY_ACK_TIMEOUT_MS: variable({
    group: 'server',
    schema: wholeNumber(5000, 'milliseconds', 1),
    default: '`5000`',
    doc: 'How long (ms) an instance relaying a request of a 2025-era MCP session waits for the instance holding the session to acknowledge it before answering 503 (nothing was done: the holder starts it only when told to, after its acknowledgement); once acknowledged it waits as long as the holder runs. The e2e tests lower it to stay short.',
  }),
} as const;


/** The configuration the gateway runs with, derived from the variables. */
export interface GatewayConfig {
  /** The port the server listens on (PORT); the default origins name it. @default 3000 */
  port: number;
  /** The origin this server is reached at, for URLs that point back at it (GATEWAY_PUBLIC_ORIGIN). @default `http://localhost:${port}` */
  publicOrigin: string;
  /** Whether the public origin was given: then it wins over what a proxy forwards. @default true when `publicOrigin` is given */
  publicOriginConfigured: boolean;
  /** The SQLite file of the gateway's store (DATABASE_FILE), unused with `databaseUrl`. @default `data/gateway.db` in the working directory */
  databaseFile: string;
  /** A PostgreSQL URL (DATABASE_URL): the store for several instances, sessions relayed between them. @default unset (SQLite) */
  databaseUrl?: string;
  /** How long requests in flight may take to finish once the process is told to stop (SHUTDOWN_GRACE_MS). @default 10000 */
  shutdownGraceMs: number;
  /**
   * Long work (REST jobs, MCP tasks): how long a finished one is kept, how many may run per caller and per instance
   * (JOB_RESULT_TTL_MS, JOB_MAX_PER_CALLER, JOB_MAX_PER_INSTANCE). @default { resultTtlMs: 3600000, maxPerCaller: 10, maxPerInstance: 100 }
   */
  jobs: { resultTtlMs: number; maxPerCaller: number; maxPerInstance: number };
  /** A static bearer token both doors require (GATEWAY_TOKEN). @default unset (no auth, unless `oauth`) */
  token?: string;
  /** The OAuth authorization server whose tokens are accepted, and the audiences they must carry (OAUTH_ISSUER, OAUTH_AUDIENCE). @default unset */
  oauth?: { issuer: string; audiences: string[] };
  /** The canonical URL of the MCP endpoint: the resource tokens are issued for, and that metadata describes. @default `${publicOrigin}/api/mcp` */
  resource: string;
  /** Whether the resource was given: then it wins over what a proxy forwards. @default true when `resource` or `oauth` is given */
  resourceConfigured: boolean;
  /** Host names (without port) the API answers to, against DNS rebinding (GATEWAY_ALLOWED_HOSTS adds). @default localhost, 127.0.0.1, [::1], 0.0.0.0 */
  allowedHostnames: string[];
  /** Host names of browser origins allowed to call the API (GATEWAY_ALLOWED_ORIGINS adds; requests without `Origin` are not affected). @default localhost's */
  allowedOriginHostnames: string[];
  /** Whether a proxy's forwarded headers are believed, for the caller's address and the public origin (GATEWAY_TRUST_PROXY). @default false */
  trustProxy: boolean;
  /** Whether answers may be compressed (GATEWAY_COMPRESS): the compression policy looks at JSON answers only then. @default true */
  compress: boolean;
  /** The largest MCP request body, in bytes (MCP_MAX_BODY_BYTES). @default 1048576 */
  mcpMaxBodyBytes: number;
  /** The largest REST request body, in bytes (REST_MAX_BODY_BYTES). @default 1048576 */
  restMaxBodyBytes: number;
  /** Requests per second per caller and the burst allowed (GATEWAY_RATE_LIMIT, GATEWAY_RATE_LIMIT_BURST). @default unset (no limit) */
  rateLimit?: { perSecond: number; burst: number };
  /** The largest media a tool result carries inline, in bytes (MCP_MAX_MEDIA_BYTES). @default 4194304 */
  mcpMaxMediaBytes: number;
  /** How much of a streaming procedure one tool result holds (MCP_STREAM_MAX_ITEMS, MCP_STREAM_MAX_BYTES). @default { maxItems: 1000, maxBytes: 1048576 } */
  streams: { maxItems: number; maxBytes: number };
  /** The token budget of one tool result and how long a whole answer over it is held (MCP_RESULT_BUDGET_TOKENS, MCP_RESULT_HOLD_SECONDS). @default { tokens: 25000, holdMs: 900000 } */
  resultBudget: { tokens: number; holdMs: number };
  /** What a tool result does with larger media: an error, or a link to its REST route (MCP_OVERSIZE_MEDIA). @default 'error' */
  oversizeMedia: 'error' | 'resource_link';
  /** Destructive tools ask the user to confirm over MCP before they act (MCP_CONFIRM_DESTRUCTIVE). @default true */
  confirmDestructive: boolean;
  /** The key of input-required `requestState` (GATEWAY_STATE_SECRET; instances behind one proxy share it). @default a random one of this process */
  stateSecret?: string;
  /**
   * 2025-era sessions: how many one instance holds (in all, and per caller), how long an idle one lives, and how long
   * a relayed request waits for the instance holding its session (MCP_MAX_SESSIONS…, MCP_SESSION_IDLE_SECONDS,
   * MCP_RELAY_ACK_TIMEOUT_MS), and how often an idle HTTP+SSE stream sends a heartbeat (MCP_SSE_HEARTBEAT_SECONDS).
   * @default the variables' defaults (docs/configuration.md)
   */
  sessions: { max: number; maxPerCaller: number; idleMs: number; relayAckTimeoutMs: number; heartbeatMs?: number };
  /** Resource subscriptions: how many listen streams, and how many subscribed URIs, one caller holds on one instance. @default the variables' defaults */
  subscriptions: { maxStreamsPerCaller: number; maxPerCaller: number };
  /** OpenTelemetry tracing, when an OTLP endpoint is set (the SDK reads the rest of its `OTEL_*` variables itself). @default unset (off) */
  tracing?: { serviceName: string };
  /** The most tools `tools/list` shows before the default surface is `search` (MCP_LIST_MAX). @default 40 */
  mcpListMax: number;
  /** How long a 2026-07-28 client may keep a listing or `server/discover` answer, ms (MCP_LIST_TTL_MS). @default 300000 */
  mcpListTtlMs: number;
  /** Code mode's limits per program (CODE_MODE_*) and how many programs run at once. @default the variables' defaults */
  codeMode: CodeModeConfig;
}

/** The limits of code mode (`execute`): each passed ends the program with an error naming it. */
export interface CodeModeConfig {
  /** The longest a program may run, ms (CODE_MODE_WALL_MS). */
  wallMs: number;
  /** The sandbox's heap, bytes (CODE_MODE_MEMORY_BYTES). */
  memoryBytes: number;
  /** The most tool calls one program makes (CODE_MODE_MAX_CALLS). */
  maxCalls: number;
  /** The largest value a program returns, bytes (CODE_MODE_MAX_RESULT_BYTES). */
  maxResultBytes: number;
  /** The most `console.log` output a program keeps, bytes (CODE_MODE_MAX_LOG_BYTES). */
  maxLogBytes: number;
  /** How many sandbox workers run programs at once (CODE_MODE_WORKERS). */
  workers: number;
  /** How many programs one caller runs at once (CODE_MODE_MAX_PER_CALLER). */
  maxPerCaller: number;
}

/** A variable with a value it cannot take. The message names the variable and what it expects. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A table of documented variables, by name (the gateway's is `VARIABLES`; an app may declare its own with `variable`). */
export type VariableTable = Record<string, Variable>;

/** The parsed value of every variable of `table`. */
export type VariableValues<Table extends VariableTable> = { [Name in keyof Table]: z.output<Table[Name]['schema']> };

/** Parses every variable of `table` from `env`; throws one `ConfigError` naming every invalid variable. */
export function readVariables<Table extends VariableTable>(table: Table, env: Record<string, string | undefined>): VariableValues<Table> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, { schema }] of Object.entries(table)) {
    const parsed = schema.safeParse(env[name]);
    if (parsed.success) values[name] = parsed.data;
    else problems.push(`${name}=${JSON.stringify(env[name])}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  if (problems.length) throw new ConfigError(problems);
  return values as VariableValues<Table>;
}

/**
 * The settings the documented environment variables give (an app passes its environment; the package never reads
 * it); throws a `ConfigError` naming each invalid variable. Unset variables give the defaults.
 */
export function settingsFromEnv(env: Record<string, string | undefined>): GatewayConfig {
  const values = readVariables(VARIABLES, env);
  const publicOrigin = new URL(values.GATEWAY_PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`).origin;
  return {
    port: values.PORT,
    publicOrigin,
    publicOriginConfigured: values.GATEWAY_PUBLIC_ORIGIN !== undefined,
    databaseFile: values.DATABASE_FILE ?? path.join(process.cwd(), 'data', 'gateway.db'),
    databaseUrl: values.DATABASE_URL,
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    jobs: { resultTtlMs: values.JOB_RESULT_TTL_MS, maxPerCaller: values.JOB_MAX_PER_CALLER, maxPerInstance: values.JOB_MAX_PER_INSTANCE },
    token: values.GATEWAY_TOKEN,
    oauth: values.OAUTH_ISSUER
      ? { issuer: values.OAUTH_ISSUER, audiences: values.OAUTH_AUDIENCE.length ? values.OAUTH_AUDIENCE : [`${publicOrigin}/api/mcp`] }
      : undefined,
    resource: values.OAUTH_AUDIENCE[0] ?? `${publicOrigin}/api/mcp`,
    resourceConfigured: values.OAUTH_AUDIENCE.length > 0,
    // 0.0.0.0 reaches this machine too (tools print it as the listen address); browsers reaching it from another
    // site are still stopped by the Origin check.
    allowedHostnames: [...localhostAllowedHostnames(), '0.0.0.0', ...values.GATEWAY_ALLOWED_HOSTS],
    allowedOriginHostnames: [
      ...localhostAllowedOrigins(),
      ...values.GATEWAY_ALLOWED_ORIGINS.map((origin) => (URL.canParse(origin) ? new URL(origin).hostname : origin)),
    ],
    trustProxy: values.GATEWAY_TRUST_PROXY,
    compress: values.GATEWAY_COMPRESS,
    mcpMaxBodyBytes: values.MCP_MAX_BODY_BYTES,
    restMaxBodyBytes: values.REST_MAX_BODY_BYTES,
    rateLimit: values.GATEWAY_RATE_LIMIT
      ? {
          perSecond: values.GATEWAY_RATE_LIMIT,
          burst: values.GATEWAY_RATE_LIMIT_BURST ?? Math.max(1, Math.ceil(2 * values.GATEWAY_RATE_LIMIT)),
        }
      : undefined,
    mcpMaxMediaBytes: values.MCP_MAX_MEDIA_BYTES,
    streams: { maxItems: values.MCP_STREAM_MAX_ITEMS, maxBytes: values.MCP_STREAM_MAX_BYTES },
    resultBudget: { tokens: values.MCP_RESULT_BUDGET_TOKENS, holdMs: values.MCP_RESULT_HOLD_SECONDS * 1000 },
    oversizeMedia: values.MCP_OVERSIZE_MEDIA as GatewayConfig['oversizeMedia'],
    confirmDestructive: values.MCP_CONFIRM_DESTRUCTIVE,
    stateSecret: values.GATEWAY_STATE_SECRET,
    sessions: {
      max: values.MCP_MAX_SESSIONS,
      maxPerCaller: values.MCP_MAX_SESSIONS_PER_CALLER,
      idleMs: values.MCP_SESSION_IDLE_SECONDS * 1000,
      relayAckTimeoutMs: values.MCP_RELAY_ACK_TIMEOUT_MS,
      heartbeatMs: values.MCP_SSE_HEARTBEAT_SECONDS * 1000,
    },
    subscriptions: { maxStreamsPerCaller: values.MCP_MAX_LISTEN_STREAMS_PER_CALLER, maxPerCaller: values.MCP_MAX_SUBSCRIPTIONS_PER_CALLER },
    tracing:
      values.OTEL_EXPORTER_OTLP_ENDPOINT || values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
        ? { serviceName: values.OTEL_SERVICE_NAME ?? 'vovk-mcp-gateway' }
        : undefined,
    mcpListMax: values.MCP_LIST_MAX,
    mcpListTtlMs: values.MCP_LIST_TTL_MS,
    codeMode: {
      wallMs: values.CODE_MODE_WALL_MS,
      memoryBytes: values.CODE_MODE_MEMORY_BYTES,
      maxCalls: values.CODE_MODE_MAX_CALLS,
      maxResultBytes: values.CODE_MODE_MAX_RESULT_BYTES,
      maxLogBytes: values.CODE_MODE_MAX_LOG_BYTES,
      workers: values.CODE_MODE_WORKERS,
      maxPerCaller: values.CODE_MODE_MAX_PER_CALLER,
    },
  };
}

/**
 * Any setting of the gateway, each optional: one not given keeps its default (the default of its documented variable).
 * `createMcpGateway`, `guardedSegment` and `configureGateway` take them.
 */
export type GatewaySettings = Partial<GatewayConfig>;

const configKey = Symbol.for('vovk-gateway.config');
type GlobalWithConfig = typeof globalThis & { [configKey]?: GatewayConfig };

/** The default of every setting (what an empty environment gives). */
const defaults = (): GatewayConfig => settingsFromEnv({});

/**
 * Sets this process's settings (shared by every route bundle of the server): each one given, the defaults for the
 * rest; an origin given without the resource (or without the flags saying it was set) derives them as the variables do.
 */
export function configureGateway(settings: GatewaySettings = {}): GatewayConfig {
  const base = defaults();
  const publicOrigin = settings.publicOrigin ? new URL(settings.publicOrigin).origin : base.publicOrigin;
  const resource = settings.resource ?? settings.oauth?.audiences[0] ?? `${publicOrigin}/api/mcp`;
  const configured: GatewayConfig = {
    ...base,
    ...settings,
    publicOrigin,
    publicOriginConfigured: settings.publicOriginConfigured ?? settings.publicOrigin !== undefined,
    resource,
    resourceConfigured: settings.resourceConfigured ?? (settings.resource !== undefined || settings.oauth !== undefined),
  };
  (globalThis as GlobalWithConfig)[configKey] = configured;
  return configured;
}

/** The settings of this process: what `configureGateway` set, else every default (never read from the environment). */
export function config(): GatewayConfig {
  const scope = globalThis as GlobalWithConfig;
  scope[configKey] ??= defaults();
  return scope[configKey];
}

/**
 * Runs `read` (settings read from the environment, at start); a `ConfigError` is reported, naming each variable, and
 * the process exits 1. For an app's own variables too.
 */
export function orExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${error.message}\nThe gateway did not start. See "Configuration" in the gateway's docs (docs/configuration.md).`);
    process.exit(1);
  }
}

/** Reads the gateway's settings from the documented variables when the server starts and sets them (exit 1 when invalid). */
export function configOrExit(env: Record<string, string | undefined>): GatewayConfig {
  return orExit(() => configureGateway(settingsFromEnv(env)));
}

/** True when the server runs as a production build (`NODE_ENV=production`, which Next.js sets and inlines). */
export function isProduction(): boolean {
  return process.env.NODE_ENV === 'production';
}

/** The Markdown table of one group of variables (the gateway's, or `table`), for the docs (a test keeps them in step). */
export function variablesTable(group: Variable['group'], table: VariableTable = VARIABLES): string {
  const rows = Object.entries(table)
    .filter(([, definition]) => definition.group === group)
    .map(([name, definition]) => `| \`${name}\` | ${definition.default} | ${definition.doc} |`);
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
