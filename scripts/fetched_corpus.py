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
import re
import subprocess
import sys

MAX_BYTES = 200 * 1024
SHEBANG = "#!sh"  # in a source's extensions: an extensionless file whose first line is a sh/bash shebang
SHELL_SHEBANG = re.compile(rb"^#!\s*(/usr)?/bin/(env\s+)?(ba)?sh\b")

SOURCES = [
    # (language, owner/name, commit, extensions, limit)
    ("java", "google/gson", "9835b6f90192f79cdf5300c528fc6212455fb6c1", (".java",), 150),
    ("csharp", "JamesNK/Newtonsoft.Json", "09bb545d72969ad7fb4ea07db0d5c34f4fc07877", (".cs",), 150),
    ("kotlin", "square/okio", "4164f2976ac7174f3d35d52150e8ffbdbe0acbec", (".kt", ".kts"), 150),
    ("swift", "Alamofire/Alamofire", "7595cbcf59809f9977c5f6378500de2ad73b7ddb", (".swift",), 150),
    ("ruby", "sinatra/sinatra", "cb22afd7902b566b6eaba6c4ea89739494a65d12",
     (".rb", ".rake", ".gemspec", "Rakefile", "Gemfile"), 150),
    ("php", "slimphp/Slim", "038fd5713d5a41636fdff0e8dcceedecdd17fc17", (".php",), 100),
    ("php", "composer/composer", "eba7baa59eb1b59246cf9800b0120fe78915b6ac", (".php",), 150),
    ("php", "laravel/framework", "bd71b45fbb7e672957bf6ff61baddefe15fbca6a", (".php",), 200),
    ("lua", "Kong/kong", "22246ef28c16842098369b494eef879222e30c7b", (".lua",), 200),
    ("lua", "folke/lazy.nvim", "306a05526ada86a7b30af95c5cc81ffba93fef97", (".lua",), 100),
    ("lua", "nvim-telescope/telescope.nvim", "7d324792b7943e4aa16ad007212e6acc6f9fe335", (".lua",), 100),
    # Shell: SHEBANG also takes extensionless files whose first line names sh or bash (rbenv's libexec/).
    ("shell", "bats-core/bats-core", "d22e41faad59f5fd942a88c992b4913a27a460c4", (".sh", ".bash", ".bats", SHEBANG), 120),
    ("shell", "nvm-sh/nvm", "b17550a0b9ab691439815dfccc8b73e3a59fa103", (".sh", ".bash", SHEBANG), 60),
    ("shell", "rbenv/rbenv", "23c3041695feb811c18dbb270096c7956f7c377d", (".sh", ".bash", ".bats", SHEBANG), 60),
    ("shell", "dehydrated-io/dehydrated", "7ea8aaab5c257cb2c4b980f2f73597369a44d503", (".sh", SHEBANG), 10),
    ("shell", "asdf-vm/asdf", "25b3911c7239a0f7cb7ee86acb4d81aed4d7d930", (".sh", ".bash", ".bats", SHEBANG), 60),
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
        listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-l", "-z", commit],
                                 check=True, capture_output=True, text=True).stdout
        paths = []
        for line in filter(None, listing.split("\0")):
            meta, path = line.split("\t", 1)
            size = meta.split()[3]
            if not (size.isdigit() and 0 < int(size) <= MAX_BYTES):
                continue
            if path.endswith(tuple(e for e in extensions if e != SHEBANG)):
                paths.append(path)
            elif SHEBANG in extensions and "." not in os.path.basename(path):
                head = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-p", f"{commit}:{path}"],
                                      check=True, capture_output=True).stdout[:100]
                if SHELL_SHEBANG.match(head):
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
