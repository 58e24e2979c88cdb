// The package's browser entry ("vovk-mcp-gateway/browser"): the REST client's fetcher (the page's token or OAuth
// session on every request), the OAuth sign-in's completion, and what an MCP App's host forwards.
export { completeSignIn } from './oauth.js';
export { fetcher } from './rest-fetcher.js';
export { isUnauthorized } from './token.js';
export { forwardsResourceUpdates } from '../shared/app-resource-updates.js';
export { RESOURCE_TOOL_META_KEY } from '../shared/resource-meta.js';
