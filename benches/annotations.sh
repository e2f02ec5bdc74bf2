#!/usr/bin/env bash
# What token counts and git markers cost, as ratios measured in one run:
#   1. a directory outline of a real tree (the eval corpus, committed to a temp git repo, a few
#      files edited) plain, with --tokens, with --diff: the ratios against plain;
#   2. markers for one file in a repository of 10,000 files: outline --diff FILE vs plain.
#   benches/annotations.sh [TREE] [RUNS]      TREE defaults to the eval corpus
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-${OUTLINE_EVAL_HOME:-$HOME/.cache/outliner-eval}/corpus}
runs=${2:-5}
[ -d "$tree" ] || { echo "annotations: no directory $tree" >&2; exit 2; }
cargo build --release --quiet
bin=$PWD/target/release/outline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
git_q() { git -c user.name=bench -c user.email=bench@example.com -c init.defaultBranch=main "$@" >/dev/null; }

best() {  # best wall time in ms over $runs runs (one warm-up run first)
  "$@" >/dev/null 2>&1 || true
  local best_ms=999999999 t0 t1 ms
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 )); [ "$ms" -lt "$best_ms" ] && best_ms=$ms
  done
  echo "$best_ms"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b < 1) b = 1; printf "%.2f", a / b }'; }

# 1. A real tree under git, with a handful of edits.
cp -r "$tree" "$work/real"
(cd "$work/real" && git_q init && git_q add -A && git_q commit -m base)
find "$work/real" -name '*.py' | sort > "$work/py.list"
head -20 "$work/py.list" | while read -r f; do printf '\n# edited\n' >> "$f"; done
plain=$(best "$bin" --print --max-files 100000 --max-output 1000000000 "$work/real")
tokens=$(best "$bin" --print --tokens --max-files 100000 --max-output 1000000000 "$work/real")
diff=$(best "$bin" --print --diff --max-files 100000 --max-output 1000000000 "$work/real")
files=$(find "$work/real" -type f -not -path '*/.git/*' | wc -l)
echo "tree: $tree ($files files)"
echo "directory outline: plain ${plain} ms, --tokens ${tokens} ms ($(ratio "$tokens" "$plain")x), --diff ${diff} ms ($(ratio "$diff" "$plain")x)"

# 2. 10,000 files, one of them edited.
mkdir -p "$work/big"
for d in $(seq 0 99); do
  mkdir -p "$work/big/pkg$d"
  for f in $(seq 0 99); do
    printf 'def f%s():\n    return %s\n\n\ndef g():\n    pass\n' "$f" "$f" > "$work/big/pkg$d/mod$f.py"
  done
done
(cd "$work/big" && git_q init && git_q add -A && git_q commit -m base)
printf '\n\ndef added():\n    pass\n' >> "$work/big/pkg50/mod50.py"
one_plain=$(best "$bin" --print "$work/big/pkg50/mod50.py")
one_diff=$(best "$bin" --print --diff "$work/big/pkg50/mod50.py")
echo "one file in a 10,000-file repository: plain ${one_plain} ms, --diff ${one_diff} ms (markers cost $(( one_diff - one_plain )) ms)"
