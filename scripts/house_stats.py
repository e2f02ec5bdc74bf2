#!/usr/bin/env python3
"""The house's size in figures, for issue notes: lines of Rust under src/, `pub` items,
the largest functions (from outline's own JSON), and files over 600 lines.

    scripts/house_stats.py [OUTLINE_BINARY] [SRC_DIR]

`pub` items are lines starting with `pub ` followed by an item keyword (fn, struct, enum,
trait, type, const, static, mod, use); `pub(crate)` and `pub(super)` are not counted. Test
code counts like any other line: the figures compare one tree with another.
"""
import json
import pathlib
import re
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/outline"
src = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "src")
PUB = re.compile(r"^\s*pub\s+(unsafe\s+)?(async\s+)?(fn|struct|enum|trait|type|const|static|mod|use)\b")

files = sorted(src.rglob("*.rs"))
lines = {f: f.read_text(errors="replace").count("\n") for f in files}
pubs = sum(1 for f in files for line in f.read_text(errors="replace").splitlines() if PUB.match(line))

functions = []
out = subprocess.run(
    [binary, "--print", "--json", "--depth", "99", "--lang", "rust", str(src)],
    capture_output=True, text=True, check=False,
).stdout


def walk(path, nodes):
    for node in nodes:
        if node.get("kind") in ("function", "method"):
            functions.append((node["end_line"] - node["line"] + 1, f"{path}:{node['line']} {node['qualname']}"))
        walk(path, node.get("children", []))


for row in out.splitlines():
    obj = json.loads(row)
    if "path" in obj:
        walk(obj["path"], obj.get("entries", []))
functions.sort(reverse=True)
big_files = [(n, str(f)) for f, n in lines.items() if n > 600]

print(f"lines of Rust under {src}: {sum(lines.values())} in {len(files)} files")
print(f"pub items: {pubs}")
print(f"functions over 100 lines: {sum(1 for n, _ in functions if n > 100)}")
for n, name in functions[:3]:
    print(f"  largest: {n} lines  {name}")
print(f"files over 600 lines: {len(big_files)}")
for n, name in sorted(big_files, reverse=True):
    print(f"  {n:5}  {name}")
