# Shared steps of the project scripts: install npm packages and Debian's chromium when they are missing.

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
