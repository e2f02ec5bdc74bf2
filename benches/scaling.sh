#!/usr/bin/env bash
# How the tree-wide modes scale with cores, against ripgrep doing the same work (issue 29's
# table). Every command runs under `taskset` on the first N cores, for each N in $CORES; each
# round runs every command once in turn and the best of $ROUNDS is kept, so a busy moment hits
# all alike. Prints one Markdown table, milliseconds.
#   benches/scaling.sh TREE                     BIN defaults to this checkout's release build
#   BEFORE=old/outline benches/scaling.sh TREE   adds the older build's columns
#   CORES="1 2 4 8 16" ROUNDS=3 RG=path/to/rg    the defaults (core counts above nproc are skipped)
# A large tree: the evaluation corpus hard-linked 20 times (cp -al) is about 480 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:?usage: benches/scaling.sh TREE}
rounds=${ROUNDS:-3}
rg=${RG:-rg}
command -v "$rg" >/dev/null || { echo "scaling.sh: ripgrep is not installed (apt-get install ripgrep)" >&2; exit 2; }
command -v taskset >/dev/null || { echo "scaling.sh: taskset is missing (util-linux)" >&2; exit 2; }
[ -d "$tree" ] || { echo "scaling.sh: no directory $tree" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=${CARGO_TARGET_DIR:-$PWD/target}/release/outline
fi

source benches/lib.sh

names=() commands=()
add() { names+=("$1"); shift; commands+=("$*"); }
for who in ${BEFORE:+before} now; do
  bin=$BIN; [ "$who" = before ] && bin=$BEFORE
  prefix=""; [ -n "${BEFORE:-}" ] && prefix="$who "
  add "${prefix}JSON outline" "$bin" --print --json --depth 99 "$tree"
  add "${prefix}--grep return" "$bin" --print --grep return --max-output 4000000000 "$tree"
  add "${prefix}--refs new" "$bin" --print --refs new --max-output 4000000000 "$tree"
  add "${prefix}--grep nomatch" "$bin" --print --grep zzqqxxnomatch "$tree"
  add "${prefix}--find miss" "$bin" --print --find ZzqNoSuchName "$tree"
done
add "rg -c ." "$rg" -c . "$tree"
add "rg return" "$rg" return "$tree"
add "rg -w new" "$rg" -w new "$tree"
add "rg -c nomatch" "$rg" -c zzqqxxnomatch "$tree"
add "rg --files" "$rg" --files "$tree"

for i in "${!commands[@]}"; do ${commands[$i]} >/dev/null 2>&1 || true; done  # warm the cache
header="| cores |" rule="| --- |"
for name in "${names[@]}"; do header+=" $name |"; rule+=" --- |"; done
echo "$header"; echo "$rule"
for n in ${CORES:-1 2 4 8 16}; do
  [ "$n" -le "$(nproc)" ] || continue
  pin=(taskset -c "$(seq -s, 0 $((n - 1)))")
  interleaved_best
  row="| $n |"
  for i in "${!commands[@]}"; do row+=" ${best[$i]} |"; done
  echo "$row"
done
