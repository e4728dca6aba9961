#!/usr/bin/env bash
# run_fuzzer.sh TARGET SEEDS DICT SECONDS: fuzzes TARGET for SECONDS on a scratch copy of SEEDS.
set -euo pipefail
target=$1 seeds=$2 dict=$3 seconds=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$seeds"/. "$work"/
cd "$work"
exec "$target" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -dict="$dict" -print_final_stats=1 "$work"
