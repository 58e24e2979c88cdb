#!/usr/bin/env bash
# Starts the gateway (REST + MCP) on http://localhost:${PORT:-3000}; installs and builds first when needed.
# `npm start` serves the production build (.next) whatever the environment says; `npm run start:test` (--test) the
# test build (.next-test), which adds the test-only modules of src/testing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
if [ "${1:-}" = --test ]; then
  export GATEWAY_TEST_BUILD=1
  shift
else
  export GATEWAY_TEST_BUILD=0
fi
ensure_node_modules
ensure_build
export PORT="${PORT:-3000}"
# The gateway's own entry, not `next start`: it owns the HTTP server, so that SIGTERM/SIGINT drain it without losing a
# request (the package's lifecycle.ts: requests in flight finish, every connection is answered and closed, then exit 0).
exec node server/gateway.mjs -p "$PORT" "$@"
