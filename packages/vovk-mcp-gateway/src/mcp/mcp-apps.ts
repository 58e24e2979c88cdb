// MCP Apps for derived tools: `@mcpApp(name)` next to a handler names its UI (and who may call the tool); the gateway
// adds the tool's `_meta.ui` and serves that UI's one bundled HTML document as a `ui://` resource (MIME
// text/html;profile=mcp-app).
import 'server-only';
import type { McpUiResourceMeta, McpUiToolMeta, McpUiToolVisibility } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { createDecorator, type VovkSchema } from 'vovk';
import type { GatewayTool } from './gateway-tools.js';

/** `@operation` field where `@mcpApp` records the name of a procedure's UI (OpenAPI readers see it too). */
export const MCP_APP_KEY = 'x-mcp-app';

/**
 * What `@mcpApp` records: the UI's name, or the name and who may call the tool (`['app']`: only the UI, through its
 * host — the model is not offered it).
 */
export type McpAppUse = string | { name: string; visibility: McpUiToolVisibility[] };

/** What `@mcpApp` may say besides the UI's name. */
interface McpAppOptions {
  /** Who may call the tool, as MCP Apps define it. @default ['model', 'app'] (the key is left out) */
  visibility?: McpUiToolVisibility[];
}

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
 * `{ visibility: ['app'] }` makes a tool only that UI calls (`_meta.ui.visibility`): hosts keep it from the model.
 * REST is unchanged.
 */
export function mcpApp(name: string, { visibility }: McpAppOptions = {}) {
  const use: McpAppUse = visibility ? { name, visibility } : name;
  return createDecorator(null, () => (handlerSchema: HandlerSchema) => ({
    ...handlerSchema,
    operationObject: { ...handlerSchema?.operationObject, [MCP_APP_KEY]: use },
  }))();
}

/** The `_meta.ui` of a tool declaring `use`. */
function toolUiMeta(use: McpAppUse): McpUiToolMeta & { resourceUri: string } {
  if (typeof use === 'string') return { resourceUri: appResourceUri(use) };
  return { resourceUri: appResourceUri(use.name), visibility: use.visibility };
}

const appNameOf = (use: McpAppUse) => (typeof use === 'string' ? use : use.name);

/**
 * The tools with the UI metadata of the apps they declare, as ext-apps' `registerAppTool` writes it (both keys); worked
 * out once at start. A tool naming a UI that `apps` lacks is a programming error: it throws.
 */
export function withAppUis(tools: GatewayTool[], apps: McpAppUis = {}): GatewayTool[] {
  return tools.map((tool) => {
    if (!tool.app) return tool;
    const name = appNameOf(tool.app);
    if (!Object.hasOwn(apps, name)) {
      throw new Error(`${tool.name} declares the MCP app "${name}", which the registry's apps do not have`);
    }
    const ui = toolUiMeta(tool.app);
    return { ...tool, _meta: { ...tool._meta, ui, [RESOURCE_URI_META_KEY]: ui.resourceUri } };
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
