// REST + MCP procedures of the media module: a PNG, an MP3 download, and audio fetched from an allowed URL.
import { get, operation, prefix, procedure, toDownloadResponse } from 'vovk';
import { z } from 'zod';
import MediaService from './media-service';
import { resource } from 'vovk-mcp-gateway';
import { STATIC_TTL_MS } from '@/lib/resource-freshness';

@prefix('media')
export default class MediaController {
  @operation({
    summary: 'Get image',
    description: 'Returns a small PNG image (128×96) served by this app.',
  })
  @get('image')
  @resource({ mimeType: 'image/png', ttlMs: STATIC_TTL_MS })
  static getImage = procedure().handle(async () => {
    return new Response(await MediaService.readAsset('png'), {
      headers: { 'Content-Type': 'image/png' },
    });
  });

  @operation({
    summary: 'Get audio',
    description: 'Returns a short MP3 recording (a spoken greeting) served by this app.',
  })
  @get('audio')
  @resource({ mimeType: 'audio/mpeg', ttlMs: STATIC_TTL_MS })
  static getAudio = procedure().handle(async () => {
    return toDownloadResponse(await MediaService.readAsset('mp3'), { type: 'audio/mpeg' });
  });

  @operation({
    summary: 'Get audio from a URL',
    description:
      "Fetches audio from a URL and returns it. Without a URL it fetches this app's own sample MP3. " +
      'Only URLs on the configured allowed origins are fetched; any other URL is refused with 403.',
  })
  @get('from-url')
  static getAudioFromURL = procedure({
    query: z
      .object({
        url: z
          .string()
          .optional()
          .meta({ description: "Absolute URL of the audio to fetch; defaults to this app's sample MP3" }),
      })
      .meta({ description: 'Query parameters' }),
  }).handle(async (req) => {
    const { url } = req.vovk.query();
    return MediaService.fetchAllowed(url ?? MediaService.defaultAudioURL());
  });
}
