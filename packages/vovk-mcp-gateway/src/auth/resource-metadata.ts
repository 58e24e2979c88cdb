// The gateway's OAuth 2.0 Protected Resource Metadata (RFC 9728): its resource, its authorization server, its scopes.
import 'server-only';
import { metadataCorsOptionsRequestHandler } from 'mcp-handler';
import { GATEWAY_TITLE } from '../about.js';
import { config } from '../config.js';
import { ALL_SCOPES } from '../shared/scope-names.js';
import { resourceUrl } from './challenges.js';

/**
 * The metadata route's handlers: GET the document, OPTIONS for browsers' CORS preflight. `declaredScopes` are the
 * scopes procedures declare with `@scopes`, advertised beside the gateway's three.
 */
export function resourceMetadataRoute(declaredScopes: string[]) {
  return {
    GET: (req: Request) => {
      const { oauth } = config();
      return Response.json(
        {
          resource: resourceUrl(req.headers),
          authorization_servers: oauth ? [oauth.issuer] : [],
          scopes_supported: [...new Set([...ALL_SCOPES, ...declaredScopes])],
          bearer_methods_supported: ['header'],
          resource_name: GATEWAY_TITLE,
        },
        { headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=300' } },
      );
    },
    OPTIONS: metadataCorsOptionsRequestHandler(),
  };
}
