// Unit tests of how an MCP Apps host says it forwards resource updates into its apps: ext-apps#659's
// `serverResources.subscribe`, and our experimental key, which the App's own parsing of the handshake keeps.
import { McpUiHostCapabilitiesSchema } from '@modelcontextprotocol/ext-apps';
import { describe, expect, test } from 'vitest';
import { forwardsResourceUpdates, RESOURCE_UPDATES_CAPABILITY, withResourceUpdates } from '@gateway/shared/app-resource-updates';

describe('a host that forwards resource updates', () => {
  test('says so both ways, and the App’s own parsing keeps our key (it drops serverResources.subscribe)', () => {
    const declared = withResourceUpdates({ serverTools: {}, serverResources: {} });
    expect(declared).toMatchObject({ serverResources: { subscribe: true }, experimental: { [RESOURCE_UPDATES_CAPABILITY]: {} } });
    const asTheAppSeesIt = McpUiHostCapabilitiesSchema.parse(declared);
    expect(asTheAppSeesIt.serverResources).toEqual({});
    expect(forwardsResourceUpdates(asTheAppSeesIt)).toBe(true);
    expect(forwardsResourceUpdates({ serverResources: { subscribe: true } } as never)).toBe(true);
  });

  test('a host that says neither does not forward', () => {
    expect(forwardsResourceUpdates(undefined)).toBe(false);
    expect(forwardsResourceUpdates({ serverTools: {}, serverResources: { listChanged: true } })).toBe(false);
  });
});
