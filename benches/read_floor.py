#!/usr/bin/env python3
"""What an agent spends, in o200k tokens, to find and read one named function:
  (a) reading the whole file;
  (b) `outline --read FILE`, then `outline --print --symbol NAME FILE`;
  (c) `outline --print FILE`, then `outline --print --symbol NAME FILE`.

    benches/read_floor.py [CORPUS] [--files 20]      CORPUS defaults to the eval corpus

Files: 500-5,000 lines, spread over the code languages, picked deterministically (sorted paths,
evenly spaced). The function: the function or method of at least 5 lines nearest the middle of
the file, asked for by its qualified name. Tokens are counted by outline itself
(`--stdin --tokens`, o200k_base, equal to tiktoken's counts).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "..", "target", "release", "outline")
LANGUAGES = ["python", "rust", "go", "javascript", "typescript", "c", "cpp", "sql", "css", "markdown"]


def run(*args, stdin=None):
    done = subprocess.run([BIN, *args], input=stdin, capture_output=True)
    return done.stdout


def tokens(text):
    out = run("--print", "--json", "--tokens", "--stdin", "--lang", "markdown", stdin=text)
    return json.loads(out)["tokens"]


def candidates(corpus, language):
    root = os.path.join(corpus, language)
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as handle:
                    lines = handle.read().count(b"\n")
            except OSError:
                continue
            if 500 <= lines <= 5000:
                found.append(path)
    return sorted(found)


def target(path):
    outline = json.loads(run("--print", "--json", path) or b"{}")
    flat, stack = [], list(outline.get("entries", []))
    while stack:
        node = stack.pop()
        flat.append(node)
        stack.extend(node.get("children", []))
    wanted = {"function", "method", "rule", "heading", "table", "view"}
    fits = [n for n in flat if n["kind"] in wanted and n["end_line"] - n["line"] >= 4]
    if not fits:
        return None
    middle = outline["lines"] / 2
    return min(fits, key=lambda n: (abs(n["line"] - middle), n["line"]))


def main():
    parser = argparse.ArgumentParser()
    home = os.environ.get("OUTLINE_EVAL_HOME", os.path.expanduser("~/.cache/outliner-eval"))
    parser.add_argument("corpus", nargs="?", default=os.path.join(home, "corpus"))
    parser.add_argument("--files", type=int, default=20)
    args = parser.parse_args()
    if not os.path.exists(BIN):
        sys.exit("read_floor: build first: cargo build --release")
    # Round-robin over the languages, each list visited in an evenly spread order, skipping files
    # without a function to read, until enough files are found.
    queues = {}
    for lang in LANGUAGES:
        files = candidates(args.corpus, lang)
        step = max(1, len(files) // 3)
        queues[lang] = [files[(i * step + i // 3) % len(files)] for i in range(len(files))] if files else []
    picked = []
    while len(picked) < args.files and any(queues.values()):
        for lang in LANGUAGES:
            while queues[lang] and len(picked) < args.files:
                path = queues[lang].pop(0)
                if all(path != p for _, p, _ in picked) and (node := target(path)) is not None:
                    picked.append((lang, path, node))
                    break
    rows = []
    print(f"{'file':46s} {'lines':>6s} {'(a) whole':>10s} {'(b) read':>9s} {'(c) print':>10s} {'a/b':>6s} {'a/c':>6s}")
    for lang, path, node in picked:
        with open(path, "rb") as handle:
            whole = handle.read()
        symbol = run("--print", "--symbol", node["qualname"], path)
        a = tokens(whole)
        b = tokens(run("--read", path)) + tokens(symbol)
        c = tokens(run("--print", path)) + tokens(symbol)
        rows.append((a / b, a / c))
        name = f"{lang}/{os.path.basename(path)}"[:46]
        lines = whole.count(b"\n")
        print(f"{name:46s} {lines:6d} {a:10d} {b:9d} {c:10d} {a / b:6.1f} {a / c:6.1f}")
    if rows:
        print(f"median over {len(rows)} files: (a)/(b) = {statistics.median(r[0] for r in rows):.1f}x, "
              f"(a)/(c) = {statistics.median(r[1] for r in rows):.1f}x cheaper than reading the whole file")


if __name__ == "__main__":
    main()
