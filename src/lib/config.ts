// Gateway configuration read from the environment, with embedded defaults so nothing needs to be set.
import path from 'node:path';

function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Port the server listens on (`PORT`, as `next start` reads it). @default 3000 */
export function serverPort(): number {
  return Number(process.env.PORT) || 3000;
}

/** The origin this server serves itself on, for URLs that point back at its own assets. @default http://localhost:PORT */
export function selfOrigin(): string {
  return new URL(process.env.GATEWAY_PUBLIC_ORIGIN || `http://localhost:${serverPort()}`).origin;
}

/** SQLite file of the embedded store (`DATABASE_FILE`), used when `DATABASE_URL` is unset. @default data/gateway.db under the working directory */
export function databaseFile(): string {
  return process.env.DATABASE_FILE || path.join(process.cwd(), 'data', 'gateway.db');
}

/** PostgreSQL connection string (`DATABASE_URL`); when set, the store uses PostgreSQL instead of SQLite. @default unset */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/**
 * Origins `MediaController.getAudioFromURL` may fetch from (`MEDIA_ALLOWED_ORIGINS`, comma-separated).
 * @default this server's own origin, by `localhost` and by `127.0.0.1`
 */
export function mediaAllowedOrigins(): string[] {
  const configured = listFromEnv(process.env.MEDIA_ALLOWED_ORIGINS);
  if (configured.length) return configured.map((origin) => new URL(origin).origin);
  const port = serverPort();
  return [...new Set([selfOrigin(), `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
}
