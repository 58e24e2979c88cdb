// Next.js configuration: the production build in .next, the test build (GATEWAY_TEST_BUILD=1) in .next-test.
import type { NextConfig } from 'next';

/**
 * `npm run build:test` / `npm run start:test` set GATEWAY_TEST_BUILD=1: the build then goes to `.next-test` (never
 * replacing the production `.next`) and `__GATEWAY_TEST_BUILD__` is compiled in as `true`, which adds the test-only
 * code of `src/testing` to the registry. In the production build it is `false` and that code is not in the bundle.
 */
const testBuild = process.env.GATEWAY_TEST_BUILD === '1';

const nextConfig: NextConfig = {
  distDir: testBuild ? '.next-test' : '.next',
  compiler: { defineServer: { __GATEWAY_TEST_BUILD__: testBuild } },
  serverExternalPackages: ['better-sqlite3', 'pg'],
  poweredByHeader: false,
  // Read by `next start` (not baked into the build). What is compressed: src/lib/http/compression-policy.ts.
  compress: process.env.GATEWAY_COMPRESS !== '0',
};

export default nextConfig;
