#!/usr/bin/env bash
# Opens a 10,000-file git repository in the TUI inside tmux and reports the time to the first
# frame (launch until the panes show in capture-pane; the tmux polling floor is ~10 ms) and the
# peak resident memory (/usr/bin/time -v, after quitting with q).
#   benches/tui_open.sh [FILES] [RUNS]      BIN=path/to/outline to skip the release build
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}
runs=${2:-3}
command -v tmux >/dev/null || { echo "tui_open: tmux is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "tui_open: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/outline
fi

work=$(mktemp -d)
sock="tui-open-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
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

tmux -L "$sock" -f /dev/null new-session -d -x 200 -y 50 -c "$repo" "bash --norc --noprofile"
for run in $(seq "$runs"); do
  tmux -L "$sock" send-keys -t 0 "clear" Enter
  sleep 0.3
  t0=$(date +%s%N)
  tmux -L "$sock" send-keys -t 0 "/usr/bin/time -v -o $work/time.$run $BIN ." Enter
  until tmux -L "$sock" capture-pane -p -t 0 | grep -q "Outline"; do
    if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 20000 ]; then echo "tui_open: no frame after 20 s" >&2; exit 1; fi
    sleep 0.005
  done
  t1=$(date +%s%N)
  tmux -L "$sock" send-keys -t 0 q
  until grep -q "Maximum resident" "$work/time.$run" 2>/dev/null; do sleep 0.05; done
  rss=$(awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2}' "$work/time.$run")
  echo "run $run: first frame $(( (t1 - t0) / 1000000 )) ms, max RSS $(( rss / 1024 )) MB ($files files)"
done
