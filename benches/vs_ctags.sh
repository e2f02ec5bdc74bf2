#!/usr/bin/env bash
# Times `outline --print --json --depth 99 DIR` against Universal Ctags on the same tree and
# prints the ratio. Both run warm (one untimed run first), best of N runs each.
#   benches/vs_ctags.sh [DIR] [RUNS]     DIR defaults to the eval corpus (scripts/eval.sh sets it up)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${OUTLINE_EVAL_HOME:-$HOME/.cache/outliner-eval}/corpus}
runs=${2:-5}
command -v ctags >/dev/null || { echo "vs_ctags: Universal Ctags is not installed (apt-get install universal-ctags)" >&2; exit 2; }
[ -d "$dir" ] || { echo "vs_ctags: no directory $dir" >&2; exit 2; }
cargo build --release --quiet
bin=target/release/outline

source benches/lib.sh

bytes=$(du -sb "$dir" | cut -f1)
ours=$(best "$bin" --print --json --depth 99 "$dir")
theirs=$(best ctags -R -f /dev/null --fields=+ne "$dir")
awk -v o="$ours" -v t="$theirs" -v b="$bytes" -v d="$dir" 'BEGIN {
  o = (o < 1 ? 1 : o); t = (t < 1 ? 1 : t);
  printf "tree: %s (%.1f MB)\n", d, b / 1e6;
  printf "outline: %6d ms  %7.1f MB/s\n", o, b / 1e3 / o;
  printf "ctags:   %6d ms  %7.1f MB/s\n", t, b / 1e3 / t;
  printf "outline is %.1fx faster than ctags\n", t / o }'
