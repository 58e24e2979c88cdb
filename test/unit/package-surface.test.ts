// The package's own facts: the name and version it states are its package.json's, and withMcpGateway adds what the
// gateway needs to an app's Next.js config without dropping what the app set or another wrapper added.
import fs from 'node:fs';
import path from 'node:path';
import type { NextConfig } from 'next';
import { describe, expect, test } from 'vitest';
import { GATEWAY_NAME, GATEWAY_VERSION } from '@gateway/about';
import { GATEWAY_SERVER_EXTERNAL_PACKAGES, withMcpGateway } from '@gateway/next';

const packageJson = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../packages/vovk-mcp-gateway/package.json'), 'utf8'),
);

describe('the package states itself', () => {
  test('serverInfo and OpenAPI name and version are the package.json ones', () => {
    expect({ name: GATEWAY_NAME, version: GATEWAY_VERSION }).toEqual({ name: packageJson.name, version: packageJson.version });
  });
});

describe('withMcpGateway', () => {
  test("adds the gateway's server packages and keeps every setting of the app", () => {
    const wrapped = withMcpGateway({ distDir: 'out', serverExternalPackages: ['sharp', 'pg'], poweredByHeader: false });
    expect(wrapped.distDir).toBe('out');
    expect(wrapped.poweredByHeader).toBe(false);
    expect(wrapped.serverExternalPackages).toEqual(['sharp', 'pg', ...GATEWAY_SERVER_EXTERNAL_PACKAGES.filter((name) => name !== 'pg')]);
  });

  test('composes with another config wrapper, in either order', () => {
    const other = (config: NextConfig): NextConfig => ({ ...config, basePath: '/docs' });
    for (const wrapped of [other(withMcpGateway({ trailingSlash: true })), withMcpGateway(other({ trailingSlash: true }))]) {
      expect(wrapped).toMatchObject({ basePath: '/docs', trailingSlash: true });
      expect(wrapped.serverExternalPackages).toEqual([...GATEWAY_SERVER_EXTERNAL_PACKAGES]);
    }
  });

  test('with no config at all, still a config', () => {
    expect(withMcpGateway().serverExternalPackages).toEqual([...GATEWAY_SERVER_EXTERNAL_PACKAGES]);
  });
});
