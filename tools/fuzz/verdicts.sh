#!/usr/bin/env bash
# cuda-tidy's verdicts on the generated programs, computed here (LLVM 22 and
# the plugin) for compare.py to set against the GPU's labels. Parses against
# the real toolkit with the flags build/bin/cuda-tidy adds; both passes, the
# device pass's warnings are the verdict.
#
#   tools/fuzz/verdicts.sh [SEEDS] [FILE]     defaults: 0:320, tools/fuzz/verdicts.tsv
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seeds="${1:-0:320}"
file="${2:-$here/verdicts.tsv}"
work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-verdicts.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 "$here/tidy_run.py" --seeds "$seeds" --work "$work" --headers toolkit \
  --repeat 1 --budget 30 --verdicts "$file" --list-disagreements
