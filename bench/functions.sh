#!/usr/bin/env bash
# Runs the cuda-* checks over every translation unit of each corpus given,
# with every function's analysis time printed (CUDA_TIDY_TIMING=all), then
# bench/functions.py over the runs: per check, the median, 90th and 99th
# percentiles and the maximum, and the slowest functions.
#
#   bench/functions.sh OUTDIR NAME=ROOT:DB_DIR...
#
# e.g. bench/functions.sh /tmp/fn cuda-samples=corpus/cuda-samples:/tmp/db-cuda-samples
# Environment as for tools/corpus/run-corpus.sh (TIDY, CUDA_TIDY_PLUGIN,
# JOBS, TIMEOUT). The corpora and their databases: docs/corpus-*.md.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$1
shift
runs=()
for spec in "$@"; do
  name=${spec%%=*}
  rest=${spec#*=}
  corpus=${rest%%:*}
  db=${rest#*:}
  if [[ $name == "$spec" || $corpus == "$rest" ]]; then
    echo "functions.sh: '$spec' is not NAME=ROOT:DB_DIR" >&2
    exit 2
  fi
  CUDA_TIDY_TIMING=all CORPUS_ROOT=$corpus DB_DIR=$db \
    "$root/tools/corpus/run-corpus.sh" 'cuda-*' "$out/$name" > "$out/$name.txt"
  runs+=("$out/$name")
done
python3 "$root/bench/functions.py" "${runs[@]}"
