# Shared by the benchmark scripts: `source benches/lib.sh` after setting $runs.

# Best wall time in ms of "$@" over $runs runs, after one untimed warm-up run.
best() {
  "$@" >/dev/null 2>&1 || true
  local best_ms=999999999
  for _ in $(seq "$runs"); do
    local t0 t1 ms
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    [ "$ms" -lt "$best_ms" ] && best_ms=$ms
  done
  echo "$best_ms"
}
