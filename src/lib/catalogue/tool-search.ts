// Ranks the catalogue's tools for a query: BM25 (MiniSearch's BM25+) over names, titles, descriptions, parameters, toolsets.
import 'server-only';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { ServedTool } from '@/lib/mcp/register-tools';

/** What is indexed of one tool, as words. */
interface ToolDocument {
  name: string;
  /** Its name's words (`TaskController_createTask` → task create task), its title and its toolsets. */
  words: string;
  description: string;
  /** Its parameters' names (split into words) and descriptions, at any depth. */
  parameters: string;
}

/** Words that tell tools apart by nothing. */
const STOP_WORDS = new Set(
  ('a an and any are as at be by can do does for from get give has have how i in into is it its me my of on one or ' +
    'please show that the their them then this to was what when which who with would you your controller')
    .split(' '),
);

/** Splits identifiers into words: `createTask` → create Task, `TaskController_getUser` → Task Controller get User. */
const identifierWords = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./{}]+/g, ' ');

/** A term as indexed and searched: lower case, stemmed (Porter); stop words dropped. */
function termOf(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower) || lower.length < 2) return null;
  return stemmer(lower);
}

type JsonSchema = { description?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema; enum?: unknown[] };

/** The parameter names and descriptions of a JSON Schema, nested objects and arrays included. */
function parameterWords(schema: JsonSchema | undefined, into: string[] = []): string[] {
  if (!schema || typeof schema !== 'object') return into;
  if (schema.description) into.push(schema.description);
  if (Array.isArray(schema.enum)) into.push(schema.enum.filter((value) => typeof value === 'string').join(' '));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    into.push(identifierWords(name));
    parameterWords(property, into);
  }
  if (schema.items) parameterWords(schema.items, into);
  return into;
}

/** The JSON Schema of a tool's input, as tools/list shows it (converted once, then cached). */
export const inputJsonSchemaOf = (tool: ServedTool) =>
  tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as Record<string, unknown>;

function documentOf(tool: ServedTool): ToolDocument {
  return {
    name: tool.name,
    words: [identifierWords(tool.name), tool.title ?? '', ...tool.toolsets.map(identifierWords)].join(' '),
    description: tool.description,
    parameters: parameterWords(inputJsonSchemaOf(tool) as JsonSchema).join(' '),
  };
}

/** A tool that matches a query, with its score (higher is better). */
export interface ToolHit {
  name: string;
  score: number;
}

/**
 * The search index of a catalogue, built once at start. Names and titles weigh most, then descriptions, then
 * parameters; a word matches its stem (overdue, overdues), the start of a longer word (invoic → invoices) and, for
 * longer words, one typo.
 */
export class ToolSearch {
  readonly #index = new MiniSearch<ToolDocument>({
    idField: 'name',
    fields: ['words', 'description', 'parameters'],
    processTerm: termOf,
    searchOptions: {
      boost: { words: 3, description: 1.5, parameters: 0.5 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 1 : false),
      weights: { fuzzy: 0.3, prefix: 0.5 },
      combineWith: 'OR',
    },
  });

  constructor(tools: readonly ServedTool[]) {
    this.#index.addAll(tools.map(documentOf));
  }

  /** The best `limit` tools for `query` among those `allowed` accepts, best first. */
  search(query: string, limit: number, allowed: (name: string) => boolean): ToolHit[] {
    const results = this.#index.search(query, { filter: (result) => allowed(result.id as string) });
    return results.slice(0, limit).map((result) => ({ name: result.id as string, score: Math.round(result.score * 1000) / 1000 }));
  }
}
