#!/usr/bin/env python3
"""Reference quality of `outline --refs` on real Python, against the standard tokenize module.

tokenize yields every identifier token outside strings and comments: the ground truth for
"where is NAME used in code". For a sample of identifiers that occur in several files, this
compares the lines `outline --print --json --refs NAME DIR` reports with the lines holding a
NAME token, and prints recall and precision over all (file, line) pairs.

    python3 scripts/refs_quality.py [DIR] [--names N] [--seed S]

DIR defaults to the eval corpus's Python files (scripts/eval.sh sets the corpus up).
"""
import argparse
import collections
import json
import keyword
import os
import random
import subprocess
import sys
import tokenize

DEFAULT_DIR = os.path.join(
    os.environ.get("OUTLINE_EVAL_HOME", os.path.expanduser("~/.cache/outliner-eval")),
    "corpus",
    "python",
)


def python_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(folder, name)
            # Walks never follow links, so a linked file is not outline's to find.
            if name.endswith((".py", ".pyi")) and not os.path.islink(path):
                yield path


def identifier_lines(path):
    """{name: {line, ...}} for every NAME token of the file, or None if it does not tokenize."""
    found = collections.defaultdict(set)
    try:
        with open(path, "rb") as handle:
            for token in tokenize.tokenize(handle.readline):
                if token.type == tokenize.NAME and not keyword.iskeyword(token.string):
                    found[token.string].add(token.start[0])
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        return None
    return found


def outline_refs(binary, name, root):
    """{(path, line)} that `outline --refs` reports."""
    result = subprocess.run(
        [binary, "--print", "--json", "--lang", "python", "--refs", name]
        + ["--max-output", "1000000000", root],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode not in (0, 1):
        sys.exit(f"outline failed on {name!r}: {result.stderr.strip()}")
    hits = set()
    for line in result.stdout.splitlines():
        hit = json.loads(line)
        if "line" in hit:
            hits.add((os.path.normpath(hit["path"]), hit["line"]))
    return hits


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", default=DEFAULT_DIR)
    parser.add_argument("--names", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--binary", default="target/release/outline")
    parser.add_argument("--misses", type=int, default=5, help="misses to print per kind")
    args = parser.parse_args()
    if not os.path.isdir(args.dir):
        sys.exit(f"refs_quality: no directory {args.dir} (run scripts/eval.sh first)")

    truth = collections.defaultdict(set)  # name -> {(path, line)}
    files_per_name = collections.Counter()
    skipped = 0
    for path in python_files(args.dir):
        lines = identifier_lines(path)
        if lines is None:
            skipped += 1
            continue
        for name, numbers in lines.items():
            files_per_name[name] += 1
            truth[name].update((os.path.normpath(path), n) for n in numbers)
    candidates = sorted(n for n, files in files_per_name.items() if files >= 2)
    random.Random(args.seed).shuffle(candidates)
    names = sorted(candidates[: args.names])

    matched = reported = expected = 0
    misses, false_hits = [], []
    for name in names:
        got = outline_refs(args.binary, name, args.dir)
        want = truth[name]
        matched += len(got & want)
        reported += len(got)
        expected += len(want)
        misses += [(name, *m) for m in sorted(want - got)]
        false_hits += [(name, *f) for f in sorted(got - want)]
    recall = 100 * matched / max(expected, 1)
    precision = 100 * matched / max(reported, 1)
    print(f"dir: {args.dir}  names: {len(names)}  files not tokenized: {skipped}")
    print(f"lines expected {expected}, reported {reported}, matched {matched}")
    print(f"recall {recall:.2f} %  precision {precision:.2f} %")
    for label, rows in (("MISS", misses), ("FALSE", false_hits)):
        for name, path, line in rows[: args.misses]:
            print(f"{label} {name} {path}:{line}")


if __name__ == "__main__":
    main()
