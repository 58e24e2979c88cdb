// @ts-check
// Next.js configuration: the production build in .next, the test build (GATEWAY_TEST_BUILD=1) in .next-test. Plain
// JavaScript typed through JSDoc: a next.config.ts would be transpiled on every start, some 45 ms of the cold start.
// Wrapped by the gateway's withMcpGateway, as the quickstart tells every adopting app.
import { withMcpGateway } from 'vovk-mcp-gateway/next';

/**
 * `npm run build:test` / `npm run start:test` set GATEWAY_TEST_BUILD=1: the build then goes to `.next-test` (never
 * replacing the production `.next`) and `__GATEWAY_TEST_BUILD__` is compiled in as `true`, which adds the test-only
 * code of `src/testing` to the registry. In the production build it is `false` and that code is not in the bundle.
 */
const testBuild = process.env.GATEWAY_TEST_BUILD === '1';

/** @type {import('next').NextConfig} */
const nextConfig = {
  distDir: testBuild ? '.next-test' : '.next',
  // Route files named `route.test-build.ts` (bare benchmark floors) are routes of the test build only: the production
  // build has no file for them, so every method answers 404 there.
  pageExtensions: testBuild ? ['test-build.ts', 'tsx', 'ts', 'jsx', 'js'] : ['tsx', 'ts', 'jsx', 'js'],
  compiler: { defineServer: { __GATEWAY_TEST_BUILD__: testBuild } },
  poweredByHeader: false,
  // Read at every start (not baked into the build). What is compressed: the gateway's http/compression-policy.ts.
  compress: process.env.GATEWAY_COMPRESS !== '0',
  // Not every page and route at start: a first MCP or REST request would wait behind the explorer's and the API
  // reference's React code being loaded; each route loads with its first request instead.
  experimental: { preloadEntriesOnStart: false },
};

export default withMcpGateway(nextConfig);
