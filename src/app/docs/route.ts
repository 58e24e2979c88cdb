// GET /docs: Scalar's interactive reference of /api/openapi.json, with its script and everything else from this app.
import { ApiReference } from '@scalar/nextjs-api-reference';

export const GET = ApiReference({
  url: '/api/openapi.json',
  pageTitle: 'REST API · Vovk MCP gateway',
  favicon: '/icon.svg',
  cdn: '/docs/scalar.js', // served by ./scalar.js/route.ts
  // Nothing leaves this server: none of Scalar's web fonts, telemetry, request proxy, AI agent, hosted MCP generator or
  // developer tools.
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: '',
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
});
