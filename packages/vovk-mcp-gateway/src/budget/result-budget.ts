// The result budget: a tool result (or resources/read contents) over its tool's token budget is never dumped nor cut
// mid-JSON: an array keeps the first items that fit and says how to get the rest; anything else becomes a link to the
// whole answer, held for its caller, with a preview.
import 'server-only';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { PagingParameters, ResultBudgetDeclaration } from './budget-decorator.js';
import type { HeldAnswer, HeldAnswers } from './held-answers.js';
import { countTokens, fitsTokens } from './token-count.js';

/** `_meta` key of a result cut to its budget: what it holds and the way to the rest. */
export const BUDGET_META_KEY = 'dev.vovk/budget';

/** Tokens kept aside for the note a cut result carries. */
const NOTE_TOKENS = 250;
/** The most tokens of the preview of an answer that became a link. */
const PREVIEW_TOKENS = 1000;

/** A tool's budget as the gateway serves it: its own token count (else the gateway's) and its paging parameters. */
export interface ToolBudget {
  tokens?: number;
  paging?: PagingParameters;
}

/** What a budgeted tool is: its name, the scopes a reader of its held answers needs, its budget, its output schema. */
export interface BudgetedTool {
  name: string;
  scopes: readonly string[];
  budget?: ToolBudget;
  outputSchema?: unknown;
}

/** What a result cut to its budget says of itself (in `_meta`, and in words in its note). */
export interface BudgetNote {
  budgetTokens: number;
  /** An array cut: how many items it holds, of how many the call answered. */
  items?: { shown: number; total: number };
  /** The call that gets the next items (the tool's own paging). */
  next?: { tool: string; arguments: Record<string, unknown> };
  /** The whole answer, held for the caller: a resources/read away until `expiresAt`. */
  whole?: { uri: string; expiresAt: string };
  /** Nothing of the answer is inline but a preview (an object or a text over the budget). */
  preview?: boolean;
}

type JsonSchema = { properties?: Record<string, { type?: unknown }> };

const OFFSET_NAMES = ['offset', 'skip', 'start'];
const LIMIT_NAMES = ['limit', 'pageSize', 'page_size', 'perPage', 'per_page', 'take', 'count', 'first', 'size'];

/** Whether a JSON Schema property takes a number (so it can be an offset or a limit). */
const isNumeric = (property: { type?: unknown } | undefined) =>
  property !== undefined && [property.type].flat().some((type) => type === 'integer' || type === 'number');

/** The paging parameters a query schema has by name (an offset is needed; a limit is optional). */
function pagingByName(query: JsonSchema | undefined): PagingParameters | undefined {
  const properties = query?.properties ?? {};
  const offset = OFFSET_NAMES.find((name) => isNumeric(properties[name]));
  if (!offset) return undefined;
  const limit = LIMIT_NAMES.find((name) => isNumeric(properties[name]));
  return { offset, ...(limit && { limit }) };
}

/** A procedure's budget: what `@resultBudget` declares, with paging found in its query schema unless declared. */
export function toolBudgetOf(declared: ResultBudgetDeclaration | undefined, query: JsonSchema | undefined): ToolBudget | undefined {
  const paging = declared?.paging === false ? undefined : (declared?.paging ?? pagingByName(query));
  if (declared?.tokens === undefined && !paging) return undefined;
  return { ...(declared?.tokens !== undefined && { tokens: declared.tokens }), ...(paging && { paging }) };
}

/** The array a result can be cut in: the answer itself (`structuredContent.items`) or an object's largest array member. */
function cuttableArray(result: CallToolResult, text: string): { items: unknown[]; wrap: (kept: unknown[]) => unknown } | undefined {
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (!structured) return undefined;
  if (text.startsWith('[') && Array.isArray(structured.items)) return { items: structured.items, wrap: (kept) => kept };
  let largest: string | undefined;
  for (const [key, value] of Object.entries(structured)) {
    if (Array.isArray(value) && value.length > ((largest && (structured[largest] as unknown[]).length) || 0)) largest = key;
  }
  return largest === undefined ? undefined : { items: structured[largest] as unknown[], wrap: (kept) => ({ ...structured, [largest]: kept }) };
}

/** How many of `items`, from the first, fit in `tokens` (each costs its JSON and a separator). */
async function itemsWithin(items: readonly unknown[], tokens: number): Promise<number> {
  let used = 0;
  for (let index = 0; index < items.length; index++) {
    used += (await countTokens(JSON.stringify(items[index]) ?? 'null')) + 1;
    if (used > tokens) return index;
  }
  return items.length;
}

/** The first `tokens` worth of `text` (at most that many UTF-8 bytes, so never more tokens), on a character boundary. */
function previewOf(text: string, tokens: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength <= tokens) return text;
  return bytes.subarray(0, tokens).toString('utf8').replace(/\uFFFD+$/, '');
}

/** The call's query arguments. */
const queryOf = (input: unknown) => ((input as { query?: Record<string, unknown> } | undefined)?.query ?? {}) as Record<string, unknown>;

/** Where the call's page starts: its offset argument (0 without paging, or when it gives none). */
const offsetOf = (input: unknown, paging: PagingParameters | undefined) => (paging ? Number(queryOf(input)[paging.offset] ?? 0) || 0 : 0);

/** The next page's arguments: the call's own, its offset past the items shown and its limit what fitted. */
function nextPage(input: unknown, paging: PagingParameters, shown: number): Record<string, unknown> {
  const next = { [paging.offset]: offsetOf(input, paging) + shown, ...(paging.limit && { [paging.limit]: shown }) };
  return { ...(input as Record<string, unknown> | undefined), query: { ...queryOf(input), ...next } };
}

/** The note of a cut result, in words, for the model. */
function noteText(tool: string, note: BudgetNote, offset: number): string {
  const lines = [`This result was cut to fit the result budget of ${note.budgetTokens} tokens.`];
  if (note.items) {
    const { shown, total } = note.items;
    lines.push(`It holds items ${offset + 1}–${offset + shown} of the ${total} this call answered.`);
  } else lines.push('Only a preview of the answer is inline.');
  if (note.next) lines.push(`Get the next items with ${tool} ${JSON.stringify(note.next.arguments)}.`);
  if (note.whole) lines.push(`The whole answer is the resource ${note.whole.uri} (read it with resources/read; it is yours until ${note.whole.expiresAt}).`);
  if (!note.next && !note.whole) lines.push('The whole answer could not be held: narrow the call to get the rest.');
  return lines.join(' ');
}

/**
 * Fits tool results into token budgets: the tool's own (`@resultBudget`) or `defaultTokens`. Whole answers that need a
 * link are held in `held`.
 */
export class ResultBudget {
  constructor(
    readonly defaultTokens: number,
    private readonly held: Pick<HeldAnswers, 'hold'>,
  ) {}

  /** `result` as it fits the budget of `tool` (unchanged when it does), and what was done when it did not. */
  async fit(result: CallToolResult, tool: BudgetedTool, input: unknown, mimeType = 'application/json'): Promise<{ result: CallToolResult; note?: BudgetNote }> {
    if (result.isError || !result.content.length || result.content.some((item) => item.type !== 'text')) return { result };
    const texts = result.content.map((item) => (item as { text: string }).text);
    const budgetTokens = tool.budget?.tokens ?? this.defaultTokens;
    if (await fitsTokens(texts.join('\n'), budgetTokens)) return { result };
    const [answer] = texts;
    const array = cuttableArray(result, answer);
    if (array) {
      const shell = JSON.stringify(array.wrap([]));
      const shown = await itemsWithin(array.items, budgetTokens - NOTE_TOKENS - (await countTokens(shell)));
      if (shown > 0) return this.cutArray(result, tool, input, { ...array, shown, budgetTokens, mimeType });
    }
    return this.linked(result, tool, { answer, budgetTokens, mimeType });
  }

  private async cutArray(
    result: CallToolResult,
    tool: BudgetedTool,
    input: unknown,
    cut: { items: unknown[]; wrap: (kept: unknown[]) => unknown; shown: number; budgetTokens: number; mimeType: string },
  ) {
    const kept = cut.wrap(cut.items.slice(0, cut.shown));
    const paging = tool.budget?.paging;
    const note: BudgetNote = { budgetTokens: cut.budgetTokens, items: { shown: cut.shown, total: cut.items.length } };
    if (paging) note.next = { tool: tool.name, arguments: nextPage(input, paging, cut.shown) };
    else note.whole = await this.hold(tool, result.content[0] as { text: string }, cut.mimeType);
    const offset = offsetOf(input, paging);
    const structuredContent = (Array.isArray(kept) ? { items: kept } : kept) as Record<string, unknown>;
    const content: ContentBlock[] = [
      { type: 'text', text: JSON.stringify(kept) },
      { type: 'text', text: noteText(tool.name, note, offset) },
      ...this.linkOf(tool, note, cut.mimeType),
    ];
    return { result: { ...result, content, structuredContent, _meta: { ...result._meta, [BUDGET_META_KEY]: note } }, note };
  }

  /** An answer no cut can keep valid: a link to the whole, held, and a preview of it. */
  private async linked(result: CallToolResult, tool: BudgetedTool, { answer, budgetTokens, mimeType }: { answer: string; budgetTokens: number; mimeType: string }) {
    const note: BudgetNote = { budgetTokens, preview: true };
    note.whole = await this.hold(tool, { text: answer }, mimeType);
    const preview = previewOf(answer, Math.min(PREVIEW_TOKENS, Math.floor(budgetTokens / 4)));
    const content: ContentBlock[] = [
      { type: 'text', text: `${noteText(tool.name, note, 0)}\nPreview:\n${preview}` },
      ...this.linkOf(tool, note, mimeType),
    ];
    // A tool with an output schema must send structuredContent (SDK clients refuse its result without it), so that stays
    // whole: models read the content, which is the preview and the link.
    const { structuredContent, ...rest } = result;
    const kept = tool.outputSchema && structuredContent ? { structuredContent } : {};
    return { result: { ...rest, ...kept, content, _meta: { ...result._meta, [BUDGET_META_KEY]: note } }, note };
  }

  /** The `resource_link` to a held whole answer, if there is one. */
  private linkOf(tool: BudgetedTool, note: BudgetNote, mimeType: string): ContentBlock[] {
    if (!note.whole) return [];
    const description = `The whole answer of this ${tool.name} call (${note.items ? `${note.items.total} items` : 'over the result budget'}), yours until ${note.whole.expiresAt}`;
    return [{ type: 'resource_link', uri: note.whole.uri, name: `${tool.name} answer`, mimeType, description }];
  }

  /** Holds the whole answer for the caller; undefined when the database cannot take it (the note then says so). */
  private async hold(tool: BudgetedTool, answer: { text: string }, mimeType: string): Promise<BudgetNote['whole']> {
    let held: HeldAnswer;
    try {
      held = await this.held.hold({ tool: tool.name, scopes: tool.scopes, mimeType, text: answer.text });
    } catch (error) {
      console.warn(`[gateway] could not hold the whole answer of ${tool.name}: ${(error as Error).message}`);
      return undefined;
    }
    return { uri: held.uri, expiresAt: new Date(held.expiresAt).toISOString() };
  }
}
