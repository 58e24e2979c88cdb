// The gateway's name and version, as MCP serverInfo and the OpenAPI document state them (version from package.json).
import 'server-only';
import packageJson from '../../package.json';

export const GATEWAY_NAME = packageJson.name;
export const GATEWAY_TITLE = 'Vovk MCP gateway';
export const GATEWAY_VERSION = packageJson.version;
