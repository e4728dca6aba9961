#!/usr/bin/env bash
# Builds the VSIX: the bundled extension plus the linux-x64 server binary at
# server/linux-x64/graphmend, which the extension starts when graphmend.serverPath is empty.
#   vscode-client/scripts/package.sh [--server PATH] [--out FILE.vsix]
# --server defaults to $GRAPHMEND_BIN, then build/graphmend; --out to
# vscode-client/graphmend-VERSION.vsix. Prints the VSIX's path on the last line.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SERVER=${GRAPHMEND_BIN:-$ROOT/build/graphmend}
OUT=
while [ $# -gt 0 ]; do
  case $1 in
    --server) SERVER=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) echo "usage: $0 [--server PATH] [--out FILE.vsix]" >&2; exit 2 ;;
  esac
done
if [ ! -x "$SERVER" ]; then
  echo "package.sh: no server binary at $SERVER (build it: meson setup build && ninja -C build)" >&2
  exit 2
fi
SERVER=$(cd "$(dirname "$SERVER")" && pwd)/$(basename "$SERVER")
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
