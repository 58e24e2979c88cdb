// The explorer as an MCP Apps host: a tool's UI (its ui:// resource) in a sandboxed iframe under the CSP its metadata
// asks for, connected through ext-apps' AppBridge, given the tool's input and result, its tool calls and resource
// reads relayed to the gateway over the explorer's own MCP connection (so the same sign-in applies), and — when asked
// to, and the gateway sends them — the updates of the resources it subscribes to forwarded into it (ext-apps#659).
import 'client-only';
import {
  AppBridge,
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  isToolVisibilityModelOnly,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiResourceCsp,
  type McpUiResourceMeta,
  type McpUiStyles,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { withResourceUpdates } from '../../shared/app-resource-updates.js';
import type { ResourceAccess } from './resources.js';

/** What the host needs of the explorer's MCP connection. */
export interface AppHostGateway {
  tools: Tool[];
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  resources: ResourceAccess;
}

/** The `ui://` URI of a tool's UI, or undefined when it has none (or a malformed one). */
export function uiResourceUriOf(tool: Tool): string | undefined {
  try {
    return getToolUiResourceUri(tool);
  } catch {
    return undefined;
  }
}

/** A tool only its app calls (`_meta.ui.visibility: ['app']`): hosts keep it from the model. */
export const isAppOnly = (tool: Tool) => isToolVisibilityAppOnly(tool);

/**
 * Whether the explorer shows the tool's UI with its result: it has one, and is not an app-only tool (whose result is
 * data its app asked for, not what the app is opened with).
 */
export const showsAppFor = (tool: Tool) => Boolean(uiResourceUriOf(tool)) && !isAppOnly(tool);

/** What `sandbox` allows the app's iframe: scripts, and forms (which the apps submit to their own handlers only). */
export const APP_SANDBOX = 'allow-scripts allow-forms';

/** An app's document may grow to this height inside the explorer; beyond it, it scrolls. */
const APP_MAX_HEIGHT = 720;

const HOST_INFO = { name: 'vovk-gateway-explorer', version: '0.1.0' };

/** The explorer's palette, as the style variables MCP Apps define, so an app looks like part of the page. */
const HOST_STYLES: McpUiHostContext['styles'] = {
  variables: {
    '--color-background-primary': '#ffffff',
    '--color-background-secondary': '#f4f6f9',
    '--color-background-tertiary': '#eef1f5',
    '--color-text-primary': '#1c2430',
    '--color-text-secondary': '#5b6675',
    '--color-text-danger': '#b3261e',
    '--color-border-primary': '#d9dee5',
    '--color-ring-primary': '#2456c9',
    '--font-sans': 'system-ui, sans-serif',
    '--border-radius-md': '6px',
  } as McpUiStyles, // hosts pass any subset of the variables
};

/** A CSP source a server may name: scheme and host (wildcard subdomains allowed), nothing that could end a directive. */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i;

/** The listed sources that are well formed, or `fallback` when none is. */
function sources(domains: string[] | undefined, fallback: string): string {
  const valid = (domains ?? []).filter((domain) => SOURCE.test(domain));
  return valid.length ? valid.join(' ') : fallback;
}

/**
 * The Content-Security-Policy an app's document runs under, from its resource's `_meta.ui.csp` as the extension defines
 * it: inline scripts and styles (the document is self-contained), data: images and fonts, and the network only towards
 * the origins the server declared (none declared: no network at all).
 */
export function appContentSecurityPolicy(csp: McpUiResourceCsp = {}): string {
  const resources = sources(csp.resourceDomains, '');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: blob: ${resources}`,
    `font-src data: ${resources}`,
    `media-src data: blob: ${resources}`,
    `connect-src ${sources(csp.connectDomains, "'none'")}`,
    `frame-src ${sources(csp.frameDomains, "'none'")}`,
    `base-uri ${sources(csp.baseUriDomains, "'none'")}`,
    "form-action 'none'",
    "object-src 'none'",
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

/** The document with `policy` as its first element in <head>, so it applies before any script or style runs. */
function withContentSecurityPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`) : `${meta}${html}`;
}

/** The UI document of `uri` and its metadata, as resources/read returns them; rejects anything but an app's HTML. */
async function readAppDocument(gateway: AppHostGateway, uri: string): Promise<{ html: string; ui?: McpUiResourceMeta }> {
  const { contents } = await gateway.resources.read(uri);
  const content = contents.find((each) => each.uri === uri);
  if (!content || !('text' in content) || content.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri} is not an MCP App document (${RESOURCE_MIME_TYPE})`);
  }
  return { html: content.text, ui: (content._meta as { ui?: McpUiResourceMeta } | undefined)?.ui };
}

interface AppRun {
  tool: Tool;
  args: Record<string, unknown>;
  result: CallToolResult;
}

/** How the host treats an app beyond what every app gets. */
export interface HostingOptions {
  /** Forward the updates of the resources the app subscribes to (when the gateway sends them), as ext-apps#659 proposes. */
  forwardUpdates: boolean;
}

/**
 * Serves the app's resources/subscribe and resources/unsubscribe (#659) with watches over the explorer's connection;
 * each update goes into the app as notifications/resources/updated. Returns the function that ends every watch.
 */
function forwardResourceUpdates(bridge: AppBridge, resources: ResourceAccess): () => void {
  const watching = new Map<string, Promise<() => void>>();
  const unwatch = (uri: string) => {
    void watching.get(uri)?.then((stop) => stop(), () => {});
    watching.delete(uri);
  };
  bridge.setRequestHandler('resources/subscribe', async ({ params: { uri } }) => {
    const updated = () => void bridge.notification({ method: 'notifications/resources/updated', params: { uri } });
    if (!watching.has(uri)) watching.set(uri, resources.watch(uri, updated));
    await watching.get(uri)!.catch((error: unknown) => {
      watching.delete(uri);
      throw error;
    });
    return {};
  });
  bridge.setRequestHandler('resources/unsubscribe', async ({ params: { uri } }) => {
    unwatch(uri);
    return {};
  });
  return () => [...watching.keys()].forEach(unwatch);
}

/**
 * Shows the UI of `run.tool` in `iframe`: reads the document, connects the bridge, then loads the document (so the
 * app's first message finds the bridge listening); once the app says it is ready it gets the tool's input and result.
 * `onHeight` follows the height the app asks for. Resolves to a function that tears the app down.
 */
export async function hostApp(
  iframe: HTMLIFrameElement,
  gateway: AppHostGateway,
  run: AppRun,
  onHeight: (height: number) => void,
  { forwardUpdates }: HostingOptions,
): Promise<() => Promise<void>> {
  const uri = uiResourceUriOf(run.tool);
  if (!uri) throw new Error(`${run.tool.name} has no UI`);
  const { html, ui } = await readAppDocument(gateway, uri);
  const hostContext: McpUiHostContext = {
    toolInfo: { tool: run.tool },
    theme: 'light',
    styles: HOST_STYLES,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: APP_MAX_HEIGHT },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'web',
    userAgent: HOST_INFO.name,
  };
  const forwarding = forwardUpdates && gateway.resources.canWatch();
  const capabilities: McpUiHostCapabilities = { serverTools: {}, serverResources: {}, logging: {}, sandbox: { csp: ui?.csp } };
  const bridge = new AppBridge(null, HOST_INFO, forwarding ? withResourceUpdates(capabilities) : capabilities, { hostContext });
  bridge.oncalltool = async ({ name, arguments: args }) => {
    const tool = gateway.tools.find((each) => each.name === name);
    // A tool the server keeps for the model only is not the app's to call.
    if (tool && isToolVisibilityModelOnly(tool)) throw new Error(`${name} is not callable from an app`);
    return gateway.callTool(name, args ?? {});
  };
  bridge.onlistresources = () => gateway.resources.list();
  bridge.onlistresourcetemplates = () => gateway.resources.templates();
  bridge.onreadresource = ({ uri }) => gateway.resources.read(uri, true);
  const stopForwarding = forwarding ? forwardResourceUpdates(bridge, gateway.resources) : () => {};
  bridge.onsizechange = ({ height }) => height !== undefined && onHeight(Math.min(Math.ceil(height), APP_MAX_HEIGHT));
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: run.args });
    void bridge.sendToolResult(run.result);
  };
  const frame = iframe.contentWindow;
  if (!frame) throw new Error('The app frame is not in the page');
  await bridge.connect(new PostMessageTransport(frame, frame));
  iframe.srcdoc = withContentSecurityPolicy(html, appContentSecurityPolicy(ui?.csp));
  return async () => {
    // Give the app its chance to save its state; a gone or unresponsive app does not hold the explorer up.
    const teardown = bridge.teardownResource({}).catch(() => {});
    await Promise.race([teardown, new Promise((resolve) => setTimeout(resolve, 500))]);
    stopForwarding();
    await bridge.close();
  };
}
