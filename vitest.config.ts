// Vitest configuration: unit tests under test/, `@/` resolved to src/ as in the app.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});
