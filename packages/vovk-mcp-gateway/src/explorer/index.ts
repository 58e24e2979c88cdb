// The package's explorer entry ("vovk-mcp-gateway/explorer"): the tool explorer an app mounts with one page file, and
// the OAuth session controls its pages share.
export { Explorer } from './explorer.js';
export { SessionBadge, SignInPanel } from './oauth-session.js';
