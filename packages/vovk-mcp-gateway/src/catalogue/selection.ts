// What an MCP connection asks to see of the catalogue: toolsets, read-only, the surface — from its URL or headers.
import 'server-only';
import { SELECTION_CHOICES } from '../shared/catalogue-names.js';

/**
 * How `tools/list` shows the selected tools: every one, the two tools of tool search (`search_tools`, `call_tool`),
 * or code mode's (`search_tools`, `execute`).
 */
const SURFACES = ['all', 'search', 'code'] as const;
export type Surface = (typeof SURFACES)[number];

/** What a request asks for, before it is checked against the catalogue (which knows the toolsets' names). */
export interface Selection {
  /** The toolsets named (`?toolsets=` or `X-MCP-Toolsets`); undefined: every tool (nothing named, or `all`). */
  toolsets?: string[];
  /** Only tools that only read (`readOnlyHint`): `?readonly=1` or `X-MCP-Readonly: 1`. */
  readonly: boolean;
  /** The surface asked for (`?tools=` or `X-MCP-Tools`); undefined: the default for the selection's size. */
  surface?: Surface;
}

/** A selection the request spells wrongly (a bad value, an unknown toolset): the client is told what is accepted. */
export class SelectionError extends Error {
  override name = 'SelectionError';
}

/** Every tool, the default surface: what a request with nothing configured gets. */
export const EVERYTHING: Selection = { readonly: false };

/** The request's value of a choice: its URL's query first, then its header. */
function valueOf(query: URLSearchParams | undefined, request: Request, choice: keyof typeof SELECTION_CHOICES): string | undefined {
  const value = query?.get(SELECTION_CHOICES[choice].query) ?? request.headers.get(SELECTION_CHOICES[choice].header);
  return value === null || value.trim() === '' ? undefined : value.trim();
}

function readonlyOf(value: string | undefined): boolean {
  if (value === undefined) return false;
  const flag = value.toLowerCase();
  if (flag === '1' || flag === 'true') return true;
  if (flag === '0' || flag === 'false') return false;
  throw new SelectionError(`readonly must be 1 or 0 (true or false), not ${JSON.stringify(value)}`);
}

function surfaceOf(value: string | undefined): Surface | undefined {
  if (value === undefined) return undefined;
  const surface = value.toLowerCase();
  if ((SURFACES as readonly string[]).includes(surface)) return surface as Surface;
  throw new SelectionError(`tools must be one of ${SURFACES.join(', ')}, not ${JSON.stringify(value)}`);
}

function toolsetsOf(value: string | undefined): string[] | undefined {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  return names.length === 0 || names.some((name) => name.toLowerCase() === 'all') ? undefined : names;
}

/**
 * The selection a request asks for: `?toolsets=A,B` / `X-MCP-Toolsets: A,B` (`all`: every tool), `?readonly=1` /
 * `X-MCP-Readonly: 1`, `?tools=all|search|code` / `X-MCP-Tools`. The URL wins over a header. Throws a `SelectionError`
 * for a value that means nothing.
 */
export function selectionOf(request: Request): Selection {
  const query = request.url.includes('?') ? new URL(request.url).searchParams : undefined;
  const toolsets = toolsetsOf(valueOf(query, request, 'toolsets'));
  const readonly = readonlyOf(valueOf(query, request, 'readonly'));
  const surface = surfaceOf(valueOf(query, request, 'surface'));
  if (!toolsets && !readonly && !surface) return EVERYTHING;
  return { ...(toolsets && { toolsets }), readonly, ...(surface && { surface }) };
}
