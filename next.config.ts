// Next.js configuration: native and database client modules stay server-side, no telemetry-dependent features.
import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  serverExternalPackages: ['better-sqlite3', 'pg'],
  poweredByHeader: false,
};

export default nextConfig;
