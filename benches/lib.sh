# Shared by the benchmark scripts: `source benches/lib.sh` (`best` reads $runs).

# Interleaved rounds: runs each entry of the array `commands` (one command line each, split on
# spaces) once per round, in turn, for $rounds rounds, each under the array `pin` (a `taskset`
# prefix, or empty), so that a busy moment on a shared machine hits them all alike. Sets the
# associative array `best` to each command's best wall time in ms. With `warm` set, each
# command runs once untimed first.
interleaved_best() {
  declare -gA best=()
  local i t0 t1 ms
  for i in "${!commands[@]}"; do
    best[$i]=999999999
    [ -n "${warm:-}" ] && { "${pin[@]}" ${commands[$i]} >/dev/null 2>&1 || true; }
  done
  for _ in $(seq "$rounds"); do
    for i in "${!commands[@]}"; do
      t0=$(date +%s%N); "${pin[@]}" ${commands[$i]} >/dev/null 2>&1 || true; t1=$(date +%s%N)
      ms=$(( (t1 - t0) / 1000000 )); [ "$ms" -lt "${best[$i]}" ] && best[$i]=$ms
    done
  done
  return 0
}

# Best wall time in ms of "$@" over $runs runs, after one untimed warm-up run.
best() {
  "$@" >/dev/null 2>&1 || true
  local best_ms=999999999
  for _ in $(seq "$runs"); do
    local t0 t1 ms
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    [ "$ms" -lt "$best_ms" ] && best_ms=$ms
  done
  echo "$best_ms"
}

# The viewer benches' set-up, for `tui_*.sh` named $1: needs tmux, builds the release binary
# unless $BIN names one, makes the scratch directory $work and a private tmux server $sock,
# both removed on exit.
viewer_bench_setup() {
  bench=$1
  command -v tmux >/dev/null || { echo "$bench: tmux is not installed" >&2; exit 2; }
  if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    BIN=$PWD/target/release/outline
  fi
  work=$(mktemp -d)
  sock="$bench-$$"
  trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
}

# Starts the tmux session: a $1 x $2 terminal in directory $3 running a bare bash with a
# scrubbed environment (true colour, no home), so the developer's settings cannot change the
# figures.
viewer_bench_terminal() {
  tmux -L "$sock" -f /dev/null new-session -d -x "$1" -y "$2" -c "$3" \
    env -i PATH="$PATH" TERM=xterm-256color COLORTERM=truecolor HOME=/nonexistent \
    bash --norc --noprofile
}

# Clears the pane, types the command $1 and waits until the viewer's panes show; sets
# $frame_ns to the nanoseconds from the keystroke to that frame (polling tmux costs a few
# milliseconds of floor) and $launch_ns to the keystroke's time. Gives up after 20 s.
launch_viewer() {
  tmux -L "$sock" send-keys -t 0 "clear" Enter
  sleep 0.2
  local t0
  t0=$(date +%s%N)
  launch_ns=$t0
  tmux -L "$sock" send-keys -t 0 "$1" Enter
  until tmux -L "$sock" capture-pane -p -t 0 | grep -q "Outline"; do
    if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 20000 ]; then
      echo "$bench: no frame after 20 s for: $1" >&2; exit 1
    fi
  done
  frame_ns=$(( $(date +%s%N) - t0 ))
}
