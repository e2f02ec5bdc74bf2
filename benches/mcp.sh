#!/usr/bin/env bash
# Drives `outline mcp` with rmcp's client (benches/mcp.rs) and reports, for the issue's targets:
#   start to `initialize` answered (target < 20 ms) and the `outline` tool's round-trip on a
#   37 KB file (target: median < 1 ms over 1,000 calls).
# With strace installed it also checks that `outline --print` never starts tokio (no epoll
# instance, no eventfd, no thread): the runtime belongs to `outline mcp` alone.
#   benches/mcp.sh [--starts N] [--calls N] [--file PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
if command -v strace >/dev/null 2>&1; then
  trace=$(mktemp)
  strace -f -o "$trace" target/release/outline --print src/main.rs >/dev/null
  if grep -qE 'epoll_create|eventfd|clone' "$trace"; then
    echo "--print starts an event loop or a thread:"; grep -E 'epoll_create|eventfd|clone' "$trace"
    rm -f "$trace"; exit 1
  fi
  echo "--print: no epoll, eventfd or thread (tokio not started)"
  rm -f "$trace"
fi
cargo bench --quiet --bench mcp -- "$@"
