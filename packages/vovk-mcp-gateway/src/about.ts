// The gateway's name and version, as MCP serverInfo and the OpenAPI document state them (the package's own; a unit
// test holds them equal to its package.json).
import 'server-only';

export const GATEWAY_NAME = 'vovk-mcp-gateway';
export const GATEWAY_TITLE = 'Vovk MCP gateway';
export const GATEWAY_VERSION = '0.1.0';
