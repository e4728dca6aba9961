#!/usr/bin/env bash
# Builds the VSIX: the bundled extension plus the linux-x64 server binary at
# server/linux-x64/graphmend, which the extension starts when graphmend.serverPath is empty.
#   vscode-client/scripts/package.sh [--server PATH] [--out FILE.vsix] [--allow-dynamic]
# --server defaults to $GRAPHMEND_BIN, then the self-contained binary of `tools/build static`
# (built when missing: the one the wheel carries); --out to vscode-client/graphmend-VERSION.vsix.
# A binary that needs libuv, jansson or tree-sitter from the system would not start on a machine
# without them: refused unless --allow-dynamic. Prints the VSIX's path on the last line.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SERVER=${GRAPHMEND_BIN:-}
OUT=
ALLOW_DYNAMIC=
while [ $# -gt 0 ]; do
  case $1 in
    --server) SERVER=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --allow-dynamic) ALLOW_DYNAMIC=1; shift ;;
    *) echo "usage: $0 [--server PATH] [--out FILE.vsix] [--allow-dynamic]" >&2; exit 2 ;;
  esac
done
if [ -z "$SERVER" ]; then
  SERVER=$ROOT/build-static/graphmend
  "$ROOT/tools/build" static >&2
fi
if [ ! -x "$SERVER" ]; then
  echo "package.sh: no server binary at $SERVER (build it: meson setup build && ninja -C build)" >&2
  exit 2
fi
SERVER=$(cd "$(dirname "$SERVER")" && pwd)/$(basename "$SERVER")
if [ -z "$ALLOW_DYNAMIC" ] && readelf -d "$SERVER" | grep -E 'NEEDED.*(libuv|libjansson|libtree-sitter)' >&2; then
  echo "package.sh: $SERVER links the libraries above from the system; bundle the binary of" \
       "\`tools/build static\` (or pass --allow-dynamic)" >&2
  exit 2
fi
cd "$HERE"
VERSION=$(node -p "require('./package.json').version")
OUT=${OUT:-$HERE/graphmend-$VERSION.vsix}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
[ -d node_modules ] || scripts/install-deps.sh
mkdir -p server/linux-x64
cp "$SERVER" server/linux-x64/graphmend
chmod 755 server/linux-x64/graphmend
"$SERVER" --version >/dev/null
# vscode:prepublish type-checks and bundles (esbuild) into dist/extension.js.
npx vsce package --no-dependencies --allow-missing-repository --skip-license --out "$OUT" >&2
echo "$OUT"
