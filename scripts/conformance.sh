#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned) against the test build with its fixtures on: what each protocol
# revision requires (2026-07-28, 2025-11-25; every required scenario must pass), then every scenario (--suite all,
# for visibility; a failure that conformance/expected-failures.yml does not list fails it, as does a stale entry).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_test_build
ensure_conformance_suite
port="${CONFORMANCE_PORT:-3219}"
data="$(mktemp -d)"
suite=conformance/node_modules/@modelcontextprotocol/conformance
mkdir -p test-reports && rm -rf test-reports/conformance test-reports/conformance-*.log
# The conformance fixtures make the catalogue larger than MCP_LIST_MAX: the suite expects them all in tools/list.
MCP_CONFORMANCE=1 MCP_LIST_MAX=1000 PORT="$port" DATABASE_FILE="$data/gateway.db" \
  node server/gateway.mjs -p "$port" > test-reports/conformance-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
wait_for_url "http://localhost:$port/api/users"

# run NAME ARGS…: one run of the suite, its results in test-reports/conformance/NAME, its output in a log of its own.
status=0
run() {
  local name=$1
  shift
  echo "conformance $name…"
  conformance/node_modules/.bin/node "$suite/dist/index.js" server --url "http://localhost:$port/api/mcp" \
    -o "test-reports/conformance/$name" "$@" > "test-reports/conformance-$name.log" 2>&1 || status=1
}
# With --requirements the suite scores the required scenarios only (a baseline would not apply to the others), so
# those runs take no expected-failures file; the tally holds their other scenarios to it.
run 2026-07-28 --requirements 2026-07-28
run 2025-11-25 --requirements 2025-11-25
run all --suite all --expected-failures conformance/expected-failures.yml
node scripts/conformance-tally.mjs test-reports/conformance conformance/expected-failures.yml "$suite/requirements" \
  test-reports/conformance.json || status=1
exit $status
