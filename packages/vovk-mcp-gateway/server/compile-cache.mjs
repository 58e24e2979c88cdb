// @ts-check
// A V8 code cache for the CommonJS modules the gateway loads (Next.js and the build's chunks), kept in one file of the
// build: what Node 22's module.enableCompileCache does, for Node 20, including the functions the first requests compiled.
import crypto from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';

/*
 * Why not the packages: v8-compile-cache (and its fork v8-compile-cache-lib) cache a script as compiled, before it ran,
 * which leaves out the functions V8 compiles lazily, most of the time of a first request (measured: a start with such
 * a cache is no faster than one without); they also break Next.js on Node 20 (a script compiled from cached data loses
 * its dynamic import() callback, and require() of an ES module's syntax throws). Here a module is compiled by Node itself
 * when it has an import( in it or is not CommonJS, and a script's cached data is taken after the requests ran.
 */

const MAGIC = 'GWCC1';
/** Node's CommonJS loader, whose internals (`_compile`, `_resolveFilename`, …) the hook takes the place of or calls. */
const loader = /** @type {any} */ (Module);
/** No module compiled for this long after one came without cached data: the cache is written (in slices). */
const QUIET_MS = 5000;

/**
 * @typedef {{ fromCache: number, compiled: number, byNode: number, rejected: number, writes: number }} CompileCacheStats
 * @typedef {{ sourceHash: string, data: Buffer }} StoredEntry
 */

/**
 * Makes every later `require()` of a CommonJS file use (and feed) the cache in `file`: the file's entries whose source
 * hash matches are handed to V8; a module compiled without one marks the cache stale, and it is written again once no
 * module has been compiled for a while and at exit. A missing, unreadable or damaged file is an empty cache; a write that
 * fails is told to `onWriteError` (once a process) and leaves the file as it was.
 * @param {string} file
 * @param {{ quietMs?: number, onWriteError?: (message: string) => void }} [options]
 * @returns {CompileCacheStats}
 */
export function installCompileCache(file, { quietMs = QUIET_MS, onWriteError = () => {} } = {}) {
  /** @type {CompileCacheStats} */
  const stats = { fromCache: 0, compiled: 0, byNode: 0, rejected: 0, writes: 0 };
  /** The file's entries not loaded yet: a write carries them over (an instance that never served a route keeps its entry). */
  const stored = readCacheFile(file);
  /** @type {Map<string, { sourceHash: string, script: vm.Script }>} */
  const scripts = new Map();
  let stale = false;
  /** @type {NodeJS.Timeout | undefined} */
  let quietTimer;
  let toldWriteError = false;
  /** @param {unknown} error */
  const writeFailed = (error) => {
    if (toldWriteError) return;
    toldWriteError = true;
    onWriteError(error instanceof Error ? error.message : String(error));
  };

  /**
   * Puts each loaded script's data as it is now into `entries`, one script a step (so a write can pause between them).
   * @param {Map<string, StoredEntry>} entries
   */
  function* collect(entries) {
    for (const [filename, { sourceHash, script }] of [...scripts]) {
      entries.set(filename, { sourceHash, data: script.createCachedData() });
      yield;
    }
  }
  /**
   * Writes `entries` next to the file, then renames it into place: several instances of one build may write at once,
   * and a reader sees a whole file or the one before. A failure leaves the file as it was.
   * @param {Map<string, StoredEntry>} entries
   */
  const writeFile = (entries) => {
    const temporary = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(temporary, encode(entries));
      fs.renameSync(temporary, file);
      stats.writes += 1;
    } catch (error) {
      writeFailed(error);
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // Never written (its directory may be what failed), or not this process's to remove.
      }
    }
  };
  const markStale = () => {
    stale = true;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => void writeInSlices(), quietMs).unref();
  };
  let collecting = false;
  /** Collects without holding the event loop (one script's data a turn), then writes. */
  const writeInSlices = async () => {
    if (collecting || !stale) return;
    collecting = true;
    stale = false;
    const entries = new Map(stored);
    try {
      for (const _ of collect(entries)) await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      writeFailed(error);
      return;
    } finally {
      collecting = false;
    }
    writeFile(entries);
    if (stale) markStale();
  };
  // At exit (a graceful shutdown ends with process.exit), what is not written yet is written at once; a collection cut
  // off by the exit is done again here.
  process.once('exit', () => {
    if (!stale && !collecting) return;
    const entries = new Map(stored);
    try {
      for (const _ of collect(entries));
    } catch (error) {
      writeFailed(error); // never an exception at exit: the process's exit code stays its own
      return;
    }
    writeFile(entries);
  });

  const compileByNode = loader.prototype._compile;
  /**
   * @this {Module & { exports: unknown }}
   * @param {string} content @param {string} filename @param {string} [format]
   */
  function compileWithCache(content, filename, format) {
    // Node's own compile for: ES modules; a dynamic import() (a script made from cached data loses its import callback on
    // Node 20); source maps turned on (Node reads a module's map as it compiles it).
    const byNode = (format !== undefined && format !== 'commonjs') || !(filename.endsWith('.js') || filename.endsWith('.cjs')) || process.sourceMapsEnabled || /\bimport\s*\(/.test(content);
    if (byNode) {
      stats.byNode += 1;
      return compileByNode.call(this, content, filename, format);
    }
    const sourceHash = crypto.createHash('sha256').update(content).digest('base64url');
    const entry = stored.get(filename);
    // Each entry is a copy of its own: once V8 has it, it is dropped (the cache file's bytes are not kept whole).
    stored.delete(filename);
    const cachedData = entry?.sourceHash === sourceHash ? entry.data : undefined;
    /** @type {vm.Script} */
    let script;
    try {
      script = new vm.Script(Module.wrap(content), { filename, cachedData });
    } catch (error) {
      // ES module syntax in a .js file that require() loads (Node's require(esm)), or a real syntax error: Node's own
      // compile handles both as it would without the cache.
      if (error instanceof SyntaxError) {
        stats.byNode += 1;
        return compileByNode.call(this, content, filename, format);
      }
      throw error;
    }
    if (cachedData && !script.cachedDataRejected) stats.fromCache += 1;
    else {
      if (cachedData) stats.rejected += 1;
      stats.compiled += 1;
      markStale();
    }
    scripts.set(filename, { sourceHash, script });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  }
  loader.prototype._compile = compileWithCache;
  return stats;
}

/**
 * The `require` a module gets, as Node builds it (lib/internal/modules/helpers.js makeRequireFunction).
 * @param {Module} mod
 */
function requireFor(mod) {
  /** @param {string} id */
  const require = (id) => mod.require(id);
  /** @param {string} request @param {{ paths?: string[] }} [options] */
  const resolve = (request, options) => loader._resolveFilename(request, mod, false, options);
  /** @param {string} request */
  resolve.paths = (request) => loader._resolveLookupPaths(request, mod);
  return Object.assign(require, { resolve, main: process.mainModule, extensions: loader._extensions, cache: loader._cache });
}

/*
 * The file: MAGIC, the CRC-32 of what follows (4 bytes), the index's length (4 bytes), the index (JSON: Node's version
 * and [filename, source hash, length] per entry), then the entries' data one after another.
 */

/**
 * @param {string} file
 * @returns {Map<string, StoredEntry>}
 */
function readCacheFile(file) {
  /** @type {Map<string, StoredEntry>} */
  const entries = new Map();
  try {
    const bytes = fs.readFileSync(file);
    const head = MAGIC.length;
    if (bytes.toString('latin1', 0, head) !== MAGIC || bytes.readUInt32LE(head) !== zlib.crc32(bytes.subarray(head + 4))) return entries;
    const indexLength = bytes.readUInt32LE(head + 4);
    const index = JSON.parse(bytes.toString('utf8', head + 8, head + 8 + indexLength));
    if (index.node !== process.version || index.arch !== process.arch) return entries;
    let offset = head + 8 + indexLength;
    for (const [filename, sourceHash, length] of index.entries) {
      entries.set(filename, { sourceHash, data: Buffer.from(bytes.subarray(offset, offset + length)) });
      offset += length;
    }
  } catch {
    // No cache yet, or one this process cannot read: every module compiles as without it.
  }
  return entries;
}

/**
 * @param {Map<string, StoredEntry>} entries
 * @returns {Buffer}
 */
function encode(entries) {
  const list = [...entries];
  const index = Buffer.from(JSON.stringify({ node: process.version, arch: process.arch, entries: list.map(([filename, { sourceHash, data }]) => [filename, sourceHash, data.length]) }));
  const indexLength = Buffer.alloc(4);
  indexLength.writeUInt32LE(index.length);
  const body = Buffer.concat([indexLength, index, ...list.map(([, { data }]) => data)]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(zlib.crc32(body));
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), crc, body]);
}
