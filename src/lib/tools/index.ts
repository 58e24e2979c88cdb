// The project's tool formatting API: the seed's snippets work with `@/lib/tools` as their import path.
export { ToModelOutput } from './to-model-output';
export { standardTool, withFormattedOutput, type StandardTool } from './standard-tool';
export { applyMcpOutputMeta, type McpOutputMeta } from './to-model-output-mcp';
export { INTERNAL_ERROR_MESSAGE, maskErrorForRest, toPublicError, type PublicError } from './public-error';
export { currentToolCall, runInToolCall, type ToolCallContext } from './tool-call-context';
export { essenceOf, kindOf, type MediaKind } from './media-type';
