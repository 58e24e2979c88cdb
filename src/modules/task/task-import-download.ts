// Downloads an import's CSV from an allowed origin as a stream: each redirect hop checked, an idle timeout, a byte limit.
import { HttpException, HttpStatus } from 'vovk';
import { WorkCancelled } from 'vovk-mcp-gateway';

/** What a download may do: where from, how much, how long without a byte. */
export interface DownloadLimits {
  /** Origins (`scheme://host[:port]`) the URL, and every redirect, may point to (IMPORT_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /** Most bytes read (IMPORT_MAX_BYTES). */
  maxBytes: number;
  /** Longest wait for the answer or for the next bytes, in ms (IMPORT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
}

/** Redirects followed at most; each one's target must be allowed too. */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The URL when it is http(s) and its origin is allowed; else a 400 naming IMPORT_ALLOWED_ORIGINS. */
export function allowedUrl(raw: string, allowedOrigins: string[], redirectedFrom?: URL): URL {
  const url = URL.canParse(raw, redirectedFrom?.href) ? new URL(raw, redirectedFrom) : undefined;
  const refused = (shown: string, why: string) => {
    const message = redirectedFrom ? `The CSV URL redirects to ${shown}, which ${why}` : `The CSV URL ${shown} ${why}`;
    return new HttpException(HttpStatus.BAD_REQUEST, message);
  };
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw refused(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw, 'is not an http(s) URL');
  }
  if (allowedOrigins.includes(url.origin)) return url;
  const listed = allowedOrigins.length ? `it lists ${allowedOrigins.join(', ')}` : 'it is empty';
  throw refused(url.origin, `is not allowed: its origin is not listed in IMPORT_ALLOWED_ORIGINS (${listed})`);
}

/** The error `413` of an import over one of its limits. */
export function overLimit(what: string, limit: number, variable: string): HttpException {
  return new HttpException(
    HttpStatus.PAYLOAD_TOO_LARGE,
    `Too large: an import may hold at most ${limit.toLocaleString('en-US')} ${what} (${variable}); nothing was imported`,
  );
}

/**
 * Aborts a signal when what it watches (the answer, the next chunk) takes longer than `ms`; not armed between (a
 * download waiting for its reader to take more is not idle).
 */
class IdleWatch {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;

  constructor(
    private readonly ms: number,
    private readonly url: URL,
    private readonly cancel: AbortSignal,
  ) {}

  /** Runs `step` under the timeout; its failure becomes the 504 of the timeout, a WorkCancelled or a 502. */
  async watch<T>(step: () => Promise<T>, failed: string): Promise<T> {
    const timer = setTimeout(() => this.controller.abort(), this.ms);
    try {
      return await step();
    } catch (error) {
      if (this.cancel.aborted) throw new WorkCancelled(this.cancel.reason);
      if (this.signal.aborted) {
        const silence = `${this.url.origin} sent nothing for ${this.ms} ms (IMPORT_IDLE_TIMEOUT_MS)`;
        throw new HttpException(HttpStatus.GATEWAY_TIMEOUT, `${silence}: the import stopped, nothing was imported`);
      }
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new HttpException(HttpStatus.BAD_GATEWAY, `${failed} ${this.url.href}: ${cause}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Fetches `url` following at most MAX_REDIRECTS redirects by hand, each to an allowed origin; the final answer. */
async function fetchAllowed(
  url: URL,
  limits: DownloadLimits,
  cancel: AbortSignal,
): Promise<{ response: Response; idle: IdleWatch }> {
  for (let hops = 0; ; hops++) {
    const idle = new IdleWatch(limits.idleTimeoutMs, url, cancel);
    const signal = AbortSignal.any([cancel, idle.signal]);
    const response = await idle.watch(() => fetch(url, { redirect: 'manual', signal }), 'Could not fetch');
    if (!REDIRECT_STATUSES.has(response.status)) return { response, idle };
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (hops === MAX_REDIRECTS || location === null) {
      const why =
        location === null ? `answered ${response.status} without a Location` : `redirected more than ${MAX_REDIRECTS} times`;
      throw new HttpException(HttpStatus.BAD_GATEWAY, `The CSV URL ${why}: nothing was imported`);
    }
    url = allowedUrl(location, limits.allowedOrigins, url);
  }
}

/**
 * The CSV at `rawUrl`, chunk by chunk as it arrives (`onBytes` hears the total so far). Only from an allowed origin
 * (400 otherwise, redirects included), a 2xx answer (else 502 naming its status), never more than `maxBytes` (413, read
 * no further), never `idleTimeoutMs` without a byte (504); `cancel` aborting stops it with WorkCancelled.
 */
export async function* downloadCsv(
  rawUrl: string,
  limits: DownloadLimits,
  cancel: AbortSignal,
  onBytes: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const { response, idle } = await fetchAllowed(allowedUrl(rawUrl, limits.allowedOrigins), limits, cancel);
  if (!response.ok) {
    await response.body?.cancel();
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new HttpException(HttpStatus.BAD_GATEWAY, `The CSV URL answered HTTP ${status}: nothing was imported`);
  }
  const tooLarge = () => overLimit('bytes', limits.maxBytes, 'IMPORT_MAX_BYTES');
  if (Number(response.headers.get('content-length') ?? 0) > limits.maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return;
  const reader = response.body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const chunk = await idle.watch(() => reader.read(), 'Could not read');
      if (chunk.done) return;
      bytes += chunk.value.byteLength;
      if (bytes > limits.maxBytes) throw tooLarge();
      onBytes(bytes);
      yield chunk.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
