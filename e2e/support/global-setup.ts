// Playwright global setup: one production server for the whole run, stopped by the returned teardown.
import { startServer } from './server';

export default async function globalSetup() {
  return startServer();
}
