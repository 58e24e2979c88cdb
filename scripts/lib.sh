# Shared steps of the project scripts: install npm packages and Debian's chromium when they are missing.

# Next.js would otherwise print its telemetry notice (and phone home) on every build.
export NEXT_TELEMETRY_DISABLED=1

# Installs the locked npm packages when node_modules is missing or older than package-lock.json.
ensure_node_modules() {
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "Installing npm packages (npm ci)…"
    npm ci --no-audit --no-fund
  fi
}

# Installs Debian's chromium for the browser tests (test tools cannot download their own browser here).
ensure_chromium() {
  if ! command -v chromium >/dev/null 2>&1; then
    echo "Installing Debian's chromium…"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
  export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
}

# Builds the production bundle when there is none or a source file is newer than it.
ensure_build() {
  if [ ! -f .next/BUILD_ID ] ||
    [ -n "$(find src public next.config.ts tsconfig.json package-lock.json -newer .next/BUILD_ID -print -quit)" ]; then
    npx next build
  fi
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
