#!/usr/bin/env bash
# cuda-tidy's verdicts on the generated programs, computed here (LLVM 22 and
# the plugin) for compare.py to set against the GPU's labels: the device
# pass, the one whose verdict cuda-tidy gives for a .cu file, against the real
# toolkit with the flags build/bin/cuda-tidy adds.
#
#   tools/fuzz/verdicts.sh [SEEDS] [FILE]     defaults: 0:340, tools/fuzz/verdicts.tsv
#
# FUZZ_PASSES=device,host also runs (and checks) the host pass;
# FUZZ_HEADERS=stub parses against test/Inputs' stub headers, about twenty
# times faster (for seeds 0:320 the verdicts were byte-identical; the
# committed verdicts.tsv, seeds 0:340, was made so).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seeds="${1:-0:340}"
file="${2:-$here/verdicts.tsv}"
work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-verdicts.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 "$here/tidy_run.py" --seeds "$seeds" --work "$work" \
  --headers "${FUZZ_HEADERS:-toolkit}" --passes "${FUZZ_PASSES:-device}" \
  --repeat 1 --budget 60 --verdicts "$file" --list-disagreements
