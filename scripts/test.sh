#!/usr/bin/env bash
# Runs every test: type-check, the tool contract (mcp-tools.lock.json), unused code (knip), unit tests (vitest), both
# builds, end-to-end tests (Playwright, real MCP clients) and the official MCP conformance suite; a throwaway PostgreSQL
# cluster on loopback serves the PostgreSQL store tests (stopped on exit).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
set -e
ensure_node_modules
ensure_chromium
trap stop_postgres EXIT
ensure_postgres
rm -rf test-reports && mkdir -p test-reports
ensure_conformance_suite
npm run typecheck
# The catalogue against the committed tool contract: a change that breaks a caller fails the run (docs/tools.md).
npm run tools:check
npx knip
set +e
npx vitest run --reporter=default --reporter=json --outputFile.json=test-reports/unit.json
unit_status=$?
npm run build && npm run build:test &&
  PLAYWRIGHT_JSON_OUTPUT_FILE=test-reports/e2e.json bash scripts/e2e.sh --reporter=list,json
e2e_status=$?
bash scripts/conformance.sh
conformance_status=$?
node scripts/test-summary.mjs test-reports/unit.json test-reports/e2e.json test-reports/conformance.json
summary_status=$?
exit $((unit_status || e2e_status || conformance_status || summary_status))
