// `@toolset(…)` and `@alwaysListed()`: what a procedure declares of its place in the catalogue, next to its handler.
import 'server-only';
import { recordedInOperation } from '../operation-fields.js';

/** `@operation` field where `@toolset` records the extra toolsets of a procedure (OpenAPI readers see it too). */
export const TOOLSETS_KEY = 'x-toolsets';
/** `@operation` field where `@alwaysListed` records that a procedure's tool is listed beside the search surface's two. */
export const ALWAYS_LISTED_KEY = 'x-always-listed';

/** A toolset name: a module key (`TaskController`) or a word of its own (`billing`); never a surface keyword. */
const TOOLSET_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Puts a procedure's tool in toolsets besides its module's (every tool is in the toolset named by its module key):
 * `@toolset('billing') @post('{id}/pay') static payInvoice = …`. A client that selects one of them
 * (`?toolsets=billing` or `X-MCP-Toolsets: billing`) sees the tool. REST is unchanged.
 */
export function toolset(...names: [string, ...string[]]) {
  for (const name of names) {
    if (!TOOLSET_NAME.test(name) || name === 'all') throw new TypeError(`@toolset: ${JSON.stringify(name)} is not a toolset name`);
  }
  return recordedInOperation({ [TOOLSETS_KEY]: names });
}

/**
 * Keeps a procedure's tool in `tools/list` on every surface: on the search surface it stays beside `search_tools` and
 * `call_tool` (a tool every conversation needs, e.g. who am I). It is still listed only when selected (toolsets,
 * `readonly`) and allowed (scopes).
 */
export function alwaysListed() {
  return recordedInOperation({ [ALWAYS_LISTED_KEY]: true });
}
