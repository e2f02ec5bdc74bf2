#!/usr/bin/env bash
# Opens a 10,000-file git repository in the TUI inside tmux and reports the time to the first
# frame (launch until the panes show in capture-pane; the tmux polling floor is ~10 ms) and the
# peak resident memory (/usr/bin/time -v, after quitting with q).
#   benches/tui_open.sh [FILES] [RUNS]      BIN=path/to/outline to skip the release build
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}
runs=${2:-3}
[ -x /usr/bin/time ] || { echo "tui_open: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
source benches/lib.sh
viewer_bench_setup tui_open
repo=$work/repo
mkdir -p "$repo"
for d in $(seq 0 99); do
  mkdir -p "$repo/pkg$d"
  for f in $(seq 0 $((files / 100 - 1))); do
    printf 'class C%s:\n    def run(self):\n        return %s\n' "$f" "$f" >"$repo/pkg$d/mod$f.py"
  done
done
git -C "$repo" init -q
git -C "$repo" -c user.name=b -c user.email=b@b add -A
git -C "$repo" -c user.name=b -c user.email=b@b commit -qm init
echo "x = 1" >>"$repo/pkg0/mod0.py"   # one changed file, so git status has work to do

viewer_bench_terminal 200 50 "$repo"
for run in $(seq "$runs"); do
  launch_viewer "/usr/bin/time -v -o $work/time.$run $BIN ."
  tmux -L "$sock" send-keys -t 0 q
  until grep -q "Maximum resident" "$work/time.$run" 2>/dev/null; do sleep 0.05; done
  rss=$(awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2}' "$work/time.$run")
  echo "run $run: first frame $(( frame_ns / 1000000 )) ms, max RSS $(( rss / 1024 )) MB ($files files)"
done
