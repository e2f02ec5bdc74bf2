#!/usr/bin/env bash
# Instructions per input byte of `outline --print --json --depth 99 FILE...`, counted by
# callgrind (stable on a shared machine, where wall time is not), with Universal Ctags' figure
# on the same files beside it.
#   benches/instructions.sh FILE...          e.g. benches/instructions.sh /tmp/redis/src/*.c
#   BEFORE=path/to/old/outline benches/instructions.sh FILE...  counts an older build too
#   KEEP=DIR benches/instructions.sh FILE... keeps the callgrind profiles in DIR for
#                                            `callgrind_annotate DIR/outline.out`
# The issue's reference set is redis's src/*.c (`git archive` of github.com/redis/redis).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: benches/instructions.sh FILE..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
cargo build --release --quiet
bin=$PWD/target/release/outline
out=${KEEP:-$(mktemp -d)}
mkdir -p "$out"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$out"' EXIT

bytes=$(cat -- "$@" | wc -c)
# Callgrind's "Collected : N" line is the instruction count of the whole run.
count() {
  local name=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$out/$name.out" "$@" >/dev/null 2>"$out/$name.log" ||
    { echo "instructions: $name failed, see $out/$name.log" >&2; return 1; }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/$name.log"
}
ours=$(count outline "$bin" --print --json --depth 99 -- "$@")
before=0
[ -z "${BEFORE:-}" ] || before=$(count before "$BEFORE" --print --json --depth 99 -- "$@")
theirs=""
command -v ctags >/dev/null && theirs=$(count ctags ctags -f "$out/ctags.tags" --fields=+ne "$@")
awk -v o="$ours" -v t="${theirs:-0}" -v b="$bytes" -v n="$#" -v p="$before" 'BEGIN {
  printf "input:   %d files, %d bytes\n", n, b;
  printf "outline: %14d instructions  %6.1f per byte\n", o, o / b;
  if (p > 0) printf "before:  %14d instructions  %6.1f per byte\n", p, p / b;
  if (t > 0) printf "ctags:   %14d instructions  %6.1f per byte\n", t, t / b;
  else print "ctags:   not installed" }'
