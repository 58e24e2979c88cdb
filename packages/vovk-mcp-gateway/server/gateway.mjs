// @ts-check
// The gateway's HTTP entry for an app that wants it (`npx vovk-mcp-gateway start`, or `import 'vovk-mcp-gateway/server'`
// from the app's own entry): owns the http.Server, serves the app's Next.js build (in the working directory) through
// it, and hands the server to the graceful shutdown (the package's lifecycle.ts) before the app loads, so SIGTERM
// drains it. Options: [-p PORT] [-H HOST]; PORT and GATEWAY_COMPILE_CACHE=0 in the environment, as `next start` reads PORT.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { installCompileCache } from './compile-cache.mjs';

const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
  // `vovk-mcp-gateway start …` leaves its command word among the arguments.
  allowPositionals: true,
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
// Like `next start`: every interface unless a host is given.
const hostname = values.hostname;
process.env.NODE_ENV = 'production';
const dir = process.cwd();

/**
 * The build directory the app's Next.js config names (`distDir`), read from a next.config.mjs or .js without loading
 * Next.js (the code cache must be in place first); `.next` for a next.config.ts, or when the config names none.
 */
async function distDirOf(appDir) {
  const file = ['next.config.mjs', 'next.config.js'].map((name) => path.join(appDir, name)).find((candidate) => fs.existsSync(candidate));
  if (!file) return '.next';
  const exported = (await import(pathToFileURL(file).href)).default;
  const resolved = await (typeof exported === 'function' ? exported('phase-production-server', { defaultConfig: {} }) : exported);
  return resolved?.distDir ?? '.next';
}

const distDir = await distDirOf(dir);
// Before Next.js loads: its modules and the build's chunks come from the build's code cache (GATEWAY_COMPILE_CACHE=0: not).
const compileCacheFile = path.join(dir, distDir, 'compile-cache.bin');
const compileCache =
  process.env.GATEWAY_COMPILE_CACHE === '0'
    ? undefined
    : installCompileCache(compileCacheFile, {
        onWriteError: (message) => console.warn(`[gateway] The code cache ${compileCacheFile} cannot be written (${message}); starts go on without it (GATEWAY_COMPILE_CACHE=0 stops trying)`),
      });
const { default: next } = await import('next');

/**
 * Next.js drops a route's own Content-Encoding (a body it got by fetch may have been decoded). An answer the gateway
 * compressed itself (the package's http/compression-policy.ts) names its encoding in this header instead, which becomes its
 * Content-Encoding as Next.js writes the headers: Next.js's compression then leaves the answer alone, already encoded.
 */
const OWN_ENCODING_HEADER = 'x-gateway-content-encoding';
class GatewayResponse extends http.ServerResponse {
  /** @param {string} name @param {number | string | readonly string[]} value */
  setHeader(name, value) {
    return super.setHeader(name === OWN_ENCODING_HEADER ? 'content-encoding' : name, value);
  }
}
// Requests reach Next.js through this listener; the graceful shutdown wraps it (refusing requests while draining).
const server = http.createServer({ ServerResponse: GatewayResponse });
// Tells the app that answers may name their own encoding (under `next dev`, with no such entry, they do not).
/** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('vovk-gateway.own-encoding-header')] = OWN_ENCODING_HEADER;
// Node's default, stated because deploy/nginx.conf depends on it: nginx keeps idle upstream connections for less (4 s),
// so it closes them before the instance does and never sends a request on one being closed.
server.keepAliveTimeout = 5000;
// The one hand-over between this entry and the app: the package's lifecycle.ts reads it when the instrumentation runs.
/** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('vovk-gateway.http-server')] = server;

const app = next({ dev: false, dir, hostname: hostname ?? 'localhost', port, httpServer: server });
const handle = app.getRequestHandler();
server.on('request', (req, res) => void handle(req, res));
// The instrumentation (configuration check, store, graceful shutdown) runs here, before the port opens: a listening
// instance is a ready one.
await app.prepare();

// An app whose instrumentation installed no graceful shutdown gets it when its first gateway route loads (the package's
// lifecycle.ts replaces this handler then). A signal before that finds no gateway request to drain: the server stops
// accepting, lets what is in flight end (at most GRACE_BEFORE_INSTALL_MS), and the process exits 0.
const GRACE_BEFORE_INSTALL_MS = 10_000;
if (process.listenerCount('SIGTERM') === 0) {
  /** @param {NodeJS.Signals} signal */
  const beforeInstall = (signal) => {
    console.log(`[gateway] ${signal}: no gateway route loaded yet; closing the server`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), GRACE_BEFORE_INSTALL_MS).unref();
  };
  process.once('SIGTERM', beforeInstall);
  process.once('SIGINT', beforeInstall);
  /** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('vovk-gateway.entry-signal-handler')] = beforeInstall;
}
// A port already taken (or any other listen error) ends the process: a gateway that does not listen must not live on.
server.once('error', (error) => {
  console.error(`[gateway] Cannot listen on ${hostname ?? '*'}:${port}:`, error.message);
  process.exit(1);
});
server.listen(port, hostname, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address ? `${address.address}:${address.port}` : String(address);
  const cached = compileCache ? `; ${compileCache.fromCache} of ${compileCache.fromCache + compileCache.compiled} modules from the code cache` : '';
  console.log(`[gateway] Listening on ${shown} (the build in ${distDir}${cached})`);
});
