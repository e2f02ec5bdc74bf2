#!/usr/bin/env bash
# Times `outline --print --json --depth 99 DIR` against Universal Ctags and against one ripgrep
# thread reading and line-scanning every byte (`rg -j1 -c .`, the read floor) on the same tree,
# and prints both ratios. All three run warm (one untimed run first), best of N runs each,
# interleaved in one run so that the ratios share the machine's load.
#   benches/vs_ctags.sh [DIR] [RUNS]     DIR defaults to the eval corpus (scripts/eval.sh sets it up)
#   BEFORE=path/to/old/outline benches/vs_ctags.sh   also times an older build in the same run
#   BIN=path/to/outline benches/vs_ctags.sh          times that build instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${OUTLINE_EVAL_HOME:-$HOME/.cache/outliner-eval}/corpus}
runs=${2:-5}
command -v ctags >/dev/null || { echo "vs_ctags: Universal Ctags is not installed (apt-get install universal-ctags)" >&2; exit 2; }
if ! command -v rg >/dev/null; then
  echo "vs_ctags: installing ripgrep" >&2
  { apt-get update -qq && apt-get install -y -qq ripgrep; } >/dev/null 2>&1 ||
    { echo "vs_ctags: ripgrep is not installed and apt-get could not install it" >&2; exit 2; }
fi
[ -d "$dir" ] || { echo "vs_ctags: no directory $dir" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=target/release/outline
fi
bin=$BIN

source benches/lib.sh

# The files all three read: those the walk keeps (hidden directories such as the corpus's
# `.support` headers and ignored files are skipped by outline and ripgrep alike); ctags gets
# the same list instead of recursing on its own.
files=$(mktemp)
# ctags writes a real tag file: given /dev/null it exits with status 1 ("failed to truncate the
# tag file") as soon as a parser asks to take back what it wrote, which its C# and Kotlin
# parsers do, and that failed run, 0.06 s where the whole run takes 8 s, was once timed as ctags.
tags=$(mktemp)
trap 'rm -f "$files" "$tags" "$tags.err"' EXIT
rg --files "$dir" >"$files"
bytes=$(tr '\n' '\0' <"$files" | xargs -0 stat -c %s | awk '{ s += $1 } END { print s }')
# `best` times whatever a command does, failing included: each must succeed once first.
"$bin" --print --json --depth 99 "$dir" >/dev/null || { echo "vs_ctags: outline failed on $dir" >&2; exit 1; }
ctags -L "$files" -f "$tags" --fields=+ne 2>"$tags.err" ||
  { cat "$tags.err" >&2; echo "vs_ctags: ctags failed on $dir" >&2; exit 1; }
ours=$(best "$bin" --print --json --depth 99 "$dir")
theirs=$(best ctags -L "$files" -f "$tags" --fields=+ne)
floor=$(best rg -j1 -c . "$dir")
before=""
[ -z "${BEFORE:-}" ] || before=$(best "$BEFORE" --print --json --depth 99 "$dir")
awk -v o="$ours" -v t="$theirs" -v r="$floor" -v b="$bytes" -v d="$dir" -v p="$before" 'BEGIN {
  o = (o < 1 ? 1 : o); t = (t < 1 ? 1 : t); r = (r < 1 ? 1 : r);
  printf "tree: %s (%.1f MB)\n", d, b / 1e6;
  printf "outline:     %6d ms  %7.1f MB/s\n", o, b / 1e3 / o;
  printf "ctags:       %6d ms  %7.1f MB/s\n", t, b / 1e3 / t;
  printf "rg -j1 -c .: %6d ms  %7.1f MB/s\n", r, b / 1e3 / r;
  printf "outline is %.1fx faster than ctags and takes %.2fx the time of rg -j1\n", t / o, o / r;
  if (p != "") {
    p = (p < 1 ? 1 : p);
    printf "before:      %6d ms  %7.1f MB/s (%.1fx faster than ctags, %.2fx rg -j1)\n", p, b / 1e3 / p, t / p, p / r } }'
