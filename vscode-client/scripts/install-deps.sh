#!/usr/bin/env bash
# Installs the extension's npm dependencies exactly as package-lock.json pins them (npm ci).
# Install scripts are skipped: nothing here needs them (esbuild's binary comes as an optional
# package; keytar's would try to download a prebuilt addon or node headers, which a closed network
# refuses, and only vsce's credential store uses it). The registry can fail a request now and then:
# up to three tries, and on the last failure the tail of npm's own log, so the cause is on record.
set -euo pipefail
cd "$(dirname "$0")/.."
for attempt in 1 2 3; do
  if npm ci --ignore-scripts --no-audit --no-fund --loglevel=error --fetch-retries=4; then
    exit 0
  fi
  echo "install-deps: npm ci failed (attempt $attempt of 3)" >&2
  [ "$attempt" -lt 3 ] && sleep $((attempt * 10))
done
echo "install-deps: node $(node --version), npm $(npm --version)" >&2
log=$(ls -t "${npm_config_cache:-$HOME/.npm}"/_logs/*-debug-*.log 2>/dev/null | head -1 || true)
if [ -n "$log" ]; then
  echo "install-deps: the end of npm's log $log:" >&2
  tail -40 "$log" >&2
fi
exit 1
