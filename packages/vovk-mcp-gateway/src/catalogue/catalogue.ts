// The catalogue: every tool of the registry, the views a connection selects of it (toolsets, read-only, surface),
// and tool search — one layer between the registry and the MCP server, which the explorer and every surface share.
import 'server-only';
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { missingScopes } from '../auth/scopes.js';
import { currentCaller } from '../request-context.js';
import type { ServedTool } from '../mcp/register-tools.js';
import { CALL_TOOL, EXECUTE, MAX_HITS, SEARCH_TOOLS } from '../shared/catalogue-names.js';
import { toolSignature } from '../shared/tool-signature.js';
import { type Selection, SelectionError, type Surface } from './selection.js';
import { inputJsonSchemaOf, outputJsonSchemaOf, ToolSearch } from './tool-search.js';

/** Hits `search_tools` gives when the call names no limit (at most MAX_HITS). */
export const DEFAULT_HITS = 5;
/** Views kept at most: one per selection clients use, so few in practice. */
const MAX_VIEWS = 64;
/** The surface's own tools each surface lists (beside the tools always listed). */
const SURFACE_LISTING: Record<Surface, readonly string[]> = { all: [], search: [SEARCH_TOOLS, CALL_TOOL], code: [SEARCH_TOOLS, EXECUTE] };

/** What a connection sees of the catalogue. */
export interface CatalogueView {
  /** The selection it serves, spelled one way (toolsets sorted, the surface resolved). */
  readonly key: string;
  /** The toolsets selected (undefined: every tool) and whether only read-only tools are. */
  readonly toolsets?: readonly string[];
  readonly readonly: boolean;
  readonly surface: Surface;
  /** The selected tools (toolsets, read-only), by name. */
  readonly selected: ReadonlyMap<string, ServedTool>;
  /** The old names of the selected tools (`@toolAliases`), each served as its tool: callable, never listed. */
  readonly aliases: ReadonlyMap<string, ServedTool>;
  /** What `tools/list` shows, before the caller's scopes: every selected tool, or the surface's listed tools and those always listed. */
  readonly listed: readonly ServedTool[];
  /** `search_tools`, `call_tool` and `execute` of this view: callable on every surface, listed as its surface says. */
  readonly surfaceTools: readonly ServedTool[];
  /** The tool named `name` that a call through this view may run: a selected tool, an old name of one, or one of the surface's. */
  tool(name: string | undefined): ServedTool | undefined;
}

/** A view as its surface's tools are made for it: what it selects. */
export type Selected = Omit<CatalogueView, 'listed' | 'surfaceTools' | 'tool'>;

/** One hit of `search_tools`: what a client needs to call the tool (directly or through `call_tool`). */
export interface SearchHit {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** Its module's toolset (or `standalone`), then the others it is in. */
  toolset: string;
  toolsets: string[];
  score: number;
  /** Code surface: how a program calls it, `name(args: { … }): Promise<…>`. */
  signature?: string;
}

/** The surface's own tools, made for a view: they search and call its selection. */
export type SurfaceTools = (catalogue: Catalogue, view: Selected) => readonly ServedTool[];

export interface CatalogueOptions {
  /** The most selected tools listed flat by default (MCP_LIST_MAX); beyond it the default surface is `search`. */
  listMax: number;
  /** Makes `search_tools` and `call_tool` for a view. */
  surfaceTools: SurfaceTools;
  /** The tools' old names, each served as its tool (`aliasToolsOf`). @default none */
  aliases?: readonly ServedTool[];
}

/** Whether the caller of the request being served holds every scope `tool` needs (auth off: yes). */
export const mayUse = (tool: ServedTool | undefined) => !!tool && !missingScopes(currentCaller()?.scopes, tool.scopes).length;

/**
 * Whether a model may be offered `tool`: not when its MCP App alone calls it (`_meta.ui.visibility` without `model`,
 * `@mcpApp(name, { visibility: ['app'] })`). Such a tool stays callable by name (its app calls it through the host),
 * but tool search and code mode, which serve the model, leave it out.
 */
export const forModel = (tool: ServedTool) => {
  const visibility = (tool._meta?.ui as { visibility?: string[] } | undefined)?.visibility;
  return !visibility || visibility.includes('model');
};

/** A tool's TypeScript signature for code mode, from the JSON Schemas tools/list carries (made once per tool). */
const signatures = new WeakMap<ServedTool, string>();
function signatureOf(tool: ServedTool): string {
  let signature = signatures.get(tool);
  if (!signature) {
    const schemas = { inputSchema: inputJsonSchemaOf(tool), outputSchema: outputJsonSchemaOf(tool) };
    signatures.set(tool, (signature = toolSignature({ name: tool.name, ...schemas })));
  }
  return signature;
}

export class Catalogue {
  readonly #tools: ReadonlyMap<string, ServedTool>;
  /** The alias tools, by their (old) name. */
  readonly #aliases: ReadonlyMap<string, ServedTool>;
  /** Toolset names by their lower-case spelling (a client may write `taskcontroller`). */
  readonly #toolsets = new Map<string, string>();
  /** Built on the first search (a catalogue nobody searches costs no index). */
  #search?: ToolSearch;
  readonly #views = new Map<string, CatalogueView>();

  constructor(
    tools: readonly ServedTool[],
    private readonly options: CatalogueOptions,
  ) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#aliases = new Map((options.aliases ?? []).map((alias) => [alias.name, alias]));
    for (const name of tools.flatMap((tool) => tool.toolsets)) this.#toolsets.set(name.toLowerCase(), name);
  }

  /** The view a selection asks for (made once per distinct selection). Throws a `SelectionError` naming an unknown toolset. */
  view(selection: Selection): CatalogueView {
    const toolsets = selection.toolsets && [...new Set(selection.toolsets.map((name) => this.#toolsetNamed(name)))].sort();
    const requested = `${toolsets?.join(',') ?? '*'}|${selection.readonly ? 'readonly' : ''}|${selection.surface ?? ''}`;
    const cached = this.#views.get(requested);
    if (cached) return cached;
    const wanted = toolsets && new Set(toolsets);
    const selected = new Map(
      [...this.#tools].filter(
        ([, tool]) =>
          (!wanted || tool.toolsets.some((name) => wanted.has(name))) && (!selection.readonly || tool.annotations?.readOnlyHint === true),
      ),
    );
    const surface = selection.surface ?? (selected.size > this.options.listMax ? 'search' : 'all');
    const key = `${toolsets?.join(',') ?? '*'}|${selection.readonly ? 'readonly' : ''}|${surface}`;
    const aliases = new Map([...this.#aliases].filter(([, alias]) => selected.has(alias.aliasOf!)));
    const selects: Selected = { key, toolsets, readonly: selection.readonly, surface, selected, aliases };
    const surfaceTools = this.options.surfaceTools(this, selects);
    const alwaysListed = [...selected.values()].filter((tool) => tool.alwaysListed);
    const shown = new Set(SURFACE_LISTING[surface]);
    const listed = surface === 'all' ? [...selected.values()] : [...surfaceTools.filter((tool) => shown.has(tool.name)), ...alwaysListed];
    const tool = (name: string | undefined) =>
      name === undefined
        ? undefined
        : (selected.get(name) ?? aliases.get(name) ?? surfaceTools.find((surfaceTool) => surfaceTool.name === name));
    const view: CatalogueView = { ...selects, listed, surfaceTools, tool };
    if (this.#views.size >= MAX_VIEWS) this.#views.delete(this.#views.keys().next().value!);
    this.#views.set(requested, view);
    return view;
  }

  /**
   * Why `view` does not serve the catalogue's tool `name` or an old name of it (which toolset has it; not read-only);
   * undefined when it does, or no tool has that name.
   */
  refusal(name: string, view: Selected): string | undefined {
    const tool = this.#tools.get(this.#aliases.get(name)?.aliasOf ?? name);
    if (!tool || view.selected.has(tool.name)) return undefined;
    const where = tool.toolsets.length > 1 ? `toolsets ${tool.toolsets.join(', ')}` : `toolset ${tool.toolsets[0]}`;
    const changes = view.readonly && tool.annotations?.readOnlyHint !== true;
    const readOnly = 'this connection is read-only (readonly=1): connect without readonly to use it';
    const inSelection = !view.toolsets || tool.toolsets.some((toolset) => view.toolsets!.includes(toolset));
    if (inSelection) return `Tool ${name} (${where}) changes data, and ${readOnly}`;
    const add = `add it with ?toolsets=${tool.toolsets[0]} or the X-MCP-Toolsets header`;
    return `Tool ${name} is not in this connection's toolsets (${view.toolsets!.join(', ')}): it is in ${where}; ${add}${changes ? `; it changes data, and ${readOnly}` : ''}`;
  }

  /** The best `limit` tools of `view` for `query` that the caller may use, as `search_tools` answers them. */
  search(view: Selected, query: string, limit = DEFAULT_HITS): SearchHit[] {
    const allowed = (name: string) => view.selected.has(name) && mayUse(view.selected.get(name));
    this.#search ??= new ToolSearch([...this.#tools.values()].filter(forModel));
    return this.#search.search(query, Math.min(limit, MAX_HITS), allowed).map(({ name, score }) => {
      const tool = view.selected.get(name)!;
      return {
        name,
        ...(tool.title && { title: tool.title }),
        description: tool.description,
        inputSchema: inputJsonSchemaOf(tool),
        ...(tool.annotations && { annotations: tool.annotations }),
        toolset: tool.toolsets[0],
        toolsets: tool.toolsets,
        score,
        ...(view.surface === 'code' && { signature: signatureOf(tool) }),
      };
    });
  }

  #toolsetNamed(name: string): string {
    const known = this.#toolsets.get(name.toLowerCase());
    if (known) return known;
    const names = [...new Set(this.#toolsets.values())];
    throw new SelectionError(`Unknown toolset ${JSON.stringify(name)}: the toolsets are all, ${names.join(', ')}`);
  }
}
