// completion/complete for the arguments of the procedure resources' templates: each answered by the procedure the
// template names (`@resource({ complete: { id: 'TaskController_completeTaskId' } })`), run as a call of its tool runs.
import 'server-only';
import {
  type CompleteRequest,
  type CompleteResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  requireScopes,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { requestContext } from '../../request-context.js';
import { validated } from '../../tools/standard-tool.js';
import { runToolCall, type ServedTool, sdkRequestHandler, type ToolRunOptions } from '../register-tools.js';
import { errorTextOf, type ProcedureResource } from './procedure-resources.js';

/** The most values one completion answers (the spec's limit). */
const MAX_VALUES = 100;

type CompleteParams = CompleteRequest['params'];
type CompleteHandler = (request: CompleteRequest, ctx: ServerContext) => Promise<CompleteResult>;

/** A template whose arguments complete: its resource, and the completing tool of each argument that has one. */
interface CompletingTemplate {
  resource: ProcedureResource;
  completers: ReadonlyMap<string, ServedTool>;
}

/** A declaration that cannot work, said when the gateway starts (an adopter's typo should not wait for a client). */
class CompletionDeclarationError extends Error {
  override name = 'CompletionDeclarationError';
}

/** The templates of `resources`, by URI template, with the completing procedures their `@resource` names (checked). */
function completingTemplates(resources: readonly ProcedureResource[], toolsByName: ReadonlyMap<string, ServedTool>) {
  const templates = new Map<string, CompletingTemplate>();
  for (const resource of resources) {
    if (!resource.template) continue;
    const declared = Object.entries(resource.tool.resource?.complete ?? {});
    const variables = resource.template.variableNames;
    const completers = new Map<string, ServedTool>();
    for (const [argument, toolName] of declared) {
      const where = `@resource of ${resource.tool.name} completes "${argument}" with ${toolName}`;
      if (!variables.includes(argument)) throw new CompletionDeclarationError(`${where}, but its template ${resource.uri} has no such argument`);
      const tool = toolsByName.get(toolName);
      if (tool?.restRoute?.method !== 'GET') throw new CompletionDeclarationError(`${where}, which is no GET procedure's tool`);
      completers.set(argument, tool);
    }
    templates.set(resource.uri, { resource, completers });
  }
  return templates;
}

/** What a completing procedure answered (`string[]`, or `{ values, total?, hasMore? }`) as the completion result. */
function completionOf(answer: unknown, toolName: string): CompleteResult {
  const answered = (answer ?? {}) as { items?: unknown; values?: unknown; total?: unknown; hasMore?: unknown };
  const values = Array.isArray(answered.items) ? answered.items : answered.values;
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string' || typeof value === 'number')) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The completing procedure ${toolName} answered no list of values`);
  }
  const total = typeof answered.total === 'number' ? answered.total : values.length;
  const hasMore = typeof answered.hasMore === 'boolean' ? answered.hasMore || values.length > MAX_VALUES : values.length > MAX_VALUES;
  return { completion: { values: values.slice(0, MAX_VALUES).map(String), total, hasMore } };
}

/** The completions of the procedure resources' template arguments, served on each request's server. */
export class ResourceCompletions {
  private readonly templates: ReadonlyMap<string, CompletingTemplate>;
  /** Whether any argument completes (else nothing is served, and no capability declared). */
  private readonly anyCompleter: boolean;

  constructor(
    resources: readonly ProcedureResource[],
    toolsByName: ReadonlyMap<string, ServedTool>,
    private readonly runOptions: ToolRunOptions,
  ) {
    this.templates = completingTemplates(resources, toolsByName);
    this.anyCompleter = [...this.templates.values()].some((template) => template.completers.size > 0);
  }

  /**
   * Serves completion/complete on `server` (after everything else is registered: a prompt's completions, which the
   * SDK answers, are left to it) and declares the `completions` capability, when any template argument completes; an
   * argument of a template that names no completing procedure completes to nothing. A
   * caller without the scopes of reading the template's resource and of running its completing procedure gets HTTP
   * 403 `insufficient_scope` naming them, as a read or a call would.
   */
  serve(server: McpServer): void {
    if (!this.anyCompleter) return;
    const others = sdkRequestHandler<CompleteHandler>(server, 'completion/complete');
    server.server.registerCapabilities({ completions: {} });
    server.server.setRequestHandler('completion/complete', (request, ctx) => {
      const { ref } = request.params;
      if (ref.type === 'ref/resource' && this.templates.has(ref.uri)) return this.complete(this.templates.get(ref.uri)!, request.params, ctx);
      if (others) return others(request, ctx);
      const what = ref.type === 'ref/resource' ? `resource template ${ref.uri}` : `prompt ${ref.name}`;
      const known = [...this.templates.keys()].join(', ');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No ${what} here (no prompts; the resource templates: ${known})`);
    });
    const resolve = server.resolveScopeChallenge;
    server.resolveScopeChallenge = (context) => {
      if (context.request.method !== 'completion/complete') return resolve(context);
      const [scope, ...more] = this.scopesOf(context.request.params as CompleteParams | undefined);
      return scope === undefined ? undefined : requireScopes(scope, ...more)(context);
    };
  }

  /** The scopes a completion of `params` needs: its resource's and its completing procedure's. */
  private scopesOf(params: CompleteParams | undefined): string[] {
    const template = params?.ref?.type === 'ref/resource' ? this.templates.get(params.ref.uri) : undefined;
    if (!template) return [];
    const completer = template.completers.get(params!.argument?.name);
    return [...new Set([...template.resource.tool.scopes, ...(completer?.scopes ?? [])])];
  }

  /** Runs the completing procedure of the argument with what was typed and the arguments already chosen. */
  private async complete({ resource, completers }: CompletingTemplate, params: CompleteParams, ctx: ServerContext): Promise<CompleteResult> {
    const { argument, context: chosen } = params;
    const variables = resource.template!.variableNames;
    if (!variables.includes(argument.name)) {
      const message = `Resource template ${resource.uri} has no argument "${argument.name}" (its arguments: ${variables.join(', ')})`;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
    }
    const completer = completers.get(argument.name);
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    const checked = await validated(completer.inputSchema, { query: { ...chosen?.arguments, value: argument.value } });
    if (!('value' in checked)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot complete "${argument.name}" with ${JSON.stringify(argument.value)}: ${checked.reason}`);
    }
    const context = requestContext();
    if (context && !context.calledTool) context.calledTool = completer.name;
    const { result, toolCall } = await runToolCall(completer, checked.value, ctx, { answers: {} }, this.runOptions);
    if (result.isError || toolCall.pendingInput) {
      const status = toolCall.outcome?.status ?? 500;
      const code = status >= 400 && status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
      throw new ProtocolError(code, errorTextOf(result.content), { status });
    }
    return completionOf(result.structuredContent, completer.name);
  }
}
