// How an MCP Apps host says it forwards resource updates into its views, as ext-apps#659 proposes (not yet in the
// extension): the view sends resources/subscribe { uri } (and resources/unsubscribe) through the host, and the host
// sends it notifications/resources/updated { uri } after each change. Read by the explorer (a host) and the apps.
import type { McpUiHostCapabilities } from '@modelcontextprotocol/ext-apps';

/**
 * Our experimental host capability: ext-apps 2.0.4's App keeps no field of `serverResources` it does not know, so
 * #659's `serverResources.subscribe` alone would not reach the view.
 */
export const RESOURCE_UPDATES_CAPABILITY = 'dev.vovk/resource-updates';

/** `capabilities` saying also that the host forwards resource updates: #659's `serverResources.subscribe` and ours. */
export function withResourceUpdates(capabilities: McpUiHostCapabilities): McpUiHostCapabilities {
  const serverResources = { ...capabilities.serverResources, subscribe: true };
  const experimental = { ...capabilities.experimental, [RESOURCE_UPDATES_CAPABILITY]: {} };
  return { ...capabilities, serverResources, experimental };
}

/** Whether a host with `capabilities` forwards resource updates (either way of saying it). */
export function forwardsResourceUpdates(capabilities: McpUiHostCapabilities | undefined): boolean {
  const subscribe = (capabilities?.serverResources as { subscribe?: unknown } | undefined)?.subscribe;
  return subscribe === true || Boolean(capabilities?.experimental?.[RESOURCE_UPDATES_CAPABILITY]);
}
