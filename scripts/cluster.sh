#!/usr/bin/env bash
# npm run cluster: PostgreSQL, three gateway instances (the production build) and nginx in front of them, all on
# loopback; prints the URL and stops everything on Ctrl-C. Installs what is missing (npm packages, Debian's postgresql
# and nginx) and builds first when needed. CLUSTER_PORT (8080): nginx; the instances take the three ports after it.
# The database is a throwaway cluster (scripts/lib.sh ensure_postgres): its data goes when the cluster stops.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
export GATEWAY_TEST_BUILD=0
ensure_build
ensure_nginx

listen="${CLUSTER_PORT:-8080}"
ports=("$((listen + 1))" "$((listen + 2))" "$((listen + 3))")
CLUSTER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gateway-cluster-XXXXXX")
pids=()
stop_cluster() {
  # A second Ctrl-C must not cut the clean-up short (PostgreSQL would be left running).
  trap '' INT TERM
  trap - EXIT
  echo "Stopping the cluster…"
  # The instances drain (requests in flight finish) while nginx still routes to the others; nginx and PostgreSQL last.
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_postgres
  rm -rf "$CLUSTER_DIR"
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM

ensure_postgres
# What every instance must share: the database, and the key that signs the state a client carries from one instance
# to another (confirmations, input-required round trips).
export DATABASE_URL="$TEST_DATABASE_URL"
GATEWAY_STATE_SECRET=$(node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))")
export GATEWAY_STATE_SECRET
# Behind nginx: the public origin (OAuth resource, REST links, the explorer) and the client address are what it forwards.
export GATEWAY_TRUST_PROXY=1
export GATEWAY_PUBLIC_ORIGIN="${GATEWAY_PUBLIC_ORIGIN:-http://localhost:$listen}"
for index in 0 1 2; do
  PORT=${ports[$index]} node server/gateway.mjs -H 127.0.0.1 -p "${ports[$index]}" > "$CLUSTER_DIR/instance-$((index + 1)).log" 2>&1 &
  pids+=("$!")
done
for port in "${ports[@]}"; do wait_for_url "http://127.0.0.1:$port/readyz" 60; done

render_nginx_conf "$CLUSTER_DIR/nginx" "$listen" "${ports[@]}"
"$(nginx_bin)" -p "$CLUSTER_DIR/nginx" -c nginx.conf -g 'daemon off;' &
pids+=("$!")
wait_for_url "http://127.0.0.1:$listen/livez"

echo
echo "Gateway cluster: http://localhost:$listen  (MCP: http://localhost:$listen/api/mcp)"
echo "  instances on 127.0.0.1:${ports[*]}, PostgreSQL ${DATABASE_URL}"
echo "  logs in $CLUSTER_DIR (instance-N.log, nginx/access.log); Ctrl-C stops everything"
wait -n "${pids[@]}" || true
echo "A process of the cluster ended by itself: see its log above."
