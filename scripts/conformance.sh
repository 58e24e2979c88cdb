#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned; every scenario) against the test build with its fixtures on.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_conformance_suite
export GATEWAY_TEST_BUILD=1
ensure_build
port="${CONFORMANCE_PORT:-3219}"
data="$(mktemp -d)"
mkdir -p test-reports && rm -rf test-reports/conformance
MCP_CONFORMANCE=1 PORT="$port" DATABASE_FILE="$data/gateway.db" \
  node node_modules/next/dist/bin/next start -p "$port" > test-reports/conformance-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
wait_for_url "http://localhost:$port/api/users"
set +e
conformance/node_modules/.bin/node conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js server \
  --suite all --url "http://localhost:$port/api/mcp" \
  --expected-failures conformance/expected-failures.yml -o test-reports/conformance > test-reports/conformance.log 2>&1
status=$?
set -e
sed -n '/=== SUMMARY ===/,$p' test-reports/conformance.log
node scripts/conformance-tally.mjs test-reports/conformance conformance/expected-failures.yml test-reports/conformance.json
exit $status
