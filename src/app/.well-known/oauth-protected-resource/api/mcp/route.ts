// RFC 9728 protected-resource metadata of the MCP endpoint /api/mcp, which every 401 and 403 challenge names.
export { GET, OPTIONS } from '../../route';
