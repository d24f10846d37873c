#!/usr/bin/env bash
# Labels a seed range of generated programs on a GPU machine with what
# compute-sanitizer (synccheck, racecheck, memcheck), a plain run (hang, CPU
# reference) and ncu show; see tools/fuzz/README.md. Needs python3, nvcc,
# compute-sanitizer and ncu; no LLVM.
#
#   tools/fuzz/gpu-oracle.sh [SEEDS] [OUT] [oracle.py options]
#
# SEEDS defaults to 0:340, OUT to $OUT (the device tool's folder that comes
# back) or ./fuzz-gpu. Writes OUT/labels.tsv, OUT/tools.tsv, OUT/summary.md
# and OUT/fuzz-logs.tar.gz; the programs are built in a scratch folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seeds="${1:-0:340}"
out="${2:-${OUT:-fuzz-gpu}}"
shift $(( $# > 2 ? 2 : $# ))
export PATH="$PATH:/usr/local/cuda/bin"
work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-gpu.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
python3 "$here/oracle.py" --seeds "$seeds" --out "$out" --work "$work" \
  -j "$(nproc)" "$@"
