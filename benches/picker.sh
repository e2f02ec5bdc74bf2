#!/usr/bin/env bash
# The symbol picker on a 100 MB tree of real sources (benches/picker.rs measures): copies
# whole crates from the local cargo registry into memory (/dev/shm) until their outlinable
# files reach 100 MB, then runs the bench on that tree.
#   benches/picker.sh [MB]          PICKER_TREE=/a/checkout cargo bench --bench picker  (own tree)
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(( ${1:-100} * 1024 * 1024 ))
registry=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ 2>/dev/null | head -1)
[ -n "$registry" ] || { echo "picker: no cargo registry sources to build a tree from" >&2; exit 2; }
base=/dev/shm
[ -w "$base" ] || base=${TMPDIR:-/tmp}
tree=$(mktemp -d "$base/picker-tree.XXXXXX")
trap 'rm -rf "$tree"' EXIT
total=0
for crate in "$registry"*/; do
  size=$(find "$crate" -type f \( -name '*.rs' -o -name '*.c' -o -name '*.h' -o -name '*.py' \
    -o -name '*.md' -o -name '*.toml' -o -name '*.json' -o -name '*.js' -o -name '*.ts' \
    -o -name '*.go' -o -name '*.cpp' -o -name '*.yml' -o -name '*.yaml' \) -printf '%s\n' \
    | awk '{s += $1} END {print s + 0}')
  cp -r "$crate" "$tree/"
  total=$(( total + size ))
  [ "$total" -ge "$want" ] && break
done
echo "tree: $(( total / 1024 / 1024 )) MB of outlinable files in $(ls "$tree" | wc -l) crates, $(du -sh "$tree" | cut -f1) on disk"
PICKER_TREE=$tree cargo bench --bench picker
