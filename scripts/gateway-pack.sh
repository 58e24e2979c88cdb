#!/usr/bin/env bash
# `npm run gateway:pack -- DIR`: builds the package and writes its tarball (what `npm publish` would ship) into DIR
# (relative to where npm was run), then prints the tarball's path.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ]; then
  echo "Usage: npm run gateway:pack -- DIR" >&2
  exit 2
fi
case "$1" in
  /*) dir="$1" ;;
  *) dir="${INIT_CWD:-$PWD}/$1" ;;
esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Built when dist/ is missing or older than a source (the test run's builds leave it fresh, and servers load from it).
source scripts/lib.sh
ensure_gateway_dist
tarball=$(npm pack --workspace vovk-mcp-gateway --pack-destination "$dir" --json | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s)[0].filename))')
echo "$dir/$tarball"
