// The outputSchema a derived tool registers: the shape of its structuredContent, with an array wrapped as { items }.
import 'server-only';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * The formatter puts a JSON object into structuredContent as it is and an array under `items`; any other value is
 * text only. So an object output schema is registered as it is, a (zod) array one as `{ items: <array> }`, and
 * anything else not at all, since a tool that declares an outputSchema must return structuredContent.
 */
export function structuredOutputSchema(output: unknown): StandardSchemaWithJSON | undefined {
  const schema = output as Partial<StandardSchemaWithJSON> | undefined;
  const root = schema?.['~standard']?.jsonSchema?.output({ target: 'draft-2020-12' });
  if (root?.type === 'object') return schema as StandardSchemaWithJSON;
  if (root?.type === 'array' && output instanceof z.ZodType) return z.object({ items: output });
  return undefined;
}
