#!/usr/bin/env bash
# Runs the end-to-end tests (Playwright: real MCP clients, Debian's chromium, Debian's nginx for the rolling restart)
# against the test build and, for the production-build checks, the production build; builds either when missing or
# stale. Extra arguments go to Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_chromium
ensure_nginx
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  trap stop_postgres EXIT
  ensure_postgres
fi
GATEWAY_TEST_BUILD=0 ensure_build
GATEWAY_TEST_BUILD=1 ensure_build
npx playwright test "$@"
