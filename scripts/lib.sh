# Shared steps of the project scripts: install npm packages, Debian's chromium and postgresql when missing, the
# conformance suite; start a throwaway PostgreSQL test cluster.

# Next.js would otherwise print its telemetry notice (and phone home) on every build.
export NEXT_TELEMETRY_DISABLED=1

# apt_install PACKAGE: installs a Debian package (as root, else through sudo).
apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$1" >/dev/null
}

# Installs the locked npm packages (npm ci, whose postinstall applies patches/ with patch-package) when node_modules is
# missing or older than package-lock.json or a patch.
ensure_node_modules() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
    [ -n "$(find patches -newer node_modules/.package-lock.json -print -quit 2>/dev/null)" ]; then
    echo "Installing npm packages (npm ci)…"
    npm ci --no-audit --no-fund
  fi
}

# Installs Debian's chromium for the browser tests (test tools cannot download their own browser here).
ensure_chromium() {
  if ! command -v chromium >/dev/null 2>&1; then
    echo "Installing Debian's chromium…"
    apt_install chromium
  fi
  export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
}

# The build directory of the flavour asked for: .next-test with GATEWAY_TEST_BUILD=1 (the test build), else .next.
build_dir() {
  if [ "${GATEWAY_TEST_BUILD:-}" = 1 ]; then echo .next-test; else echo .next; fi
}

# Builds that flavour (`npm run build` or `npm run build:test`) when it has no build or a source file is newer than it.
ensure_build() {
  local dir
  dir=$(build_dir)
  if [ ! -f "$dir/BUILD_ID" ] ||
    [ -n "$(find src packages/vovk-mcp-gateway/src public patches next.config.mjs tsconfig.json package-lock.json -newer "$dir/BUILD_ID" -print -quit)" ]; then
    if [ "$dir" = .next-test ]; then npm run build:test; else npm run build; fi
  fi
}

# Builds the package (npm run build:gateway) when dist/ is missing or older than a source of it.
ensure_gateway_dist() {
  local package=packages/vovk-mcp-gateway
  if [ ! -f "$package/dist/index.js" ] ||
    [ -n "$(find "$package/src" "$package/package.json" -newer "$package/dist/index.js" -print -quit)" ]; then
    npm run build:gateway >&2
  fi
}

# Installs the npm packages and builds the test build when needed; exports GATEWAY_TEST_BUILD=1 for what runs it next.
ensure_test_build() {
  ensure_node_modules
  export GATEWAY_TEST_BUILD=1
  ensure_build
}

# Installs the conformance suite and the Node 22 it runs on (conformance/package.json), when missing or outdated.
ensure_conformance_suite() {
  if [ ! -f conformance/node_modules/.package-lock.json ] ||
    [ conformance/package-lock.json -nt conformance/node_modules/.package-lock.json ]; then
    npm ci --prefix conformance --no-audit --no-fund
  fi
}

# Waits until URL answers (any HTTP status), at most SECONDS (default 30).
wait_for_url() {
  node -e '
    const [url, seconds] = process.argv.slice(1);
    const deadline = Date.now() + Number(seconds) * 1000;
    (async function poll() {
      try { await fetch(url); process.exit(0); } catch {}
      if (Date.now() > deadline) { console.error(`no answer from ${url}`); process.exit(1); }
      setTimeout(poll, 100);
    })();' "$1" "${2:-30}"
}

# Directory of Debian's PostgreSQL server binaries (initdb, pg_ctl), newest version first; empty when not installed.
postgres_bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

# Runs a command as the `postgres` OS user when we are root (PostgreSQL refuses to run as root), else as ourselves;
# from / , since that user may not enter the working directory (paths given to it are absolute).
as_postgres_user() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# Starts a throwaway PostgreSQL cluster (Debian's `postgresql`, installed when missing) in a temp dir, listening on a
# free loopback port only, and exports TEST_DATABASE_URL (superuser `postgres`, no password). Stop it with stop_postgres.
ensure_postgres() {
  if [ -z "$(postgres_bin_dir)" ]; then
    echo "Installing Debian's postgresql…"
    apt_install postgresql
  fi
  local bin port
  bin=$(postgres_bin_dir)
  PG_TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gateway-pg-XXXXXX")
  [ "$(id -u)" = 0 ] && chown postgres: "$PG_TEST_DIR"
  port=$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
  as_postgres_user "$bin/initdb" -D "$PG_TEST_DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
  as_postgres_user "$bin/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w -s start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_TEST_DIR -c fsync=off -c synchronous_commit=off"
  export PG_TEST_DIR
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL test cluster on 127.0.0.1:$port"
}

# Stops the cluster ensure_postgres started and removes its directory.
stop_postgres() {
  [ -n "${PG_TEST_DIR:-}" ] && [ -d "$PG_TEST_DIR" ] || return 0
  as_postgres_user "$(postgres_bin_dir)/pg_ctl" -D "$PG_TEST_DIR/data" -m fast -w -s stop || true
  rm -rf "$PG_TEST_DIR"
  unset PG_TEST_DIR TEST_DATABASE_URL
}

# Debian's nginx binary; empty when not installed.
nginx_bin() {
  local bin
  bin=$(command -v nginx || true)
  [ -z "$bin" ] && [ -x /usr/sbin/nginx ] && bin=/usr/sbin/nginx
  echo "$bin"
}

# Installs Debian's nginx when missing (the cluster and the rolling-restart test put it in front of the instances).
# Only the binary is used: it runs with a configuration of ours (render_nginx_conf), never as the system service.
ensure_nginx() {
  if [ -z "$(nginx_bin)" ]; then
    echo "Installing Debian's nginx…"
    apt_install nginx
  fi
}

# render_nginx_conf DIR LISTEN_PORT INSTANCE_PORT…: deploy/nginx.conf with its listen port and upstream servers
# replaced, as DIR/nginx.conf (DIR is nginx's prefix: logs, pid and buffers go there). Start it with
# `"$(nginx_bin)" -p DIR -c nginx.conf -g 'daemon off;'`.
render_nginx_conf() {
  local dir=$1 listen=$2
  shift 2
  local servers="" port
  for port in "$@"; do servers+="    server 127.0.0.1:$port max_fails=1 fail_timeout=2s;\n"; done
  mkdir -p "$dir/tmp"
  # As root, nginx's workers run as nobody: they must be able to write their buffers in DIR/tmp.
  [ "$(id -u)" = 0 ] && chmod 755 "$dir" && chmod 777 "$dir/tmp"
  awk -v listen="$listen" -v servers="$servers" '
    /^ *server 127\.0\.0\.1:[0-9]+ / { if (!done) { printf "%s", servers; done = 1 } next }
    /^ *listen 127\.0\.0\.1:[0-9]+;/ { sub(/:[0-9]+;/, ":" listen ";") }
    { print }' "$(dirname "${BASH_SOURCE[0]}")/../deploy/nginx.conf" > "$dir/nginx.conf"
}
