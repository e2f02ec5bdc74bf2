#!/usr/bin/env bash
# Times the search modes against ripgrep (and --find against ctags) on one tree, paired in one
# run, warm (one untimed run first), best of N runs each; then the peak RSS of each mode.
#   benches/search.sh [DIR] [NAME] [PATTERN] [RUNS]
# DIR defaults to the cargo registry's sources (a few hundred MB of real Rust and C), NAME to a
# function name defined in many places, PATTERN to a regex with a literal prefix.
# Targets (issue 9): find within 3x of `rg -w 'fn NAME|def NAME|class NAME'` and faster than
# `ctags -R` + lookup; grep within 3x of `rg PATTERN`; refs within 3x of `rg -w NAME`;
# peak RSS under 200 MB on a 100 MB tree.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-$HOME/.cargo/registry/src}
name=${2:-parse}
pattern=${3:-'fn new\('}
runs=${4:-3}
command -v rg >/dev/null || { echo "search.sh: ripgrep is not installed (apt-get install ripgrep)" >&2; exit 2; }
command -v ctags >/dev/null || { echo "search.sh: Universal Ctags is not installed (apt-get install universal-ctags)" >&2; exit 2; }
[ -d "$dir" ] || { echo "search.sh: no directory $dir" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "search.sh: /usr/bin/time is needed for RSS (apt-get install time)" >&2; exit 2; }
cargo build --release --quiet
bin=$PWD/target/release/outline
tags=$(mktemp)
trap 'rm -f "$tags"' EXIT

source benches/lib.sh

ctags_lookup() {  # index the tree, then look the name up: what an agent with ctags does
  ctags -R -f "$tags" --fields=+ne "$dir" && grep -c "^$name	" "$tags"
}

rss() {  # peak RSS in MB of "$@"
  /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }'
}

bytes=$(du -sb "$dir" | cut -f1)
printf 'tree: %s (%.0f MB), name: %s, pattern: %s, best of %s\n' "$dir" "$(echo "$bytes / 1000000" | bc -l)" "$name" "$pattern" "$runs"
find_ms=$(best "$bin" --print --find "$name" --max-results 1000000 "$dir")
rg_def_ms=$(best rg -w "fn $name|def $name|class $name" "$dir")
ctags_ms=$(best ctags_lookup)
grep_ms=$(best "$bin" --print --grep "$pattern" --max-output 1000000000 "$dir")
rg_ms=$(best rg "$pattern" "$dir")
refs_ms=$(best "$bin" --print --refs "$name" --max-output 1000000000 "$dir")
rg_w_ms=$(best rg -w "$name" "$dir")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { b = (b < 1 ? 1 : b); printf "%.2f", a / b }'; }
printf '%-8s %8s ms   vs %-34s %8s ms   ratio %s\n' \
  "--find" "$find_ms" "rg -w 'fn|def|class NAME'" "$rg_def_ms" "$(ratio "$find_ms" "$rg_def_ms")" \
  "--find" "$find_ms" "ctags -R + lookup" "$ctags_ms" "$(ratio "$find_ms" "$ctags_ms")" \
  "--grep" "$grep_ms" "rg PATTERN" "$rg_ms" "$(ratio "$grep_ms" "$rg_ms")" \
  "--refs" "$refs_ms" "rg -w NAME" "$rg_w_ms" "$(ratio "$refs_ms" "$rg_w_ms")"
printf 'peak RSS: --find %s MB, --grep %s MB, --refs %s MB, directory outline (JSON) %s MB\n' \
  "$(rss "$bin" --print --find "$name" "$dir")" \
  "$(rss "$bin" --print --grep "$pattern" --max-output 1000000000 "$dir")" \
  "$(rss "$bin" --print --refs "$name" --max-output 1000000000 "$dir")" \
  "$(rss "$bin" --print --json --depth 99 "$dir")"
