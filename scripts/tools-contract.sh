#!/usr/bin/env bash
# `npm run tools:lock` / `npm run tools:check [-- OPTIONS]`: the package's `vovk-mcp-gateway tools lock|check` on the
# reference app's production catalogue (its lock: mcp-tools.lock.json), the package built first when stale and the MCP
# App documents the route imports generated when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_gateway_dist
[ -f src/mcp-apps/generated/html.ts ] || npm run generate:apps >&2
GATEWAY_TEST_BUILD=0 exec npx vovk-mcp-gateway tools "$@" --import ./scripts/build-defines.mjs
