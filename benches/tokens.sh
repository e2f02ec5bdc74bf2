#!/usr/bin/env bash
# What --tokens costs, paired in one run (best of N after a warm-up, wall and CPU time):
#   1. a directory outline of a real tree: plain, --tokens (o200k), --tokenizer cl100k; ratios;
#   2. small files, one ASCII and one with non-ASCII text: plain vs --tokens, time and peak
#      RSS (/usr/bin/time -v).
#   benches/tokens.sh [TREE] [RUNS]       TREE defaults to the eval corpus (scripts/eval.sh)
#   BIN=path/to/outline benches/tokens.sh  measures another build (e.g. an older one)
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-${OUTLINE_EVAL_HOME:-$HOME/.cache/outliner-eval}/corpus}
runs=${2:-7}
[ -d "$tree" ] || { echo "tokens: no directory $tree" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "tokens: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/outline
fi
small_ascii=tests/fixtures/python/config_loader.py
small_unicode=README.md

# Best wall ms, best CPU ms (user + sys: perf's task-clock when perf is there, else
# /usr/bin/time's, which counts in 10 ms steps) and the smallest peak RSS (MB) over $runs runs
# of "$@", after one untimed warm-up run.
measure() {
  "$@" >/dev/null 2>&1 || true
  local best_wall=999999 best_cpu=999999 best_rss=999999 out stat t0 t1 wall cpu rss
  out=$(mktemp)
  stat=$(mktemp)
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    if command -v perf >/dev/null; then
      perf stat -x, -e task-clock -o "$stat" /usr/bin/time -f "%U %S %M" -o "$out" "$@" \
        >/dev/null 2>&1 || true
    else
      /usr/bin/time -f "%U %S %M" -o "$out" "$@" >/dev/null 2>&1 || true
    fi
    t1=$(date +%s%N)
    wall=$(( (t1 - t0) / 1000000 ))
    read -r cpu rss < <(awk '{ printf "%d %d\n", ($1 + $2) * 1000, $3 / 1024 }' "$out")
    if command -v perf >/dev/null; then
      cpu=$(awk -F, '/task-clock/ { printf "%d", $1 }' "$stat")
    fi
    [ "$wall" -lt "$best_wall" ] && best_wall=$wall
    [ "$cpu" -lt "$best_cpu" ] && best_cpu=$cpu
    [ "$rss" -lt "$best_rss" ] && best_rss=$rss
  done
  rm -f "$out" "$stat"
  echo "$best_wall $best_cpu $best_rss"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b < 1) b = 1; printf "%.2f", a / b }'; }

echo "binary: $BIN ($(du -h "$BIN" | cut -f1)); load: $(cut -d' ' -f1-3 /proc/loadavg)"
caps=(--max-files 100000 --max-output 1000000000)
read -r plain_w plain_c _ < <(measure "$BIN" --print "${caps[@]}" "$tree")
read -r o200k_w o200k_c _ < <(measure "$BIN" --print --tokens "${caps[@]}" "$tree")
read -r cl100k_w cl100k_c _ < <(measure "$BIN" --print --tokens --tokenizer cl100k "${caps[@]}" "$tree")
read -r again_w again_c _ < <(measure "$BIN" --print "${caps[@]}" "$tree")
[ "$again_w" -lt "$plain_w" ] && plain_w=$again_w
[ "$again_c" -lt "$plain_c" ] && plain_c=$again_c
echo "directory $tree ($(du -sh "$tree" | cut -f1)), wall ms (CPU ms):"
echo "  plain ${plain_w} (${plain_c})"
echo "  --tokens ${o200k_w} (${o200k_c}): $(ratio "$o200k_w" "$plain_w")x wall, $(ratio "$o200k_c" "$plain_c")x CPU"
echo "  --tokenizer cl100k ${cl100k_w} (${cl100k_c}): $(ratio "$cl100k_w" "$plain_w")x wall, $(ratio "$cl100k_c" "$plain_c")x CPU"

for file in "$small_ascii" "$small_unicode"; do
  read -r pw pc pr < <(measure "$BIN" --print "$file")
  read -r tw tc tr < <(measure "$BIN" --print --tokens "$file")
  echo "small file $file ($(wc -c < "$file") bytes): plain ${pw} ms (CPU ${pc} ms) ${pr} MB," \
    "--tokens ${tw} ms (CPU ${tc} ms) ${tr} MB"
done
