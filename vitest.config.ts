// Vitest configuration: unit tests under test/, `@/` resolved to src/ as in the app, the production registry.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  // As in the production build (next.config.ts): the registry without the test-only modules of src/testing.
  define: { __GATEWAY_TEST_BUILD__: 'false' },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
