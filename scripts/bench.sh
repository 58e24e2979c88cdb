#!/usr/bin/env bash
# Runs the benchmark (scripts/bench.mjs) against the test build on loopback; installs and builds first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_test_build
exec node scripts/bench.mjs "$@"
