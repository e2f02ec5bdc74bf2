#!/usr/bin/env python3
"""Widens the accuracy harness's corpus with repositories fetched from GitHub (the public corpus's
Java, C#, Kotlin and Swift are thin and mobile-flavoured; Ruby's are Debian's gems only). Each source is a git mirror at a pinned
commit; its files are sampled deterministically (sorted paths, every k-th, none over 200 KB) into
<corpus>/<language>/gh-<name>/, a folder public_corpus.sh leaves alone. Nothing is committed.

    python3 scripts/fetched_corpus.py [--mirrors /work/.mirror] [--corpus DIR]
    python3 ../shared/eval/score.py --per-language --languages java,csharp,kotlin,swift \\
        --tool-cmd 'target/release/outline --print --json --depth 99 {dir}'

A mirror is `<mirrors>/<owner>+<name>/repo` (a bare git directory); a missing one is skipped
with a note.
"""
import argparse
import os
import subprocess
import sys

MAX_BYTES = 200 * 1024

SOURCES = [
    # (language, owner/name, commit, extensions, limit)
    ("java", "google/gson", "9835b6f90192f79cdf5300c528fc6212455fb6c1", (".java",), 150),
    ("csharp", "JamesNK/Newtonsoft.Json", "09bb545d72969ad7fb4ea07db0d5c34f4fc07877", (".cs",), 150),
    ("kotlin", "square/okio", "4164f2976ac7174f3d35d52150e8ffbdbe0acbec", (".kt", ".kts"), 150),
    ("swift", "Alamofire/Alamofire", "7595cbcf59809f9977c5f6378500de2ad73b7ddb", (".swift",), 150),
    ("ruby", "sinatra/sinatra", "cb22afd7902b566b6eaba6c4ea89739494a65d12",
     (".rb", ".rake", ".gemspec", "Rakefile", "Gemfile"), 150),
]


def sample(paths, limit):
    if len(paths) <= limit:
        return paths
    step = len(paths) / limit
    return [paths[int(i * step)] for i in range(limit)]


def main():
    home = os.environ.get("OUTLINE_EVAL_HOME", os.path.expanduser("~/.cache/outliner-eval"))
    parser = argparse.ArgumentParser()
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--corpus", default=os.environ.get("OUTLINE_EVAL_CORPUS", os.path.join(home, "corpus")))
    args = parser.parse_args()
    for language, repo, commit, extensions, limit in SOURCES:
        git_dir = os.path.join(args.mirrors, repo.replace("/", "+"), "repo")
        if not os.path.isdir(git_dir):
            print(f"fetched_corpus: no mirror of {repo} at {git_dir}: skipped", file=sys.stderr)
            continue
        listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-l", commit],
                                 check=True, capture_output=True, text=True).stdout
        paths = []
        for line in listing.splitlines():
            meta, path = line.split("\t", 1)
            size = meta.split()[3]
            if path.endswith(extensions) and size.isdigit() and 0 < int(size) <= MAX_BYTES:
                paths.append(path)
        chosen = sample(sorted(paths), limit)
        out_dir = os.path.join(args.corpus, language, "gh-" + repo.split("/")[1].lower())
        for path in chosen:
            blob = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                                  check=True, capture_output=True).stdout
            target = os.path.join(out_dir, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(blob)
        print(f"fetched_corpus: {language}/{os.path.basename(out_dir)}: {len(chosen)} of {len(paths)} files")


if __name__ == "__main__":
    main()
