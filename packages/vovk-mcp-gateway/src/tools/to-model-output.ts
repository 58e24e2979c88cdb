// The project's ToModelOutput: MCP (spec-true) and DEFAULT (plain result, or `{ error }` with production masking).
import 'server-only';
import { toPublicError } from './public-error.js';
import { createMcpFormatter } from './to-model-output-mcp.js';

/** Plain output for non-MCP consumers: the result itself, or `{ error: message }` (and any public details) for an error. */
function toModelOutputDefault<TOutput>(result: TOutput | Error): TOutput | { error: string } {
  if (!(result instanceof Error)) return result;
  const { message, details } = toPublicError(result);
  return { error: message, ...details };
}

/**
 * Formatters for derived and standalone tools, drop-in for vovk's `ToModelOutput`. `MCP` applies the default limits
 * (4 MiB of media per result); the gateway builds its own with `createMcpFormatter(limits)` from its configuration.
 */
export const ToModelOutput = {
  DEFAULT: toModelOutputDefault,
  MCP: createMcpFormatter(),
} as const;
