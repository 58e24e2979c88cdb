// Unit tests of the configuration, the gateway's variables and the reference app's own: defaults with nothing set, each
// invalid value named, docs/configuration.md in step with both tables, the package reading no environment.
import fs from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, config, configureGateway, readVariables, settingsFromEnv, VARIABLES, variablesTable } from '@gateway/config';
import { APP_VARIABLES, appSettingsFromEnv } from '@/lib/settings';

/** Every documented variable: the gateway's, then the app's. */
const ALL_VARIABLES = { ...VARIABLES, ...APP_VARIABLES };

/** The problems reading `env` reports (both tables), or [] when it is valid. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    readVariables(ALL_VARIABLES, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('configuration', () => {
  test('nothing set: the embedded defaults', () => {
    const config = settingsFromEnv({});
    expect(config).toMatchObject({
      port: 3000,
      publicOrigin: 'http://localhost:3000',
      databaseUrl: undefined,
      token: undefined,
      trustProxy: false,
      mcpMaxBodyBytes: 1024 * 1024,
      mcpMaxMediaBytes: 4 * 1024 * 1024,
      oversizeMedia: 'error',
      tracing: undefined,
    });
    expect(appSettingsFromEnv({})).toEqual({
      mediaAllowedOrigins: ['http://localhost:3000', 'http://127.0.0.1:3000'],
      taskImport: { allowedOrigins: [], maxRows: 100_000, maxBytes: 50 * 1024 * 1024, idleTimeoutMs: 30_000 },
      conformanceFixtures: false,
      benchmark: false,
      benchmarkExtraTools: 0,
      catalogueProcedures: 0,
    });
    expect(config.databaseFile).toMatch(/data[/\\]gateway\.db$/);
    expect(config.allowedHostnames).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']));
  });

  test('values given are parsed into their types', () => {
    const env = {
      PORT: '4000',
      GATEWAY_PUBLIC_ORIGIN: 'https://gateway.example.com/some/path',
      MEDIA_ALLOWED_ORIGINS: 'https://media.example.com/x, http://cdn.example.com:8080',
      GATEWAY_ALLOWED_HOSTS: 'gateway.example.com',
      GATEWAY_ALLOWED_ORIGINS: 'https://app.example.com,tools.example.com',
      GATEWAY_TRUST_PROXY: '1',
      MCP_MAX_BODY_BYTES: '2048',
      MCP_OVERSIZE_MEDIA: 'resource_link',
      DATABASE_URL: 'postgres://user:secret@127.0.0.1:5432/gateway',
      IMPORT_ALLOWED_ORIGINS: 'https://files.example.com, http://127.0.0.1:8080/',
      IMPORT_MAX_ROWS: '500',
      IMPORT_MAX_BYTES: '1048576',
      IMPORT_IDLE_TIMEOUT_MS: '250',
    };
    const config = settingsFromEnv(env);
    expect(appSettingsFromEnv(env)).toMatchObject({
      taskImport: {
        allowedOrigins: ['https://files.example.com', 'http://127.0.0.1:8080'],
        maxRows: 500,
        maxBytes: 1024 * 1024,
        idleTimeoutMs: 250,
      },
      mediaAllowedOrigins: ['https://media.example.com', 'http://cdn.example.com:8080'],
    });
    expect(config).toMatchObject({
      port: 4000,
      publicOrigin: 'https://gateway.example.com',
      trustProxy: true,
      mcpMaxBodyBytes: 2048,
      oversizeMedia: 'resource_link',
      databaseUrl: 'postgres://user:secret@127.0.0.1:5432/gateway',
    });
    expect(config.allowedHostnames).toContain('gateway.example.com');
    expect(config.allowedOriginHostnames).toEqual(expect.arrayContaining(['app.example.com', 'tools.example.com']));
  });

  test.each([
    ['MCP_MAX_BODY_BYTES', 'abc', /positive whole number of bytes/],
    ['MCP_MAX_BODY_BYTES', '-5', /positive whole number of bytes/],
    ['MCP_MAX_MEDIA_BYTES', '1.5', /positive whole number of bytes/],
    ['MEDIA_ALLOWED_ORIGINS', 'not-a-url', /origin/],
    ['MEDIA_ALLOWED_ORIGINS', 'https://ok.example.com,ftp://files.example.com', /http or https URL/],
    ['GATEWAY_PUBLIC_ORIGIN', 'localhost:3000', /http or https URL/],
    ['PORT', 'abc', /port number/],
    ['PORT', '70000', /65535/],
    ['DATABASE_URL', 'mysql://db/gateway', /PostgreSQL URL/],
    ['GATEWAY_TRUST_PROXY', 'yes', /expected 1 \(on\) or 0 \(off\)/],
    ['MCP_OVERSIZE_MEDIA', 'link', /expected error or resource_link/],
    ['GATEWAY_ALLOWED_HOSTS', 'http://evil.example.com/', /host names/],
    ['GATEWAY_BENCHMARK_TOOLS', 'many', /whole number of tools/],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318', /http or https URL/],
    ['IMPORT_ALLOWED_ORIGINS', 'https://files.example.com/exports', /scheme:\/\/host\[:port\] \(no path\)/],
    ['IMPORT_ALLOWED_ORIGINS', 'files.example.com', /http or https URL/],
    ['IMPORT_MAX_ROWS', '0', /whole number of rows/],
    ['IMPORT_MAX_BYTES', '50MiB', /positive whole number of bytes/],
    ['IMPORT_IDLE_TIMEOUT_MS', 'soon', /whole number of milliseconds/],
  ])('%s=%s is refused, naming the variable and what it expects', (name, value, expects) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${name}=${JSON.stringify(value)}`);
    expect(problems[0]).toMatch(expects);
  });

  test('an OTLP endpoint turns tracing on, under the default service name or OTEL_SERVICE_NAME', () => {
    expect(settingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).tracing).toEqual({ serviceName: 'vovk-mcp-gateway' });
    expect(settingsFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces', OTEL_SERVICE_NAME: 'gw' }).tracing).toEqual({
      serviceName: 'gw',
    });
  });

  test('every invalid variable is reported at once', () => {
    expect(problemsOf({ MCP_MAX_BODY_BYTES: 'abc', MEDIA_ALLOWED_ORIGINS: 'not-a-url' }).map((problem) => problem.split('=')[0])).toEqual([
      'MCP_MAX_BODY_BYTES',
      'MEDIA_ALLOWED_ORIGINS',
    ]);
  });

  test('docs/configuration.md documents every variable exactly as the schemas do', () => {
    const page = fs.readFileSync('docs/configuration.md', 'utf8');
    for (const group of ['server', 'security', 'testing'] as const) expect(page).toContain(variablesTable(group, ALL_VARIABLES));
    const documented = Object.keys(ALL_VARIABLES).filter((name) => page.includes(`| \`${name}\` |`));
    expect(documented).toEqual(Object.keys(ALL_VARIABLES));
  });

  test("the package reads no process.env (Next.js build constants aside): only the app's settings and start do", () => {
    const readers = ['src', 'packages/vovk-mcp-gateway/src']
      .flatMap((dir) => (fs.readdirSync(dir, { recursive: true }) as string[]).map((file) => `${dir}/${file}`))
      .filter((file) => /\.tsx?$/.test(file))
      .filter((file) => /process\.env(?!\.(NODE_ENV|NEXT_RUNTIME)\b)/.test(fs.readFileSync(file, 'utf8')));
    expect(readers).toEqual(['src/instrumentation.ts', 'src/lib/settings.ts']);
  });
});

describe('settings given as options (the package never reads the environment)', () => {
  afterEach(() => {
    configureGateway();
    delete process.env.MCP_LIST_MAX;
  });

  test('a setting given is kept, every other one is its default', () => {
    configureGateway({ mcpListMax: 7, streams: { maxItems: 5, maxBytes: 100 } });
    expect(config().mcpListMax).toBe(7);
    expect(config().streams).toEqual({ maxItems: 5, maxBytes: 100 });
    expect(config().mcpMaxBodyBytes).toBe(settingsFromEnv({}).mcpMaxBodyBytes);
  });

  test('a variable in process.env changes nothing unless the app maps it with settingsFromEnv', () => {
    process.env.MCP_LIST_MAX = '3';
    expect(configureGateway({}).mcpListMax).toBe(settingsFromEnv({}).mcpListMax);
    expect(configureGateway(settingsFromEnv(process.env)).mcpListMax).toBe(3);
  });

  test('a public origin given is the one tokens and URLs name, and wins over forwarded headers', () => {
    const configured = configureGateway({ publicOrigin: 'https://gateway.example.com/ignored-path' });
    expect(configured).toMatchObject({
      publicOrigin: 'https://gateway.example.com',
      publicOriginConfigured: true,
      resource: 'https://gateway.example.com/api/mcp',
      resourceConfigured: false,
    });
  });
});
