#!/usr/bin/env python3
"""Builds a second, local corpus for the accuracy harness from real code already on this machine
(cargo's registry sources, the Python standard library, npm's own packages, Rust's HTML docs,
system headers). It is a holdout: the parsers are tuned on ../shared/eval's public corpus, and a
score that drops here points at rules that fit that corpus rather than the languages.

    python3 scripts/holdout_corpus.py [--out DIR]     # default ~/.cache/outliner-holdout/corpus
    python3 ../shared/eval/groundtruth.py --corpus DIR --out DIR/../groundtruth.jsonl
    python3 ../shared/eval/score.py --per-language --corpus DIR --gt DIR/../groundtruth.jsonl \\
        --tool-cmd 'target/release/outline --print --json --depth 99 {dir}'

Sampling is deterministic (sorted paths, every k-th file), files over 200 KB are skipped, and
nothing here is committed: the corpus is rebuilt from whatever the machine has.
"""
import argparse
import glob
import os
import shutil
import sys

HOME = os.path.expanduser("~")
REGISTRY = glob.glob(os.path.join(HOME, ".cargo/registry/src/*"))
PYLIB = glob.glob("/root/.pyenv/versions/*/lib/python3.*") + glob.glob("/usr/lib/python3.*")
RUSTDOC = glob.glob(os.path.join(HOME, ".rustup/toolchains/*/share/doc/rust/html"))
MAX_BYTES = 200 * 1024


def files_under(roots, patterns, exclude=()):
    found = []
    for root in roots:
        for pattern in patterns:
            found += glob.glob(os.path.join(root, "**", pattern), recursive=True)
    keep = []
    for path in sorted(set(found)):
        if any(part in path for part in exclude) or not os.path.isfile(path):
            continue
        if os.path.getsize(path) > MAX_BYTES or os.path.getsize(path) == 0:
            continue
        keep.append(path)
    return keep


def sample(paths, limit):
    if len(paths) <= limit:
        return paths
    step = len(paths) / limit
    return [paths[int(i * step)] for i in range(limit)]


def crates(names):
    return [c for r in REGISTRY for c in glob.glob(os.path.join(r, "*")) if os.path.basename(c).rsplit("-", 1)[0] in names]


SOURCES = [
    # (language, source name, roots, patterns, limit, exclude)
    ("rust", "crates-local", crates({"regex-automata", "ignore", "git2", "memchr", "clap_complete", "criterion",
                                      "tempfile", "pulldown-cmark", "bstr", "globset", "aho-corasick", "syn"}),
     ["*.rs"], 150, ()),
    ("toml", "crates-local", REGISTRY, ["Cargo.toml", "*.toml"], 40, ("Cargo.toml.orig",)),
    ("markdown", "crates-local", REGISTRY, ["*.md"], 80, ()),
    ("yaml", "local", REGISTRY + ["/usr/lib/node_modules"], ["*.yml", "*.yaml"], 40, ()),
    ("python", "stdlib", PYLIB[:1], ["*.py"], 150, ("site-packages", "test/", "tests/", "idlelib", "lib2to3/tests")),
    ("python", "site-packages", [p + "/site-packages" for p in PYLIB[:1]], ["*.py"], 100, ()),
    ("c", "libgit2", [c + "/libgit2/src" for c in crates({"libgit2-sys"})], ["*.c"], 60, ()),
    ("cpp", "local", ["/usr/include/c++"], ["*.tcc"], 0, ()),
    ("javascript", "npm-local", ["/usr/lib/node_modules"], ["*.js", "*.cjs", "*.mjs"], 150, ("/test/", "min.js")),
    ("json", "npm-local", ["/usr/lib/node_modules"], ["*.json"], 60, ()),
    ("html", "rustdoc", RUSTDOC, ["*.html"], 40, ()),
    ("css", "rustdoc", RUSTDOC, ["*.css"], 30, ()),
    ("go", "git-contrib", ["/usr/share/doc/git/contrib"], ["*.go"], 30, ()),
    ("sql", "pg-common", ["/usr/share/postgresql-common", "/usr/share/postgresql"], ["*.sql"], 40, ()),
    ("makefile", "local", REGISTRY + ["/usr/share/doc"], ["Makefile", "*.mk", "GNUmakefile"], 30, ()),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(HOME, ".cache/outliner-holdout/corpus"))
    args = parser.parse_args()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    for language, source, roots, patterns, limit, exclude in SOURCES:
        if limit == 0:
            continue
        picked = sample(files_under(roots, patterns, exclude), limit)
        for i, path in enumerate(picked):
            # One folder per file keeps names intact (a Makefile must stay `Makefile`).
            dest = os.path.join(args.out, language, source, f"{i:03d}", os.path.basename(path))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(path, dest)
        print(f"{language:11s} {source:14s} {len(picked):4d} files", file=sys.stderr)
    # libclang needs the C sources' headers: every header dir of libgit2, kept aside as support.
    for crate in crates({"libgit2-sys"}):
        support = os.path.join(args.out, ".support", "cheaders", "libgit2")
        for header in files_under([crate + "/libgit2"], ["*.h"]):
            dest = os.path.join(support, os.path.relpath(header, crate + "/libgit2"))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(header, dest)


if __name__ == "__main__":
    main()
