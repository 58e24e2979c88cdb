// `@resultBudget()`: what a procedure declares of its results' token budget and of the query parameters that page them.
import 'server-only';
import { recordedInOperation } from '../operation-fields.js';

/** `@operation` field where `@resultBudget` records its declaration (OpenAPI readers see it). */
export const RESULT_BUDGET_KEY = 'x-result-budget';

/** The query parameters that page a procedure's answer: how many items to skip, and the most to answer. */
export interface PagingParameters {
  offset: string;
  limit?: string;
}

/** What `@resultBudget` declares of a procedure's results. */
export interface ResultBudgetDeclaration {
  /** The most tokens one result may cost a model. @default the gateway's (MCP_RESULT_BUDGET_TOKENS) */
  tokens?: number;
  /**
   * Its paging query parameters, which a cut result names as the way to the rest; `false`: it has none.
   * @default found by name in its query schema: offset (`offset`, `skip`, `start`) and limit (`limit`, `pageSize`, …)
   */
  paging?: PagingParameters | false;
}

/**
 * Declares a procedure's result budget and paging: `@resultBudget({ tokens: 5000 }) @get()`. Both doors are unchanged
 * but for MCP results over the budget (see docs/tools.md "Results that fit").
 */
export function resultBudget(declaration: ResultBudgetDeclaration) {
  return recordedInOperation({ [RESULT_BUDGET_KEY]: declaration });
}
