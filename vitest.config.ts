// Vitest configuration: unit tests under test/, `@/` resolved to src/ as in the app, the production registry, and
// `server-only` resolved as Next.js resolves it for server code (the tests run the server's modules).
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` },
      { find: /^server-only$/, replacement: path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js') },
    ],
  },
  // As in the production build (next.config.mjs): the registry without the test-only modules of src/testing.
  define: { __GATEWAY_TEST_BUILD__: 'false' },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
