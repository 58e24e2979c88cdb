// MCP resources from the procedures that declare `@resource()`: their URIs, their registration on each server, and
// their reads, which run the procedure as a call of its tool runs (same decorators, scopes, formatter, logs).
import 'server-only';
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
  ResourceTemplate,
  requireScopes,
  type ServerContext,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { mayUse } from '../../catalogue/catalogue.js';
import { requestContext } from '../../request-context.js';
import { validated } from '../../tools/standard-tool.js';
import { RESOURCE_TOOL_META_KEY, resourceUriOf } from '../../shared/resource-meta.js';
import { readCacheHint } from '../cache-hints.js';
import { runToolCall, type ServedTool, sdkRequestHandler, type ToolRunOptions } from '../register-tools.js';
import { BUDGET_META_KEY } from '../../budget/result-budget.js';

/** A change of any row of a table (`changedBy: { tasks: '*' }`). */
const ANY_ROW = '*';

/** One procedure as a resource. */
export interface ProcedureResource {
  tool: ServedTool;
  /** Its URI, or for a procedure with path parameters its URI template (the parameters are its variables). */
  uri: string;
  /** The template of a resource with path parameters. */
  template?: UriTemplate;
  /** Table → the path parameter naming the changed row, or `*` (see `@resource`'s `changedBy`). */
  changedBy: ReadonlyMap<string, string>;
  /** What resources/list (or templates/list) shows of it besides its URI. */
  metadata: Pick<Resource, 'title' | 'description' | 'mimeType' | '_meta'>;
}

/** A URI that names a resource: the resource, its procedure's input, and the row key its changes are told by. */
export interface ResolvedResource {
  resource: ProcedureResource;
  input: unknown;
  /** The id of the row it shows (`''` for a resource without parameters), as a change names it. */
  rowKey: string;
}

type ContentItem = NonNullable<Awaited<ReturnType<typeof runToolCall>>['result']['content']>[number];

/** The resource of every tool whose procedure declares `@resource()` (GET procedures only: a read never changes anything). */
function procedureResources(tools: readonly ServedTool[]): ProcedureResource[] {
  return tools.flatMap((tool): ProcedureResource[] => {
    if (!tool.resource || tool.restRoute?.method !== 'GET') return [];
    const uri = resourceUriOf(tool.restRoute.path);
    const template = UriTemplate.isTemplate(uri) ? new UriTemplate(uri) : undefined;
    const mimeType = tool.resource.mimeType ?? (tool.outputSchema ? 'application/json' : undefined);
    const metadata = {
      title: tool.title,
      description: tool.description,
      ...(mimeType && { mimeType }),
      _meta: { [RESOURCE_TOOL_META_KEY]: tool.name },
    };
    return [{ tool, uri, template, changedBy: new Map(Object.entries(tool.resource.changedBy ?? {})), metadata }];
  });
}

/** A tool result's error text (an isError result's first text item). */
export const errorTextOf = (content: readonly ContentItem[] | undefined) =>
  content?.find((item) => item.type === 'text')?.text ?? 'The resource could not be read';

/** One content item of a tool result as resource contents: text keeps its media type, media becomes a blob. */
function contentsOf(item: ContentItem, uri: string, mimeType: string): ReadResourceResult['contents'][number] {
  switch (item.type) {
    case 'text':
      return { uri, mimeType, text: item.text };
    case 'image':
    case 'audio':
      return { uri, mimeType: item.mimeType, blob: item.data };
    case 'resource_link':
      // An oversize body (MCP_OVERSIZE_MEDIA=resource_link): resources have no link of their own, REST serves it.
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The resource is too large to read over MCP; fetch it over REST: GET ${item.uri}`);
    default:
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The procedure answered ${item.type} content, which no resource contents can carry`);
  }
}

/**
 * A request context for a read made outside any request handler of the SDK (checking a listen stream's URIs): no
 * progress to report, nothing to ask the client, cancelled with `signal`.
 */
export function detachedContext(signal: AbortSignal): ServerContext {
  return { mcpReq: { signal, _meta: {}, notify: async () => {} } } as unknown as ServerContext;
}

/** The gateway's procedure resources: found by URI, registered on each server, read through their tools. */
export class ProcedureResources {
  readonly all: readonly ProcedureResource[];
  private readonly byUri: ReadonlyMap<string, ProcedureResource>;
  private readonly templates: readonly ProcedureResource[];
  /** Per resource, its SDK template object (made once: it only matches and lists). */
  private readonly sdkTemplates = new Map<ProcedureResource, ResourceTemplate>();

  constructor(
    tools: readonly ServedTool[],
    private readonly runOptions: ToolRunOptions,
  ) {
    this.all = procedureResources(tools);
    this.byUri = new Map(this.all.filter((each) => !each.template).map((each) => [each.uri, each]));
    this.templates = this.all.filter((each) => each.template);
    for (const each of this.templates) this.sdkTemplates.set(each, new ResourceTemplate(each.template!, { list: undefined }));
  }

  /** The resource `uri` names and its procedure's input (validated as the tool's); undefined when it names none. */
  async resolve(uri: string): Promise<ResolvedResource | undefined> {
    const fixed = this.byUri.get(uri);
    if (fixed) return { resource: fixed, input: {}, rowKey: '' };
    for (const resource of this.templates) {
      const variables = resource.template!.match(uri);
      if (!variables) continue;
      const checked = await validated(resource.tool.inputSchema, { params: variables });
      if (!('value' in checked)) return undefined;
      const params = (checked.value as { params?: Record<string, unknown> }).params ?? {};
      const keyed = [...resource.changedBy.values()].find((param) => param !== ANY_ROW);
      return { resource, input: checked.value, rowKey: keyed === undefined ? '' : String(params[keyed]) };
    }
    return undefined;
  }

  /**
   * Reads `uri` by running its procedure as its tool's call runs (`ctx`: the request's; none outside a request
   * handler). A URI that names nothing, or a procedure that answers 404 or refuses the input, is "resource not
   * found"; another failure is a JSON-RPC error with the tool's (masked in production) message.
   */
  async read(uri: string, ctx?: ServerContext, signal?: AbortSignal): Promise<ReadResourceResult> {
    const resolved = await this.resolve(uri);
    if (!resolved) throw new ResourceNotFoundError(uri);
    const { tool } = resolved.resource;
    const context = requestContext();
    if (context && !context.calledTool) context.calledTool = tool.name;
    const mcp = ctx ?? detachedContext(signal ?? new AbortController().signal);
    const { result, toolCall } = await runToolCall(tool, resolved.input, mcp, { answers: {} }, this.runOptions);
    const status = toolCall.outcome?.status ?? 500;
    if (status === 404 || status === 400 || status === 422) throw new ResourceNotFoundError(uri);
    if (result.isError || toolCall.pendingInput) {
      const code = status >= 400 && status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
      throw new ProtocolError(code, errorTextOf(result.content), { uri, status });
    }
    const mimeType = toolCall.outcome?.mimeType ?? 'application/json';
    const fitted = this.runOptions.budget ? await this.runOptions.budget.fit(result, tool, resolved.input, mimeType) : { result };
    if (!fitted.note) return { contents: result.content.map((item) => contentsOf(item, uri, mimeType)) };
    // Cut to its budget: the items that fit (or a preview, as text) as the contents, the note and the way to the rest in _meta.
    const inline = fitted.result.content[0] as { text: string };
    const contents = [{ uri, mimeType: fitted.note.preview ? 'text/plain' : mimeType, text: inline.text }];
    return { contents, _meta: { [BUDGET_META_KEY]: { ...fitted.note, text: (fitted.result.content[1] as { text?: string }).text } } };
  }

  /**
   * Registers every resource on `server` (a read of one the caller may not use answers HTTP 403 naming its scopes,
   * as its tool's call does; a read's cache hint is the request's); resources/list and templates/list then show the
   * caller only those it may read.
   */
  register(server: McpServer): void {
    for (const resource of this.all) {
      const cacheHint = readCacheHint(resource.tool.resource ?? {});
      const config = { ...resource.metadata, scopeChallenge: requireScopes(...resource.tool.scopes), cacheHint };
      const name = resource.tool.name;
      const template = this.sdkTemplates.get(resource);
      if (template) server.registerResource(name, template, config, (uri, _variables, ctx) => this.read(uri.toString(), ctx));
      else server.registerResource(name, resource.uri, config, (uri, ctx) => this.read(uri.toString(), ctx));
    }
    this.listOnlyReadable(server);
  }

  /** Filters the SDK's resources/list and templates/list to what the request's caller may read. */
  private listOnlyReadable(server: McpServer): void {
    const readable = (item: ListedResource) => {
      const name = item._meta?.[RESOURCE_TOOL_META_KEY];
      const resource = name === undefined ? undefined : this.all.find((each) => each.tool.name === name);
      return !resource || mayUse(resource.tool);
    };
    filterListing(server, 'resources/list', readable);
    filterListing(server, 'resources/templates/list', readable);
  }
}

/** A resource or template as a listing shows it. */
type ListedResource = { uri?: string; uriTemplate?: string; _meta?: Record<string, unknown> };

/** The key of each listing's items. */
const LISTING_KEYS = { 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' } as const;

/** Makes `server`'s (SDK) resources/list or templates/list show only the items `keep` accepts, when the request comes in. */
export function filterListing(server: McpServer, method: keyof typeof LISTING_KEYS, keep: (item: ListedResource) => boolean): void {
  const key = LISTING_KEYS[method];
  const list = sdkRequestHandler<(request: unknown, ctx: unknown) => Promise<Record<string, ListedResource[]>>>(server, method);
  if (!list) return;
  server.server.setRequestHandler(method as 'resources/list', async (request, ctx) => {
    const result = await list(request, ctx);
    return { ...result, [key]: result[key].filter(keep) } as never;
  });
}
