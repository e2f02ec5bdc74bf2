#!/usr/bin/env bash
# A newcomer's set-up, timed: a fresh clone of REV (default HEAD) with an empty target dir runs
# the README's two commands, `cargo run --release -- --print src` then `cargo test --release`.
# Prints each one's wall time and how many crates it compiled, and how many crates the second
# compiled that the first had already compiled (0 when the two share one build). The load
# average is printed with the times, which depend on it. The cargo registry is not cleared.
#   benches/setup.sh [REV]
set -euo pipefail
cd "$(dirname "$0")/.."
rev=$(git rev-parse "${1:-HEAD}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q --no-checkout . "$work/repo"
git -C "$work/repo" checkout -q "$rev"
cd "$work/repo"
export CARGO_TARGET_DIR=$work/target

# Runs "$@", logging to $work/$1.log; prints its wall seconds and crates compiled.
step() {
  local name=$1
  shift
  local t0 t1 status=0
  t0=$(date +%s)
  "$@" >"$work/$name.log" 2>&1 || status=$?
  t1=$(date +%s)
  grep -o 'Compiling [^ ]* v[^ ]*' "$work/$name.log" | sort -u >"$work/$name.crates" || true
  printf '%-5s %4d s, %3d crates compiled, exit %d, load %s\n' "$name" $((t1 - t0)) \
    "$(wc -l <"$work/$name.crates")" "$status" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "set-up of $(git log --oneline -1 "$rev") on $(nproc) cores"
step run cargo run --release -- --print src
step test cargo test --release
again=$(comm -12 "$work/run.crates" "$work/test.crates")
echo "compiled by both: $(printf '%s' "$again" | grep -c . || true)"
[ -z "$again" ] || printf '%s\n' "$again" | sed 's/^Compiling /  /' | paste -sd' '
