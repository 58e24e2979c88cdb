// The app side of an MCP Apps host, shared by the gateway's UIs: connects over postMessage (ui/initialize), follows the
// host's theme, style variables, fonts and container size, hands over the tool results it sends, calls tools, and
// subscribes to resources' updates when the host forwards them (ext-apps#659).
import './without-eval';
import './mcp-app.css';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { forwardsResourceUpdates, RESOURCE_TOOL_META_KEY } from 'vovk-mcp-gateway/browser';

export type HostConnection =
  | { status: 'standalone' }
  | { status: 'connecting' }
  | { status: 'connected'; app: App }
  | { status: 'failed'; error: string };

/** Applies what the host says about its look and the room the app has; fields it leaves out keep their value. */
function followHost({ theme, styles, containerDimensions }: McpUiHostContext): void {
  const root = document.documentElement;
  if (theme) applyDocumentTheme(theme);
  if (styles?.variables) applyHostStyleVariables(styles.variables);
  if (styles?.css?.fonts) applyHostFonts(styles.css.fonts);
  if (containerDimensions) {
    // A fixed height is filled (scrolling inside); a maximum height caps the document, which then scrolls.
    const height = 'height' in containerDimensions ? containerDimensions.height : undefined;
    const maxHeight = 'maxHeight' in containerDimensions ? containerDimensions.maxHeight : undefined;
    root.style.height = height ? `${height}px` : '';
    root.style.maxHeight = maxHeight ? `${maxHeight}px` : '';
    root.style.overflowY = height || maxHeight ? 'auto' : '';
  }
}

/**
 * Connects to the MCP Apps host this document runs in (none when it is opened on its own: `standalone`). Every tool
 * result the host sends goes to `onToolResult`, the first one included.
 */
export function useMcpHost(name: string, onToolResult: (result: CallToolResult) => void): HostConnection {
  const [connection, setConnection] = useState<HostConnection>(() =>
    window.parent === window ? { status: 'standalone' } : { status: 'connecting' },
  );
  const deliver = useRef(onToolResult);
  deliver.current = onToolResult;

  useEffect(() => {
    if (window.parent === window) return;
    const app = new App({ name, version: '0.1.0' }, {}, { autoResize: true });
    // Set before connecting: the host may send the result right after the handshake.
    app.ontoolresult = (result) => deliver.current(result as CallToolResult);
    app.onhostcontextchanged = followHost;
    app.onteardown = async () => ({});
    app.connect().then(
      () => {
        followHost(app.getHostContext() ?? {});
        setConnection({ status: 'connected', app });
      },
      (error: unknown) => setConnection({ status: 'failed', error: error instanceof Error ? error.message : String(error) }),
    );
    return () => void app.close();
  }, [name]);

  return connection;
}

/** The text of a tool result's text items: its message when it is a tool error. */
function resultText(result: CallToolResult): string {
  return result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
}

/**
 * Calls one of the gateway's tools through the host; resolves to its structured output (an array's under `items`),
 * rejects with the tool's message when it fails.
 */
export async function callGatewayTool<T>(app: App, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await app.callServerTool({ name, arguments: args });
  if (result.isError) throw new Error(resultText(result) || `${name} failed`);
  return structuredOutput<T>(result);
}

/** A tool result's structured output: the value itself, or the array a tool wraps as `{ items }`. */
export function structuredOutput<T>(result: CallToolResult): T {
  const structured = result.structuredContent as { items?: unknown } | undefined;
  return (structured && 'items' in structured ? structured.items : structured) as T;
}

/** Whether the host says it forwards resource updates into the app (ext-apps#659). */
export const hostForwardsResourceUpdates = (app: App) => forwardsResourceUpdates(app.getHostCapabilities());

/** The URI of the resource the gateway serves for the tool `toolName` (its `_meta` names the tool), if any. */
export async function resourceOfTool(app: App, toolName: string): Promise<string | undefined> {
  const { resources } = await app.listServerResources();
  return resources.find((resource) => resource._meta?.[RESOURCE_TOOL_META_KEY] === toolName)?.uri;
}

/** The listeners of each app's subscribed resources, by URI (an App takes one handler per notification). */
const updateListeners = new WeakMap<App, Map<string, Set<() => void>>>();

function listenersOf(app: App): Map<string, Set<() => void>> {
  let byUri = updateListeners.get(app);
  if (!byUri) {
    const listeners = new Map<string, Set<() => void>>();
    app.setNotificationHandler('notifications/resources/updated', ({ params }) => {
      for (const listener of listeners.get(params.uri) ?? []) listener();
    });
    updateListeners.set(app, (byUri = listeners));
  }
  return byUri;
}

/**
 * Subscribes through the host to the updates of `uri` (resources/subscribe; the host must forward them): `onUpdated`
 * runs on each notifications/resources/updated of it. Resolves to the unsubscribe; rejects when the host refuses.
 */
export async function watchResource(app: App, uri: string, onUpdated: () => void): Promise<() => void> {
  const byUri = listenersOf(app);
  let listeners = byUri.get(uri);
  if (!listeners) {
    byUri.set(uri, (listeners = new Set()));
    await app.request({ method: 'resources/subscribe', params: { uri } }).catch((error: unknown) => {
      byUri.delete(uri);
      throw error;
    });
  }
  listeners.add(onUpdated);
  return () => {
    listeners.delete(onUpdated);
    if (listeners.size) return;
    byUri.delete(uri);
    app.request({ method: 'resources/unsubscribe', params: { uri } }).catch(() => {});
  };
}

/** What the document shows when opened on its own: it needs a host to hand it data and relay its tool calls. */
export function OutsideHost({ what }: { what: string }) {
  return (
    <div className="mcp-app-outside" role="status">
      <h1>{what}</h1>
      <p>
        This is an MCP App of the Vovk MCP gateway. It runs inside an MCP Apps host — the gateway’s tool explorer, or a
        chat client such as Claude — which hands it the tool’s result and relays its tool calls to the gateway.
      </p>
    </div>
  );
}

/** What the document shows when the host refused the handshake. */
export function HostFailure({ error }: { error: string }) {
  return (
    <p className="mcp-app-failure" role="alert">
      The MCP Apps host could not be reached: {error}
    </p>
  );
}

/** Renders the app into the document's #root. */
export function mount(app: ReactNode): void {
  createRoot(document.getElementById('root')!).render(app);
}
