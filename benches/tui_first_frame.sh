#!/usr/bin/env bash
# Time to the viewer's first frame in tmux for a small Python file, a small Markdown file and a
# 1.2 MB Markdown file, each against a plain-text file of the same bytes (a .txt twin: no
# parser, no syntax), so the difference is what the file's language costs before the first
# frame. Launch until capture-pane shows the panes; the median of RUNS runs; polling tmux costs
# a few milliseconds of floor, the same for both files of a pair.
#   benches/tui_first_frame.sh [RUNS]      BIN=path/to/outline to skip the release build
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
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

for name in small.py small.md big.md; do
  twin="${name/./_}.txt"
  lang=$(first_frame "$name")
  plain=$(first_frame "$twin")
  size=$(stat -c %s "$work/$name")
  printf '%-9s %8d bytes: first frame %6.1f ms; plain twin %6.1f ms; difference %+6.1f ms\n' \
    "$name" "$size" "$lang" "$plain" "$(awk -v a="$lang" -v b="$plain" 'BEGIN {print a - b}')"
done
