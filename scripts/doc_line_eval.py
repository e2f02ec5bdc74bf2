#!/usr/bin/env python3
"""How often outline's `doc_line` agrees with real parsers, per language, on the eval corpus.

For every entry `outline --print --json --depth 99` emits, the reference says where the lines
that lead it start:
  python   `ast`: a def/class starts at its first decorator; then, upward, every line that
           `tokenize` shows holding only a comment.
  others   tree-sitter: going upward from the entry's line, every line whose text lies wholly
           inside comment nodes (Rust inner docs `//!`/`/*!` excluded) and attribute or
           decorator nodes (Rust `#[…]`, JS/TS `@…`, C/C++ `[[…]]`); a blank line ends the run
           unless it lies inside a block comment.
Markdown is left out: headings have no leading docs, so there is nothing to compare.

    python3 scripts/doc_line_eval.py                    # every language
    python3 scripts/doc_line_eval.py --languages rust,go --misses target/doc-line-misses

Needs the ../shared/eval harness (its venv and corpus: run scripts/eval.sh once) and a release
build (target/release/outline). Columns: entries scored; `docs` = entries the reference gives
leading lines; `exact` = doc_line equal to the reference over all entries; `docs=` = the same
over the entries with reference docs; `ours=` = over the entries outline gives docs.
"""

import argparse
import ast
import io
import json
import os
import subprocess
import sys
import tokenize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.abspath(os.environ.get("OUTLINE_EVAL_HARNESS")
                          or os.path.join(ROOT, "..", "shared", "eval"))
if not os.path.isdir(HARNESS):
    HARNESS = os.path.abspath(os.path.join(ROOT, "..", "..", "shared", "eval"))
sys.path.insert(0, HARNESS)
import groundtruth as gt  # noqa: E402  (the harness: venv, corpus paths, tree-sitter parsers)

LANGUAGES = ["python", "rust", "go", "javascript", "typescript", "c", "cpp", "json", "yaml",
             "toml", "html", "css", "sql", "makefile", "dockerfile"]
COMMENTS = {"comment", "line_comment", "block_comment", "marginalia", "html_comment"}
# Nodes that attach to the item below them, by grammar.
MARKERS = {"rust": {"attribute_item"}, "javascript": {"decorator"}, "typescript": {"decorator"},
           "tsx": {"decorator"}, "c": {"attribute_declaration"}, "cpp": {"attribute_declaration"}}
GRAMMAR = {"makefile": "make"}


def grammar(language, path):
    if language == "typescript" and path.endswith(".tsx"):
        return "tsx"
    return GRAMMAR.get(language, language)


def line_starts(src):
    starts = [0]
    for i, byte in enumerate(src):
        if byte == 0x0A:
            starts.append(i + 1)
    return starts


def tree_sitter_rows(key, src):
    """Per 0-based row: 'doc', 'blank' or 'code', as tree-sitter's nodes say."""
    tree = gt.ts_parser(key).parse(src)
    covered = bytearray(len(src))
    inside = set()
    markers = MARKERS.get(key, set())
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in COMMENTS or node.type in markers:
            text = src[node.start_byte:node.start_byte + 3]
            if key == "rust" and text in (b"//!", b"/*!"):
                continue
            covered[node.start_byte:node.end_byte] = b"\x01" * (node.end_byte - node.start_byte)
            inside.update(range(node.start_point[0] + 1, node.end_point[0]))
            continue
        stack.extend(node.children)
    starts = line_starts(src)
    rows = []
    for r, a in enumerate(starts):
        b = starts[r + 1] if r + 1 < len(starts) else len(src)
        code = [i for i in range(a, b) if src[i] not in b" \t\r\n\x0c"]
        if not code:
            rows.append("doc" if r in inside else "blank")
        else:
            rows.append("doc" if all(covered[i] for i in code) else "code")
    return rows


def python_reference(src):
    """(rows, {def line: first decorator line}) from tokenize and ast; None if it does not parse."""
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return None
    text = src.decode("utf-8", "replace")
    lines = text.split("\n")
    rows = ["blank" if not line.strip() else "code" for line in lines]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start[0] - 1, tok.start[1]
                if row < len(lines) and not lines[row][:col].strip():
                    rows[row] = "doc"
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    starts = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.decorator_list:
                starts[node.lineno] = min(d.lineno for d in node.decorator_list)
    return rows, starts


def reference_doc_line(rows, starts, line):
    start = starts.get(line, line)
    row = start - 2  # the 0-based row above the start
    while row >= 0 and rows[row] == "doc":
        row -= 1
    return row + 2


def entries(node_list):
    for node in node_list:
        yield node
        yield from entries(node.get("children", []))


def score_language(binary, corpus, language, misses):
    directory = os.path.join(corpus, language)
    out = subprocess.run([binary, "--print", "--json", "--depth", "99", directory],
                         capture_output=True, check=False).stdout
    stats = {"entries": 0, "docs": 0, "exact": 0, "docs_exact": 0, "ours": 0, "ours_exact": 0}
    for raw in out.splitlines():
        obj = json.loads(raw)
        if "path" not in obj or "entries" not in obj:
            continue
        path = obj["path"]
        with open(path, "rb") as f:
            src = f.read()
        if src.startswith(b"\xef\xbb\xbf"):
            src = b"   " + src[3:]  # keeps every offset; a mark is no code
        if language == "python":
            reference = python_reference(src)
            if reference is None:
                continue
            rows, starts = reference
        else:
            rows, starts = tree_sitter_rows(grammar(language, path), src), {}
        for entry in entries(obj["entries"]):
            line = entry["line"]
            if line - 1 >= len(rows):
                continue
            ours = entry.get("doc_line", line)
            want = reference_doc_line(rows, starts, line)
            stats["entries"] += 1
            stats["exact"] += ours == want
            if want < line:
                stats["docs"] += 1
                stats["docs_exact"] += ours == want
            if ours < line:
                stats["ours"] += 1
                stats["ours_exact"] += ours == want
            if ours != want and misses is not None:
                rel = os.path.relpath(path, corpus)
                misses.append(f"{rel}:{line} {entry['kind']} {entry['name']}: "
                              f"doc_line {ours}, reference {want}")
    return stats


def pct(part, whole):
    return f"{100.0 * part / whole:6.1f}" if whole else "     -"


def main():
    gt.ensure_venv()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=gt.default_corpus())
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "outline"))
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--misses", metavar="DIR", help="write <language>.txt mismatch lists")
    args = parser.parse_args()
    if not os.path.isdir(args.corpus):
        sys.exit(f"doc_line_eval: no corpus at {args.corpus}; run scripts/eval.sh once")
    print(f"{'language':<11} {'entries':>7} {'docs':>6} {'exact':>6} {'docs=':>6} {'ours=':>6}")
    total = {"entries": 0, "docs": 0, "exact": 0, "docs_exact": 0, "ours": 0, "ours_exact": 0}
    for language in args.languages.split(","):
        misses = [] if args.misses else None
        s = score_language(args.binary, args.corpus, language, misses)
        for key in total:
            total[key] += s[key]
        print(f"{language:<11} {s['entries']:>7} {s['docs']:>6} {pct(s['exact'], s['entries'])} "
              f"{pct(s['docs_exact'], s['docs'])} {pct(s['ours_exact'], s['ours'])}")
        if args.misses:
            os.makedirs(args.misses, exist_ok=True)
            with open(os.path.join(args.misses, f"{language}.txt"), "w") as f:
                f.write("\n".join(misses) + ("\n" if misses else ""))
    t = total
    print(f"{'OVERALL':<11} {t['entries']:>7} {t['docs']:>6} {pct(t['exact'], t['entries'])} "
          f"{pct(t['docs_exact'], t['docs'])} {pct(t['ours_exact'], t['ours'])}")


if __name__ == "__main__":
    main()
