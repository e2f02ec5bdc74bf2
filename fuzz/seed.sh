#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target from tests/fixtures (nothing is copied into git):
# each fixture becomes corpus/<target>/<language>-<file>, prefixed with the selector byte that
# picks its language within the target's family (and JSX for .jsx/.tsx files).
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures

# target: fixture folders, in the order of the target's language list
declare -A families=(
  [brace]="java csharp kotlin swift php" [c_cpp]="c cpp" [css]="css" [data]="json yaml toml" [docker]="dockerfile" [go]="go"
  [html]="html" [js_ts]="javascript typescript" [lua]="lua" [make]="makefile" [markdown]="markdown"
  [python]="python" [ruby]="ruby" [rust]="rust" [shell]="shell" [sql]="sql"
)

for target in "${!families[@]}"; do
  mkdir -p "corpus/$target"
  index=0
  for folder in ${families[$target]}; do
    for file in "$fixtures/$folder"/*; do
      [ -f "$file" ] || continue
      selector=$index
      case "$file" in *.jsx | *.tsx) selector=$((index | 0x80)) ;; esac
      out="corpus/$target/$folder-$(basename "$file")"
      { printf "\\x$(printf %02x "$selector")"; cat "$file"; } > "$out"
    done
    index=$((index + 1))
  done
done
echo "seeded: $(find corpus -type f | wc -l) inputs in $(ls corpus | wc -l) targets"
