// The reference app's settings: the gateway's, from its documented variables (README "Configuration") by the package's
// helper, and the demo's own (its media and task import, the test build's extras), declared here with the package's
// variable machinery. An invalid variable throws a ConfigError naming it; the instrumentation reads both first when the
// server starts and exits 1 on one.
import { readVariables, settingsFromEnv, variable, variableSchemas } from 'vovk-mcp-gateway';

const { list, url, originOnly, wholeNumber, byteCount, flag } = variableSchemas;

export const gatewaySettings = settingsFromEnv(process.env);

/** The demo's own variables, by name (documented beside the gateway's; their order is the docs' order). */
export const APP_VARIABLES = {
  MEDIA_ALLOWED_ORIGINS: variable({
    group: 'server',
    schema: list(url('an origin'), 'comma-separated origins such as https://media.example.com'),
    default: "this server's own origin (`localhost` and `127.0.0.1`)",
    doc: 'Comma-separated origins `getAudioFromURL` may fetch from. Anything else is refused with 403; redirects and `/api/` URLs are refused too.',
  }),
  IMPORT_ALLOWED_ORIGINS: variable({
    group: 'server',
    schema: list(originOnly('an origin'), 'comma-separated origins such as https://files.example.com'),
    default: 'none',
    doc: 'Comma-separated origins (`scheme://host[:port]`) `TaskController_importTasks` may fetch a CSV `url` from; any other URL is refused with 400. A listed origin is allowed even on a loopback or private address; a redirect is followed only to a listed origin (at most 5).',
  }),
  IMPORT_MAX_ROWS: variable({
    group: 'server',
    schema: wholeNumber(100_000, 'rows', 1),
    default: '`100000`',
    doc: 'Most rows one task import may hold (`rows`, `csv` or `url`); more get 413 (a URL is read no further).',
  }),
  IMPORT_MAX_BYTES: variable({
    group: 'server',
    schema: byteCount(50 * 1024 * 1024),
    default: '`52428800` (50 MiB)',
    doc: 'Largest CSV one task import may read, in bytes (`csv` text or the body of a `url`); larger gets 413 (a URL is read no further). Inline `rows` and `csv` are first bounded by `REST_MAX_BODY_BYTES` / `MCP_MAX_BODY_BYTES`: import large files by `url`.',
  }),
  IMPORT_IDLE_TIMEOUT_MS: variable({
    group: 'server',
    schema: wholeNumber(30_000, 'milliseconds', 1, 3_600_000),
    default: '`30000`',
    doc: 'A task import from a `url` fails (504) when the server it reads from sends no byte for this long (ms), waiting for its answer included; there is no limit on the whole download.',
  }),
  MCP_CONFORMANCE: variable({
    group: 'testing',
    schema: flag,
    default: '`0`',
    doc: 'Test build only: `1` adds the MCP conformance suite’s fixture tools, resources, prompts and logging capability (`npm run conformance` sets it).',
  }),
  GATEWAY_BENCHMARK: variable({
    group: 'testing',
    schema: flag,
    default: '`0`',
    doc: 'Test build only: `1` adds the benchmark’s large-image procedure (`npm run bench` sets it).',
  }),
  GATEWAY_BENCHMARK_TOOLS: variable({
    group: 'testing',
    schema: wholeNumber(0, 'tools', 0, 10_000),
    default: '`0`',
    doc: 'Test build only: how many generated `bench_tool_N` tools to add (`npm run bench` sets it for its large-catalogue server).',
  }),
  GATEWAY_CATALOGUE_PROCEDURES: variable({
    group: 'testing',
    schema: wholeNumber(0, 'procedures', 0, 5_000),
    default: '`0`',
    doc: 'Test build only: how many procedures of the generated large catalogue to add (20 per module, over realistic overlapping domains: contacts, invoices, shipments, tickets…), for toolsets and tool search at scale.',
  }),
};

/** The demo's own settings. */
export interface AppSettings {
  /** The origins `getAudioFromURL` may fetch from. */
  mediaAllowedOrigins: string[];
  /** Task imports: the origins a CSV `url` may come from, and the bounds of one import. */
  taskImport: { allowedOrigins: string[]; maxRows: number; maxBytes: number; idleTimeoutMs: number };
  /** Test build only: the conformance suite's resources, prompts and tools. */
  conformanceFixtures: boolean;
  /** Test build only: the benchmark's procedures. */
  benchmark: boolean;
  /** Test build only: how many generated tools to add. */
  benchmarkExtraTools: number;
  /** Test build only: how many procedures of the generated large catalogue to add. */
  catalogueProcedures: number;
}

/** The demo's settings from `env`; the media origins default to this server's own (its public origin, localhost). */
export function appSettingsFromEnv(env: Record<string, string | undefined>): AppSettings {
  const values = readVariables(APP_VARIABLES, env);
  const { port, publicOrigin } = settingsFromEnv(env);
  const ownOrigins = [publicOrigin, `http://localhost:${port}`, `http://127.0.0.1:${port}`];
  return {
    mediaAllowedOrigins: values.MEDIA_ALLOWED_ORIGINS.length
      ? values.MEDIA_ALLOWED_ORIGINS.map((origin) => new URL(origin).origin)
      : [...new Set(ownOrigins)],
    taskImport: {
      allowedOrigins: values.IMPORT_ALLOWED_ORIGINS.map((origin) => new URL(origin).origin),
      maxRows: values.IMPORT_MAX_ROWS,
      maxBytes: values.IMPORT_MAX_BYTES,
      idleTimeoutMs: values.IMPORT_IDLE_TIMEOUT_MS,
    },
    conformanceFixtures: values.MCP_CONFORMANCE,
    benchmark: values.GATEWAY_BENCHMARK,
    benchmarkExtraTools: values.GATEWAY_BENCHMARK_TOOLS,
    catalogueProcedures: values.GATEWAY_CATALOGUE_PROCEDURES,
  };
}

let settings: AppSettings | undefined;

/** The demo's settings of this process (read from its environment once). */
export function appSettings(): AppSettings {
  settings ??= appSettingsFromEnv(process.env);
  return settings;
}
