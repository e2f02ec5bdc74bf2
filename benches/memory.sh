#!/usr/bin/env bash
# Peak RSS (KB, /usr/bin/time -f %M) of the runs issue 27 found costing far more than the file:
# a 10 MB one-line Python file of `x=1;` (print, and --find x at one and two results), an
# 11 MB JSON array of objects, and a dense one-liner of each family scanner that makes many
# entries per byte. Target: under 100 MB for the 10 MB file, a small multiple of any file.
# Seconds too: a one-line file of C functions was quadratic (the line cursor searched the line
# from its start for each entry: minutes for 10 MB), so every row should take about a second.
#   benches/memory.sh            (BIN=path/to/outline to measure another build)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "memory.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/outline
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# $2 repeated to $3 bytes (10 MB by default), one line, into $work/$1.
dense() {
  python3 -c 'import sys; p=sys.argv[2]; open(sys.argv[1],"w").write(p*(int(sys.argv[3])//len(p)))' \
    "$work/$1" "$2" "${3:-10485760}"
}
dense x.py 'x=1;'
python3 -c 'import json,sys; json.dump([{"a":i,"b":"xx"} for i in range(450000)], open(sys.argv[1],"w"))' "$work/array.json"
dense dense.rs 'fn a(){}'
dense dense.go 'func a(){};'
dense dense.js 'function a(){}'
dense dense.css 'a{}'
dense dense.sql 'create table a(b int);'
dense dense.c 'int a(){}'

rss() {  # peak RSS in KB and seconds of outline "$@"
  /usr/bin/time -f '%M %e' "$BIN" "$@" 2>&1 >/dev/null | tail -1
}

printf '%-44s %10s %10s %8s\n' run bytes 'peak KB' seconds
row() {
  local file=$1; shift
  # shellcheck disable=SC2046 # rss prints two numbers, one per column
  printf '%-44s %10s %10s %8s\n' "$* $file" "$(stat -c %s "$work/$file")" $(rss "$@" "$work/$file")
}
row x.py --print
row x.py --print --find x --max-results 1
row x.py --print --find x --max-results 2
row x.py --print --json
row array.json --print
for f in dense.rs dense.go dense.js dense.css dense.sql dense.c; do
  row "$f" --print
done
