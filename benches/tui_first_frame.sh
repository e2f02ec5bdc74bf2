#!/usr/bin/env bash
# Time to the viewer's first frame in tmux for a small Python file, a small Markdown file and a
# 1.2 MB Markdown file, each against a plain-text file of the same bytes (a .txt twin: no
# parser, no syntax), so the difference is what the file's language costs before the first
# frame. Launch until capture-pane shows the panes; the median of RUNS runs; polling tmux costs
# a few milliseconds of floor, the same for both files of a pair.
#   benches/tui_first_frame.sh [RUNS]      BIN=path/to/outline to skip the release build
# With `colour` it times instead the first frame and the first coloured frame (the preview in
# the theme's colours, read from capture-pane -e) of a small Go, C, Rust, Python and Markdown
# file; BASE=path/to/other/outline times that binary too, file by file, for a before/after
# from one run.
#   benches/tui_first_frame.sh [RUNS] colour
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
mode=${2:-frame}
source benches/lib.sh
viewer_bench_setup tui_first_frame

python3 - "$work" <<'PY'
import sys, pathlib
d = pathlib.Path(sys.argv[1])
py = ["\"\"\"A small service.\"\"\"", "import os", ""]
for c in range(6):
    py += [f"class Service{c}:", f"    \"\"\"Service number {c}.\"\"\"", ""]
    for m in range(4):
        py += [f"    def handle_{m}(self, request, *, retries=3):",
               f"        value = request.get('k{m}', {m})  # comment",
               "        return value * 2", ""]
(d / "small.py").write_text("\n".join(py) + "\n")
md = []
for s in range(8):
    md += [f"## Section {s}", "", f"Some *text* with `code` and a [link](http://x/{s}).", "",
           "```python", f"def f{s}(x):", "    return x", "```", "", "- item one", "- item two", ""]
(d / "small.md").write_text("# Guide\n\n" + "\n".join(md) + "\n")
go = ["package server", "", "import (", "\t\"fmt\"", "\t\"net/http\"", ")", ""]
c = ["#include <stdio.h>", "#include <stdlib.h>", ""]
rs = ["use std::collections::HashMap;", ""]
for k in range(6):
    go += [f"// Service{k} serves.", f"type Service{k} struct {{", "\tName string", "\tPort int", "}", "",
           f"func (s *Service{k}) Handle(w http.ResponseWriter, r *http.Request) error {{",
           f"\tfmt.Fprintf(w, \"%s %d\", s.Name, {k}) // comment", "\treturn nil", "}", ""]
    c += [f"/* Service {k}. */", f"struct service{k} {{ const char *name; int port; }};", "",
          f"static int handle{k}(struct service{k} *s, int retries) {{",
          f"    printf(\"%s %d\\n\", s->name, {k}); // comment", "    return retries * 2;", "}", ""]
    rs += [f"/// Service {k}.", f"pub struct Service{k} {{ name: String, port: u16 }}", "",
           f"impl Service{k} {{", "    pub fn handle(&self, retries: u32) -> Option<u32> {",
           f"        let m: HashMap<&str, u32> = HashMap::new(); // comment",
           f"        m.get(\"k{k}\").map(|v| v * retries)", "    }", "}", ""]
(d / "small.go").write_text("\n".join(go) + "\n")
(d / "small.c").write_text("\n".join(c) + "\n")
(d / "small.rs").write_text("\n".join(rs) + "\n")
section = "\n".join(md) + "\n"
big = "# Manual\n\n"
n = 0
while len(big) < 1_200_000:
    big += f"# Chapter {n}\n\n" + section
    n += 1
(d / "big.md").write_text(big)
for name in ["small.py", "small.md", "big.md"]:
    (d / (name.replace(".", "_") + ".txt")).write_bytes((d / name).read_bytes())
PY

viewer_bench_terminal 160 45 "$work"

# Prints the median first-frame time of `$1`, in ms.
first_frame() {
  local file=$1 times=()
  for _ in $(seq "$runs"); do
    launch_viewer "$BIN $file"
    times+=($(( frame_ns / 100000 )))   # tenths of a millisecond
    tmux -L "$sock" send-keys -t 0 q
    until ! tmux -L "$sock" capture-pane -p -t 0 | grep -q "Outline"; do sleep 0.02; done
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {printf "%.1f", a[int((NR + 1) / 2)] / 10}'
}

# The distinct foreground colours on screen, one a line.
colours() {
  tmux -L "$sock" capture-pane -e -p -t 0 | grep -o $'\e\\[38;2;[0-9;]*m' | sort -u
}

# The median time to the first frame and to the first coloured frame of `$1` run by binary
# `$2`, in ms, as "FRAME COLOURED". Coloured: two foreground colours at least that a plain
# text file's screen (the viewer's own chrome, $chrome) does not show.
first_colour() {
  local file=$1 bin=$2 frames=() coloured=() t0
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    launch_viewer "$bin --theme 'Monokai Extended' $file"
    frames+=($(( frame_ns / 100000 )))
    until [ "$(colours | grep -cvxFf <(printf '%s\n' "$chrome"))" -ge 2 ]; do
      if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 20000 ]; then
        echo "$bench: no colours after 20 s for: $file" >&2; exit 1
      fi
    done
    coloured+=($(( ($(date +%s%N) - launch_ns) / 100000 )))
    tmux -L "$sock" send-keys -t 0 q
    until ! tmux -L "$sock" capture-pane -p -t 0 | grep -q "Outline"; do sleep 0.02; done
  done
  local median='{a[NR] = $1} END {printf "%.1f", a[int((NR + 1) / 2)] / 10}'
  printf '%s %s\n' "$(printf '%s\n' "${frames[@]}" | sort -n | awk "$median")" \
    "$(printf '%s\n' "${coloured[@]}" | sort -n | awk "$median")"
}

if [ "$mode" = colour ]; then
  launch_viewer "$BIN --theme 'Monokai Extended' small_py.txt"
  sleep 1
  chrome=$(colours)
  tmux -L "$sock" send-keys -t 0 q
  until ! tmux -L "$sock" capture-pane -p -t 0 | grep -q "Outline"; do sleep 0.02; done
  for name in small.go small.c small.rs small.py small.md; do
    read -r frame colour < <(first_colour "$name" "$BIN")
    line=$(printf '%-9s first frame %6.1f ms, coloured %6.1f ms' "$name" "$frame" "$colour")
    if [ -n "${BASE:-}" ]; then
      read -r frame colour < <(first_colour "$name" "$BASE")
      line+=$(printf ';  BASE: first frame %6.1f ms, coloured %6.1f ms' "$frame" "$colour")
    fi
    echo "$line"
  done
  exit 0
fi

for name in small.py small.md big.md; do
  twin="${name/./_}.txt"
  lang=$(first_frame "$name")
  plain=$(first_frame "$twin")
  size=$(stat -c %s "$work/$name")
  printf '%-9s %8d bytes: first frame %6.1f ms; plain twin %6.1f ms; difference %+6.1f ms\n' \
    "$name" "$size" "$lang" "$plain" "$(awk -v a="$lang" -v b="$plain" 'BEGIN {print a - b}')"
done
