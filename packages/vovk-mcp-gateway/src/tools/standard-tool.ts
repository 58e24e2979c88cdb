// standardTool / withFormattedOutput: standalone tools in the standard-tool shape, formatted like derived tools.
import 'server-only';
import { ProtocolError, type StandardSchemaWithJSON, type ToolAnnotations } from '@modelcontextprotocol/server';
import { HttpException, HttpStatus } from 'vovk';

/** A standalone tool: name, description, Standard Schemas with JSON Schema, and `execute`. */
export interface StandardTool<TInput = unknown, TOutput = unknown, TFormatted = TOutput> {
  name: string;
  title?: string;
  description: string;
  /** MCP hints about what the tool does; `readOnlyHint: true` also lets `gateway:read` callers use it. */
  annotations?: ToolAnnotations;
  inputSchema?: StandardSchemaWithJSON<TInput>;
  outputSchema?: StandardSchemaWithJSON<TOutput>;
  /** It may run long: MCP callers may (`optional`) or must (`required`) run it as a task. @default forbidden */
  taskSupport?: 'optional' | 'required';
  /** Which calls answer at once even for a task-capable client (given the arguments and input answers). @default none */
  answersAtOnce?: (args: Record<string, unknown>, answers: Record<string, unknown>) => boolean;
  execute(input: TInput, meta?: unknown): Promise<TFormatted>;
}

type StandardToolDefinition<TInput, TOutput> = Omit<StandardTool<TInput, TOutput>, 'execute'> & {
  execute(input: TInput, meta?: unknown): TOutput | Promise<TOutput>;
};

/** `value` as `schema` reads it, or the reasons it does not fit (`message at path; …`). */
export async function validated<T>(schema: StandardSchemaWithJSON<T>, value: unknown): Promise<{ value: T } | { reason: string }> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { value: result.value };
  const reason = result.issues
    .map(({ message, path }) => (path?.length ? `${message} at ${path.map((p) => (typeof p === 'object' ? p.key : p)).join('.')}` : message))
    .join('; ');
  return { reason };
}

/**
 * Defines a standalone tool. Its `execute` validates the input (a 400 `HttpException` with the reasons when it is
 * invalid), runs the tool, and validates the output (a plain `Error`: a bug of the tool, masked in production).
 */
export function standardTool<TInput, TOutput>(definition: StandardToolDefinition<TInput, TOutput>): StandardTool<TInput, TOutput> {
  const { inputSchema, outputSchema } = definition;
  return {
    ...definition,
    async execute(input, meta) {
      let value = input;
      if (inputSchema) {
        const checked = await validated(inputSchema, input);
        if ('reason' in checked) throw new HttpException(HttpStatus.BAD_REQUEST, `Input validation failed: ${checked.reason}`);
        value = checked.value;
      }
      const output = await definition.execute(value, meta);
      if (!outputSchema) return output;
      const checked = await validated(outputSchema, output);
      if ('reason' in checked) throw new Error(`Output validation failed: ${checked.reason}`);
      return checked.value;
    },
  };
}

/**
 * Wraps a tool so that `execute` passes its result — or the error it threw — through `format`,
 * e.g. `withFormattedOutput(tool, (result) => ToModelOutput.MCP(result, tool, null))`. A `ProtocolError` is not a
 * result of the tool but a failure of the call: it propagates (within a request the MCP server still answers it as an
 * isError result; a task fails with it as its JSON-RPC error).
 */
export function withFormattedOutput<TInput, TOutput, TFormatted>(
  tool: StandardTool<TInput, TOutput>,
  format: (result: TOutput | Error) => TFormatted | Promise<TFormatted>,
): StandardTool<TInput, TOutput, TFormatted> {
  return {
    ...tool,
    async execute(input, meta) {
      let result: TOutput | Error;
      try {
        result = await tool.execute(input, meta);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        result = error instanceof Error ? error : new Error(String(error));
      }
      return format(result);
    },
  };
}
