#!/usr/bin/env python3
"""Packs a tiktoken rank file into the table outliner embeds (see README.md beside this file).

    python3 pack.py o200k_base.tiktoken[.gz] o200k_base.bin

Input: one `<base64 token> <rank>` per line, ranks 0..n-1 each once (tiktoken's format).
Output: n as a little-endian u32, then n bytes (each token's length, 1..=255, in rank order),
then every token's bytes in rank order.
"""
import base64
import gzip
import struct
import sys


def main(source: str, target: str) -> None:
    opener = gzip.open if source.endswith(".gz") else open
    tokens = {}
    with opener(source, "rt", encoding="ascii") as lines:
        for line in lines:
            if not line.strip():
                continue
            encoded, rank = line.split()
            tokens[int(rank)] = base64.b64decode(encoded)
    n = len(tokens)
    if sorted(tokens) != list(range(n)):
        sys.exit("pack: ranks are not 0..n-1 each once")
    if any(not 1 <= len(token) <= 255 for token in tokens.values()):
        sys.exit("pack: a token is empty or longer than 255 bytes")
    with open(target, "wb") as out:
        out.write(struct.pack("<I", n))
        out.write(bytes(len(tokens[rank]) for rank in range(n)))
        for rank in range(n):
            out.write(tokens[rank])


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
