// Playwright global setup: one production server for the whole run (its pid in E2E_SERVER_PID), stopped at teardown.
import { e2ePort, startServer } from './server';

export default async function globalSetup() {
  const server = await startServer(e2ePort);
  process.env.E2E_SERVER_PID = String(server.pid);
  return server.stop;
}
