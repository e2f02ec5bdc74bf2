#!/usr/bin/env bash
# Drives `outline mcp` with rmcp's client (benches/mcp.rs) and reports, for the issue's targets:
#   start to `initialize` answered (target < 20 ms) and the `outline` tool's round-trip on a
#   37 KB file (target: median < 1 ms over 1,000 calls).
#   benches/mcp.sh [--starts N] [--calls N] [--file PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
cargo bench --quiet --bench mcp -- "$@"
