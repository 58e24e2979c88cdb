// The project's tool formatting API (rules: docs/mcp-formatting.md); the seed's snippets work with `@/lib/tools`.
import 'server-only';
export { ToModelOutput } from './to-model-output.js';
export { createMcpFormatter, type McpFormatter, type McpFormatterOptions } from './to-model-output-mcp.js';
export { standardTool, withFormattedOutput, type StandardTool } from './standard-tool.js';
export { DetailedHttpException, INTERNAL_ERROR_MESSAGE, maskErrorForRest, withErrorDetails } from './public-error.js';
