#!/usr/bin/env bash
# `npm run test:soak [-- ROUNDS]`: proves the suite does not fail by chance (CONTRIBUTING.md, "How a
# test waits"). First the whole `npm test` ROUNDS times in a row; then the browser and renderer suites
# ROUNDS times more while the sync bench loads both cores beside them. Stops at the first red round
# and says which; the load stops with the script, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
log_dir="test-results/soak"
mkdir -p "$log_dir"

round() {
  local name="$1"; shift
  local log="$log_dir/$name.log"
  local started=$SECONDS
  if "$@" >"$log" 2>&1; then
    echo "$name: green in $((SECONDS - started)) s ($(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' | tail -1 | sed -E 's/^ +//'))"
  else
    echo "$name: RED after $((SECONDS - started)) s; the failures are in $log:"
    grep -E 'FAIL|✗|×' "$log" | sed -E 's/\x1b\[[0-9;]*m//g' | head -20
    exit 1
  fi
}

for n in $(seq 1 "$rounds"); do
  round "whole-suite-$n" npm test
done

load_pid=""
stop_load() { [ -n "$load_pid" ] && kill -- "-$load_pid" 2>/dev/null || true; }
trap stop_load EXIT
# The sync bench in a loop (its own process group, so it stops with everything it started).
setsid bash -c 'while true; do npm run bench -- sync >/dev/null 2>&1 || true; done' &
load_pid=$!

for n in $(seq 1 "$rounds"); do
  round "browser-and-renderer-under-load-$n" npx vitest run test/e2e test/renderer
done
echo "soak: $rounds whole runs and $rounds loaded browser and renderer runs, all green"
