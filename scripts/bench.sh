#!/usr/bin/env bash
# Runs the benchmark (scripts/bench.mjs) against the test build on loopback; installs and builds first if needed, and
# starts a throwaway PostgreSQL cluster for the import figure on PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_test_build
trap stop_postgres EXIT
ensure_postgres
# tsx: the search-quality requests are TypeScript (src/testing/catalogue).
node --import tsx scripts/bench.mjs "$@"
