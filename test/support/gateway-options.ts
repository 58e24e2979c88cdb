// The options a unit test's gateway server is made with: the configuration's defaults, origin localhost:3000, no data changes.
import { config } from '@gateway/config';

/** `createGatewayServer`'s options as `createMcpGateway` gives them with no setting changed (no change feed). */
export function testGatewayOptions() {
  return {
    publicOrigin: () => 'http://localhost:3000',
    confirmDestructive: true,
    listMax: 40,
    listTtlMs: config().mcpListTtlMs,
    codeMode: { ...config().codeMode, maxBodyBytes: config().mcpMaxBodyBytes },
    subscriptions: config().subscriptions,
    dataChanges: () => () => {},
  };
}
