// Lets a tool caller omit a `body`/`query`/`params` slot whose fields are all optional (it then reads as `{}`).
import 'server-only';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

const SLOTS = ['body', 'query', 'params'] as const;
type Slot = (typeof SLOTS)[number];
type SlotSchemas = Partial<Record<Slot, StandardSchemaWithJSON>>;
type JsonSchemaObject = { required?: string[]; [key: string]: unknown };

function acceptsEmptyObject(schema: StandardSchemaWithJSON): boolean {
  const result = schema['~standard'].validate({});
  return !(result instanceof Promise) && !result.issues;
}

/**
 * vovk's combined input schema requires every slot a procedure declares, so a tool whose only input is an optional
 * query parameter could not be called with `{}`. This wraps it: slots that accept `{}` are no longer required,
 * and a missing one is filled with `{}` before validation. Other slots and all validation stay vovk's.
 */
export function withOptionalEmptySlots(
  schema: (StandardSchemaWithJSON & SlotSchemas) | undefined,
): StandardSchemaWithJSON | undefined {
  if (!schema) return schema;
  const optional = SLOTS.filter((slot) => schema[slot] && acceptsEmptyObject(schema[slot]));
  if (!optional.length) return schema;
  const standard = schema['~standard'];
  const fillOptional = (input: unknown) =>
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? { ...Object.fromEntries(optional.map((slot) => [slot, {}])), ...input }
      : input;
  const relaxRequired = (json: Record<string, unknown>): Record<string, unknown> => {
    const { required, ...rest } = json as JsonSchemaObject;
    return { ...rest, required: (required ?? []).filter((slot) => !optional.includes(slot as Slot)) };
  };
  return {
    '~standard': {
      ...standard,
      validate: (input, options) => standard.validate(fillOptional(input), options),
      jsonSchema: {
        input: (options) => relaxRequired(standard.jsonSchema.input(options)),
        output: (options) => relaxRequired(standard.jsonSchema.output(options)),
      },
    },
  };
}
