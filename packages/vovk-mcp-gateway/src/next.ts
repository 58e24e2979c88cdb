// The package's Next.js entry ("vovk-mcp-gateway/next"): withMcpGateway(nextConfig) adds what Next.js needs to serve
// the gateway (its native and wasm packages left to Node, not bundled) and composes with other config wrappers.
import type { NextConfig } from 'next';

/** Packages the gateway loads at run time that Next.js must not bundle (native addons, a wasm file found by path). */
export const GATEWAY_SERVER_EXTERNAL_PACKAGES = [
  'better-sqlite3',
  'pg',
  '@jitl/quickjs-wasmfile-release-sync',
  'quickjs-emscripten-core',
  'gpt-tokenizer',
] as const;

/** The app's Next.js config with what the gateway needs added; every setting the app made is kept. */
export function withMcpGateway(nextConfig: NextConfig = {}): NextConfig {
  const external = new Set([...(nextConfig.serverExternalPackages ?? []), ...GATEWAY_SERVER_EXTERNAL_PACKAGES]);
  return { ...nextConfig, serverExternalPackages: [...external] };
}
