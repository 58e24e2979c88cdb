// 2025-era resource subscriptions: `resources/subscribe` and `resources/unsubscribe` in a session, whose server then
// sends `notifications/resources/updated` on its standalone stream; they end with the session.
import 'server-only';
import { type McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { sdkRequestHandler } from '../register-tools.js';
import type { ResourceSubscriptions, Subscription } from './resource-subscriptions.js';

/** Serves resource subscriptions on the server of a session of `caller` (its key: the share it counts against). */
export function serveSessionSubscriptions(server: McpServer, subscriptions: ResourceSubscriptions, caller: string): void {
  const held = new Map<string, Subscription>();
  const notify = (uri: string) => {
    if (!server.isConnected()) return;
    server.server.sendResourceUpdated({ uri }).catch((error: Error) => console.error(`[gateway] A resource update could not be sent to a session: ${error.message}`));
  };
  server.server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const { uri } = request.params;
    if (held.has(uri)) return {};
    // Another resource of the session's server (an app's UI, a test fixture) exists when that server reads it.
    const readOther = async (other: string) =>
      sdkRequestHandler<(request: unknown, context: typeof ctx) => Promise<unknown>>(server, 'resources/read')?.({ method: 'resources/read', params: { uri: other } }, ctx);
    const outcome = await subscriptions.subscribe(uri, caller, notify, { ctx, readOther });
    if ('stop' in outcome) {
      held.get(uri)?.stop(); // subscribed twice at once: one is kept
      held.set(uri, outcome);
      return {};
    }
    if (outcome.reason === 'not-found') throw new ResourceNotFoundError(uri);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message, { uri });
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    held.get(request.params.uri)?.stop();
    held.delete(request.params.uri);
    return {};
  });
  const closed = server.server.onclose;
  server.server.onclose = () => {
    for (const subscription of held.values()) subscription.stop();
    held.clear();
    closed?.();
  };
}
