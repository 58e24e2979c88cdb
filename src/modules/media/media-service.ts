// Media the app serves itself (files under public/media) and the guarded fetch of audio by URL.
import fs from 'node:fs/promises';
import path from 'node:path';
import { HttpException, HttpStatus } from 'vovk';
import { config } from 'vovk-mcp-gateway';
import { appSettings } from '@/lib/settings';

/** Public path (and file under public/) of each sample asset. */
export const MEDIA_ASSETS = {
  png: '/media/sample.png',
  jpeg: '/media/sample.jpg',
  mp3: '/media/sample.mp3',
} as const;

const UPSTREAM_TIMEOUT_MS = 10_000;

export default class MediaService {
  /** The bytes of one of the app's own sample assets. */
  static async readAsset(asset: keyof typeof MEDIA_ASSETS): Promise<Uint8Array<ArrayBuffer>> {
    const file = path.join(process.cwd(), 'public', MEDIA_ASSETS[asset]);
    return new Uint8Array(await fs.readFile(file));
  }

  /** The default audio URL: the sample MP3 this same app serves. */
  static defaultAudioURL(): string {
    return new URL(MEDIA_ASSETS.mp3, config().publicOrigin).href;
  }

  /**
   * Fetches a media URL, but only from an allowed origin and never from an API route, so the tool cannot be used
   * to make the server request arbitrary addresses. Redirects are refused for the same reason.
   */
  static async fetchAllowed(rawURL: string): Promise<Response> {
    const url = URL.canParse(rawURL) ? new URL(rawURL) : null;
    if (!url || !['http:', 'https:'].includes(url.protocol)) {
      throw new HttpException(HttpStatus.BAD_REQUEST, `Not an http(s) URL: ${rawURL}`);
    }
    const allowed = appSettings().mediaAllowedOrigins;
    if (!allowed.includes(url.origin) || url.pathname.startsWith('/api/')) {
      throw new HttpException(
        HttpStatus.FORBIDDEN,
        `URL not allowed: ${url.origin}${url.pathname}. Media may only be fetched from: ${allowed.join(', ')} (not from /api/ routes)`,
      );
    }
    let upstream: Response;
    try {
      upstream = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
    } catch {
      throw new HttpException(HttpStatus.BAD_GATEWAY, `Could not fetch ${url.href}`);
    }
    // Pass on only the body, status and media type: never the upstream's other headers (encodings, cookies).
    const contentType = upstream.headers.get('content-type');
    return new Response(upstream.body, {
      status: upstream.status,
      headers: contentType ? { 'Content-Type': contentType } : {},
    });
  }
}
