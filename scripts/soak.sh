#!/usr/bin/env bash
# The soak (npm run soak [-- --minutes N --port N]): first the reliability specs (graceful shutdown, rolling restart
# behind nginx, durability under kill -9, PostgreSQL outage) whose figures go into the report, then scripts/soak.mjs against the test build on
# loopback; writes RELIABILITY.md and its charts in docs/. `--skip-specs` reuses the figures of the last run instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_test_build
if [ "${1:-}" = --skip-specs ]; then
  shift
else
  ensure_chromium
  ensure_nginx
  trap stop_postgres EXIT
  ensure_postgres
  rm -rf test-reports/reliability
  npx playwright test e2e/shutdown.spec.ts e2e/rolling-restart.spec.ts e2e/durability.spec.ts e2e/db-outage.spec.ts
fi
node scripts/soak.mjs "$@"
