// MCP Apps for derived tools: `@mcpApp(name)` next to a handler names its UI; the gateway adds the tool's `_meta.ui`
// and serves that UI's one bundled HTML document as a `ui://` resource (MIME text/html;profile=mcp-app).
import 'server-only';
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { createDecorator, type VovkSchema } from 'vovk';
import type { GatewayTool } from './gateway-tools';

/** `@operation` field where `@mcpApp` records the name of a procedure's UI (OpenAPI readers see it too). */
export const MCP_APP_KEY = 'x-mcp-app';

/** One UI the gateway can serve: its name and description as resources/list shows them, and its HTML document. */
interface McpAppUi {
  title: string;
  description: string;
  /** One self-contained document: scripts and styles inline, nothing loaded from the network. */
  html: string;
}

/** The UIs procedures may name, by name. */
export type McpAppUis = Record<string, McpAppUi>;

/** The `ui://` resource of the UI named `name`. */
function appResourceUri(name: string): string {
  return `ui://vovk-mcp-gateway/${name}.html`;
}

/**
 * What the gateway's UIs ask of a host: no network access of any kind (every CSP list empty: everything is bundled in,
 * and tool calls go through the host over postMessage), and a border.
 */
export const APP_RESOURCE_META: McpUiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/**
 * Declares the UI an MCP Apps host shows with a procedure's result, next to its handler:
 * `@mcpApp('board') @get() static getBoard = …`. The name is one of the registry's `apps`; the tool then lists
 * `_meta.ui.resourceUri` (and the legacy `_meta["ui/resourceUri"]`), and resources/read of that URI returns the UI.
 * REST is unchanged.
 */
export function mcpApp(name: string) {
  return createDecorator(null, () => (handlerSchema: HandlerSchema) => ({
    ...handlerSchema,
    operationObject: { ...handlerSchema?.operationObject, [MCP_APP_KEY]: name },
  }))();
}

/**
 * The tools with the UI metadata of the apps they declare, as ext-apps' `registerAppTool` writes it (both keys); worked
 * out once at start. A tool naming a UI that `apps` lacks is a programming error: it throws.
 */
export function withAppUis(tools: GatewayTool[], apps: McpAppUis = {}): GatewayTool[] {
  return tools.map((tool) => {
    if (!tool.app) return tool;
    if (!Object.hasOwn(apps, tool.app)) {
      throw new Error(`${tool.name} declares the MCP app "${tool.app}", which the registry's apps do not have`);
    }
    const resourceUri = appResourceUri(tool.app);
    return { ...tool, _meta: { ...tool._meta, ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri } };
  });
}

/** Registers every UI of `apps` as a resource of `server` (resources/list and resources/read). */
export function registerAppResources(server: McpServer, apps: McpAppUis = {}): void {
  for (const [name, { title, description, html }] of Object.entries(apps)) {
    const uri = appResourceUri(name);
    const _meta = { ui: APP_RESOURCE_META };
    registerAppResource(server, name, uri, { title, description, _meta }, async () => ({
      contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: html, _meta }],
    }));
  }
}
