#!/usr/bin/env bash
# Scores outline against real parsers on the public corpus (../shared/eval), end to end.
#   scripts/eval.sh                 # every language
#   scripts/eval.sh rust,go         # some languages; misses land in target/eval-misses/
# Needs the sibling ../shared/eval harness; the first run sets up its venv and corpus (~5 min).
set -euo pipefail
cd "$(dirname "$0")/.."
eval_dir=${OUTLINE_EVAL_HARNESS:-../shared/eval}
export OUTLINE_EVAL_HOME=${OUTLINE_EVAL_HOME:-$HOME/.cache/outliner-eval}
[ -d "$eval_dir" ] || { echo "eval: no harness at $eval_dir" >&2; exit 2; }
if [ ! -x "$OUTLINE_EVAL_HOME/venv/bin/python" ]; then
  python3 -m venv "$OUTLINE_EVAL_HOME/venv"
  "$OUTLINE_EVAL_HOME/venv/bin/pip" install -q -r "$eval_dir/requirements.txt"
fi
[ -d "$OUTLINE_EVAL_HOME/corpus" ] || bash "$eval_dir/public_corpus.sh"
cargo build --release --quiet
langs=()
[ $# -gt 0 ] && langs=(--languages "$1")
python3 "$eval_dir/score.py" --per-language "${langs[@]}" --misses target/eval-misses \
  --tool-cmd "$PWD/target/release/outline --print --json --depth 99 {dir}"
