#!/usr/bin/env bash
# The walk against ripgrep's, paired: each round runs every command once, in turn, so a busy
# moment on a shared machine hits them all alike; the best of N rounds is kept. Ratios are
# what to compare (absolute times move with the machine's load).
#   benches/walk.sh [TREE] [ROUNDS]          TREE defaults to the cargo registry's sources
#   BEFORE=path/to/old/outline benches/walk.sh ...   times an older build beside this one
# Commands: a --grep that matches nothing (about the walk alone) vs `rg -c` and `rg --files`;
# a full-depth JSON outline vs `rg -j1 -c .`. CORES=1 runs everything under `taskset -c 0`.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-$HOME/.cargo/registry/src}
rounds=${2:-5}
command -v rg >/dev/null || { echo "walk.sh: ripgrep is not installed (apt-get install ripgrep)" >&2; exit 2; }
[ -d "$tree" ] || { echo "walk.sh: no directory $tree" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=${CARGO_TARGET_DIR:-$PWD/target}/release/outline
fi
pin=()
[ -n "${CORES:-}" ] && pin=(taskset -c "$(seq -s, 0 $((CORES - 1)))")

names=() commands=()
add() { names+=("$1"); shift; commands+=("$*"); }
for who in ${BEFORE:+before} now; do
  bin=$BIN; [ "$who" = before ] && bin=$BEFORE
  add "$who --grep nomatch" "$bin" --grep zzqqxxnomatch "$tree"
  add "$who --print --json" "$bin" --print --json --depth 99 "$tree"
done
add "rg -c nomatch" rg -c zzqqxxnomatch "$tree"
add "rg --files" rg --files "$tree"
add "rg -j1 -c ." rg -j1 -c . "$tree"

source benches/lib.sh
warm=1 interleaved_best
ms_of() { for i in "${!names[@]}"; do [ "${names[$i]}" = "$1" ] && echo "${best[$i]}"; done; }
ratio() { awk -v a="$(ms_of "$1")" -v b="$(ms_of "$2")" 'BEGIN { b = (b < 1 ? 1 : b); printf "%.2f", a / b }'; }
echo "tree: $tree, best of $rounds rounds${CORES:+, $CORES core(s)}"
for i in "${!names[@]}"; do printf '  %-22s %7s ms\n' "${names[$i]}" "${best[$i]}"; done
for who in ${BEFORE:+before} now; do
  echo "$who: --grep nomatch / rg -c nomatch $(ratio "$who --grep nomatch" "rg -c nomatch")," \
    "/ rg --files $(ratio "$who --grep nomatch" "rg --files")," \
    "--print --json / rg -j1 -c . $(ratio "$who --print --json" "rg -j1 -c .")"
done
if [ -n "${BEFORE:-}" ]; then
  echo "now / before: --grep nomatch $(ratio "now --grep nomatch" "before --grep nomatch")," \
    "--print --json $(ratio "now --print --json" "before --print --json")"
fi
