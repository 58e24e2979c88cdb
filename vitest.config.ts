// Vitest configuration: unit tests under test/, `@/` resolved to src/ as in the app, `@gateway/` to the package's
// source, the production registry, and `server-only` resolved as Next.js resolves it for server code.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const gatewaySource = path.resolve(import.meta.dirname, 'packages/vovk-mcp-gateway/src');

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` },
      { find: /^@gateway\//, replacement: `${gatewaySource}/` },
      // The app's imports of the package's entry points run the same source modules as the tests' (one instance of each).
      { find: /^vovk-mcp-gateway$/, replacement: `${gatewaySource}/index.ts` },
      { find: /^vovk-mcp-gateway\/next$/, replacement: `${gatewaySource}/next.ts` },
      { find: /^vovk-mcp-gateway\/(explorer|browser)$/, replacement: `${gatewaySource}/$1/index.ts` },
      { find: /^server-only$/, replacement: path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js') },
    ],
  },
  // As in the production build (next.config.mjs): the registry without the test-only modules of src/testing.
  define: { __GATEWAY_TEST_BUILD__: 'false' },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
