// The outputSchema a derived tool registers: the shape of its structuredContent, with an array wrapped as { items }.
import 'server-only';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type JsonSchema = Record<string, unknown>;
type Validator = Pick<StandardSchemaWithJSON['~standard'], 'validate'>;

/** A schema whose JSON Schema is `json` for both directions, checked by `validate`. */
function standardSchema(json: JsonSchema, validate: Validator['validate']): StandardSchemaWithJSON {
  const jsonSchema = () => json;
  return { '~standard': { version: 1, vendor: 'vovk-mcp-gateway', validate, jsonSchema: { input: jsonSchema, output: jsonSchema } } };
}

/** `{ items: <array> }`; the array's own `$schema` stays at the root. */
function itemsObjectOf({ $schema, ...array }: JsonSchema): JsonSchema {
  return { ...($schema ? { $schema } : {}), type: 'object', properties: { items: array }, required: ['items'] };
}
const hasItems = (value: unknown): value is { items: unknown[] } =>
  typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);

/**
 * The formatter puts a JSON object into structuredContent as it is and an array under `items`; any other value is
 * text only. So an object output schema is registered as it is, an array one as `{ items: <array> }` (checked by the
 * same validator), and anything else not at all, since a tool that declares an outputSchema must return
 * structuredContent. `json` is the output's JSON Schema (vovk's emitted one for a procedure, whatever its library);
 * by default the schema's own Standard JSON Schema.
 */
export function structuredOutputSchema(output: unknown, json?: JsonSchema): StandardSchemaWithJSON | undefined {
  const schema = output as Partial<StandardSchemaWithJSON> | undefined;
  const validator = schema?.['~standard'];
  if (!validator?.validate) return undefined;
  const root = json ?? validator.jsonSchema?.output({ target: 'draft-2020-12' });
  if (root?.type === 'object') return json ? standardSchema(root, validator.validate) : (schema as StandardSchemaWithJSON);
  if (root?.type !== 'array') return undefined;
  return standardSchema(itemsObjectOf(root), async (value) => {
    if (!hasItems(value)) return { issues: [{ message: 'Expected { items: [...] }', path: ['items'] }] };
    const checked = await validator.validate(value.items);
    return checked.issues ? checked : { value: { items: checked.value } };
  });
}

/**
 * The outputSchema of a streaming procedure's tool: its items (each as its `iteration` schema says) under `items`. The
 * items were checked as REST checks them (vovk's `validateEachIteration`), so the result is not checked again.
 */
export function streamOutputSchema(iteration: JsonSchema | undefined): StandardSchemaWithJSON {
  return standardSchema(itemsObjectOf({ type: 'array', ...(iteration ? { items: iteration } : {}) }), (value) =>
    hasItems(value) ? { value } : { issues: [{ message: 'Expected { items: [...] }', path: ['items'] }] },
  );
}
