// Playwright: end-to-end tests against a production build (`next start`), in Debian's chromium.
import { defineConfig } from '@playwright/test';
import { e2eBaseURL } from './e2e/support/server';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 30_000,
  workers: 2,
  reporter: [['list']],
  use: {
    baseURL: e2eBaseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
