// Ranks the catalogue's tools for a request in words: BM25 (MiniSearch's BM25+) over names, titles, descriptions,
// parameters and toolsets, with common synonyms added to the request and tools that do what its verbs ask ranked up.
import 'server-only';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { ServedTool } from '../mcp/register-tools.js';
import { type Action, actionOfTool, actionsOf, actionWordsOf, synonymsOf, withPhrasesJoined } from './search-words.js';

/** What is indexed of one tool, as words. */
interface ToolDocument {
  name: string;
  /** Its name's words (`TaskController_createTask` → task create task), its title and its toolsets. */
  words: string;
  description: string;
  /** Its parameters' names (split into words) and descriptions, at any depth. */
  parameters: string;
  /** Its old names' words (`@toolAliases`): a request that names the tool as it was once called finds it. */
  aliases: string;
}

/** Words that tell tools apart by nothing (English function words, and the word every module name ends with). */
const STOP_WORDS = new Set(
  ('a about after again all am an and any are as at be been before being both but by can could did do does doing ' +
    'down during each few for from further had has have having he her here hers him his how i if in into is it its ' +
    'itself just me more most my no nor not now of off on once only or other our out over own please same she should ' +
    'so some such than that the their them then there these they this those through to too under until up us very ' +
    'was we were what when where which while who whom why will with would you your yours controller')
    .split(' '),
);

/** Splits identifiers into words: `createTask` → create Task, `TaskController_getUser` → Task Controller get User. */
const identifierWords = (text: string) => text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./{}]+/g, ' ');

/** A term as indexed and searched: lower case, stemmed (Porter); stop words and bare numbers (ids) dropped. */
function termOf(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower) || lower.length < 2 || /^\d+$/.test(lower)) return null;
  return stemmer(lower);
}

/** The most words of a request that are searched (a request is a sentence or two; the rest is dropped). */
const MAX_QUERY_WORDS = 24;
/** Requests of more words than this are matched without typos forgiven. */
const FUZZY_WORDS = 12;

/** How much more a tool that does what the request's verbs ask weighs, and how much less a synonym than a word written. */
const ACTION_BOOST = 1.6;
const SYNONYM_WEIGHT = 0.6;

/** Joins hyphenated words (to-do → todo, e-mail → email) before text is split into terms, in tools and requests alike. */
const joinHyphens = (text: string) => text.replace(/(\p{L})-(?=\p{L})/gu, '$1');

/** How text is split into terms: hyphenated words joined, then at every space and punctuation mark. */
const tokenize = (text: string) => joinHyphens(text).split(/[\n\r\p{Z}\p{P}]+/u);

/** The words of a request, lower case. */
const wordsOf = (query: string) => tokenize(query.toLowerCase()).filter(Boolean);

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

/** The JSON Schema of a tool's output, as tools/list shows it (converted once, then cached); undefined when it has none. */
export const outputJsonSchemaOf = (tool: ServedTool) =>
  tool.outputSchema?.['~standard'].jsonSchema.output({ target: 'draft-2020-12' }) as Record<string, unknown> | undefined;

function documentOf(tool: ServedTool): ToolDocument {
  return {
    name: tool.name,
    words: [identifierWords(tool.name), tool.title ?? '', ...tool.toolsets.map(identifierWords)].join(' '),
    description: tool.description,
    parameters: parameterWords(inputJsonSchemaOf(tool) as JsonSchema).join(' '),
    aliases: (tool.aliases ?? []).map(identifierWords).join(' '),
  };
}

/** A tool that matches a query, with its score (higher is better). */
export interface ToolHit {
  name: string;
  score: number;
}

/** A search result as a hit, its score rounded to three decimals. */
const hitOf = ({ id, score }: { id: unknown; score: number }): ToolHit => ({ name: id as string, score: Math.round(score * 1000) / 1000 });

/**
 * The search index of a catalogue, built once (on its first search). Names and titles weigh most, then descriptions, then
 * parameters and old names; a word matches its stem (overdue, overdues), the start of a longer word (invoic → invoices) and, for
 * longer words, one typo.
 */
export class ToolSearch {
  /** What each tool does (its handler's verb, or its HTTP method), by name. */
  readonly #actions = new Map<string, Action | undefined>();
  /** The tools' names by their lower-case spelling. */
  readonly #names = new Map<string, string>();
  readonly #index = new MiniSearch<ToolDocument>({
    idField: 'name',
    fields: ['words', 'description', 'parameters', 'aliases'],
    processTerm: termOf,
    tokenize,
    searchOptions: {
      // Old names weigh as little as parameters: they find the tool, but never rank it above the one a request asks for.
      boost: { words: 3, description: 1.5, parameters: 0.5, aliases: 0.5 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 1 : false),
      weights: { fuzzy: 0.3, prefix: 0.5 },
      combineWith: 'OR',
    },
  });

  constructor(tools: readonly ServedTool[]) {
    this.#index.addAll(tools.map(documentOf));
    for (const tool of tools) {
      this.#actions.set(tool.name, actionOfTool(tool.name, tool.restRoute?.method, tool.annotations?.readOnlyHint));
      for (const name of [tool.name, ...(tool.aliases ?? [])]) this.#names.set(name.toLowerCase(), tool.name);
    }
  }

  /** The best `limit` tools for `request` among those `allowed` accepts, best first. */
  search(request: string, limit: number, allowed: (name: string) => boolean): ToolHit[] {
    // Each word once, and only the first MAX_QUERY_WORDS: the cost of a search stays bounded whatever the request.
    // A tool's name in the request reads as its words (getUser → get User, UserController_getUser too).
    const named = request.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replaceAll('_', ' ');
    const words = [...new Set(wordsOf(withPhrasesJoined(named)))].slice(0, MAX_QUERY_WORDS);
    const query = words.join(' ');
    const asked = actionsOf(words);
    const written = new Set(words.map(termOf));
    const synonyms = [...words.flatMap(synonymsOf), ...[...asked].flatMap(actionWordsOf)].filter((word) => !written.has(termOf(word)));
    const weighed = new Set(synonyms.map(termOf));
    const results = this.#index.search([query, ...synonyms].join(' '), {
      filter: (result) => allowed(result.id as string),
      boostTerm: (term) => (weighed.has(term) ? SYNONYM_WEIGHT : 1),
      boostDocument: (name) => (asked.has(this.#actions.get(name) as Action) ? ACTION_BOOST : 1),
      // A typo is forgiven in a short request; in a long one its other words carry it (and fuzzy matching costs most).
      ...(words.length > FUZZY_WORDS && { fuzzy: false }),
    });
    const hits = results.slice(0, limit).map(hitOf);
    // A request that is exactly a tool's name or old name (in any case) finds that tool first.
    const exact = this.#names.get(request.trim().toLowerCase());
    if (!exact || !allowed(exact)) return hits;
    const own = hitOf(results.find((result) => result.id === exact) ?? { id: exact, score: results[0]?.score ?? 0 });
    return [own, ...hits.filter((hit) => hit.name !== exact)].slice(0, limit);
  }
}
