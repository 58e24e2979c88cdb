// Memoizes a Standard Schema's JSON Schema: mcp-handler builds a new server per request, which would convert anew.
import 'server-only';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

function memoized(convert: (options: JsonSchemaOptions) => Record<string, unknown>) {
  const cache = new Map<string, Record<string, unknown>>();
  return (options: JsonSchemaOptions) => {
    const key = JSON.stringify(options);
    let json = cache.get(key);
    if (!json) cache.set(key, (json = Object.freeze(convert(options))));
    return json;
  };
}

/** The same schema, converting to JSON Schema once per target. Validation is untouched. */
export function withCachedJsonSchema(schema: StandardSchemaWithJSON): StandardSchemaWithJSON {
  const standard = schema['~standard'];
  return {
    '~standard': {
      ...standard,
      jsonSchema: { input: memoized(standard.jsonSchema.input), output: memoized(standard.jsonSchema.output) },
    },
  };
}
