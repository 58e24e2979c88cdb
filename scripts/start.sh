#!/usr/bin/env bash
# Starts the gateway (REST + MCP) on http://localhost:${PORT:-3000}; installs and builds first when needed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_build
export PORT="${PORT:-3000}"
exec node node_modules/next/dist/bin/next start -p "$PORT"
