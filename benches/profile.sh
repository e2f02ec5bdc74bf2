#!/usr/bin/env bash
# Profiles one run of outline, built with the `profiling` profile (release plus line tables;
# the release profile carries no debug info).
#   benches/profile.sh perf ARGS...        perf record (DWARF call graphs), then the top functions
#   benches/profile.sh callgrind ARGS...   callgrind, then instructions per function
#   benches/profile.sh instructions ARGS... instructions executed (callgrind's total)
# e.g. benches/profile.sh perf --print --tokens ~/.cache/outliner-eval/corpus
# Output files land in target/profiling/ (perf.data, callgrind.out).
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:-}
[ $# -ge 2 ] || { sed -n '2,8p' "$0" >&2; exit 2; }
shift
cargo build --profile profiling --quiet
bin=$PWD/target/profiling/outline
out=$PWD/target/profiling
case "$tool" in
  perf)
    command -v perf >/dev/null || { echo "profile: perf is not installed" >&2; exit 2; }
    perf record -q -o "$out/perf.data" --call-graph dwarf,16384 "$bin" "$@" >/dev/null
    perf report -i "$out/perf.data" --no-children --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -30
    ;;
  callgrind | instructions)
    command -v valgrind >/dev/null || { echo "profile: valgrind is not installed" >&2; exit 2; }
    valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" "$bin" "$@" \
      >/dev/null 2>"$out/callgrind.log"
    if [ "$tool" = instructions ]; then
      grep -o 'Collected : [0-9]*' "$out/callgrind.log" | awk '{ print $3 " instructions" }'
    else
      callgrind_annotate "$out/callgrind.out" 2>/dev/null | head -40
    fi
    ;;
  *) sed -n '2,8p' "$0" >&2; exit 2 ;;
esac
