// REST + MCP procedures that answer in text types: a plain-text greeting and an RSS (XML) feed.
import { get, operation, prefix, procedure } from 'vovk';
import TextService from './text-service';
import { resource } from 'vovk-mcp-gateway';
import { STATIC_TTL_MS } from '@/lib/resource-freshness';

@prefix('text')
export default class TextController {
  @operation({
    summary: 'Get greeting',
    description: 'Returns the plain-text greeting "Hello, world!".',
  })
  @get('greeting')
  @resource({ mimeType: 'text/plain', ttlMs: STATIC_TTL_MS })
  static getGreeting = procedure().handle(() => {
    return new Response(TextService.greeting(), {
      headers: { 'Content-Type': 'text/plain' },
    });
  });

  @operation({
    summary: 'Get feed',
    description: "Returns the gateway's news as an RSS 2.0 feed (application/rss+xml).",
  })
  @get('feed')
  @resource({ mimeType: 'application/rss+xml', ttlMs: STATIC_TTL_MS })
  static getFeed = procedure().handle(() => {
    return new Response(TextService.feed(), {
      headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' },
    });
  });
}
