#!/usr/bin/env bash
# Runs the benchmark (scripts/bench.mjs) against a production build on loopback; installs and builds first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_build
exec node scripts/bench.mjs "$@"
