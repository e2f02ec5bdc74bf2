#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after the other, and prints the
# executions per target and any crash found. Needs a nightly toolchain and cargo-fuzz
# (`cargo +nightly install cargo-fuzz`). Exit status 1 when a target crashed.
#   fuzz/run.sh 300            # five minutes per target
#   TARGETS="rust js_ts" fuzz/run.sh 60
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
# No sanitizer: the crate forbids unsafe code, and panics, overflows (debug assertions on)
# and stack exhaustion abort without one, at several times the speed.
flags=(--sanitizer none --debug-assertions --release)
targets=${TARGETS:-$(cargo +nightly fuzz list)}

[ -d corpus ] || ./seed.sh
cargo +nightly fuzz build "${flags[@]}"
mkdir -p logs
status=0
printf '%-10s %12s %10s  %s\n' target execs "execs/s" result
for target in $targets; do
  log="logs/$target.log"
  mkdir -p "corpus/$target" "artifacts/$target"
  set +e
  cargo +nightly fuzz run "${flags[@]}" "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 >"$log" 2>&1
  code=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  result=ok
  if grep -q 'libFuzzer: run interrupted' "$log"; then
    result="interrupted (exit $code)"
  elif [ "$code" -ne 0 ]; then
    result="CRASH (exit $code): $(grep -o 'artifacts/[^ ]*' "$log" | tail -1) see fuzz/$log"
    status=1
  fi
  printf '%-10s %12s %10s  %s\n' "$target" "$execs" "$((execs / seconds))" "$result"
done
exit $status
