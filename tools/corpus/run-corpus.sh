#!/usr/bin/env bash
# Run cuda-tidy over every translation unit of a compile_commands.json.
#
# usage: tools/corpus/run-corpus.sh CHECKS OUTDIR
#
#   CHECKS  checks to enable, as for --checks (e.g. cuda-divergent-barrier or
#           'cuda-*'); '-*,' is put in front.
#   OUTDIR  where to write one log per file (OUTDIR/logs/) and summary.tsv
#           (file, status, warnings); status is ok, failed (an error,
#           i.e. clang-diagnostic-error: the file did not parse), crashed, or
#           tool-error (the checker did not run, e.g. the plugin did not load).
#
# Prints the number of files analysed and of files that failed to parse, then
# every warning of CHECKS with its notes.
#
# Environment:
#   CORPUS_ROOT  tree to analyse (default: corpus/cuda-samples)
#   DB_DIR       directory of compile_commands.json (default: CORPUS_ROOT);
#                make it with tools/corpus/make-compile-db.py
#   TIDY         the checker (default: build/bin/cuda-tidy)
#   CUDA_TIDY_PLUGIN  the plugin (default: build/lib/CudaTidyModule.so); a copy
#                in OUTDIR is used, safe from rebuilds during the run
#   JOBS         files analysed in parallel (default: 2)
#   STANDALONE=1 run plain clang-tidy instead of the wrapper: builds a
#                --standalone database in OUTDIR and loads
#                build/lib/CudaTidyModule.so if it exists
set -euo pipefail

if [[ $# -ne 2 ]]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
  exit 2
fi
checks=$1
outdir=$2

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
corpus_root=$(realpath "${CORPUS_ROOT:-$repo/corpus/cuda-samples}")
db_dir=${DB_DIR:-$corpus_root}
jobs=${JOBS:-2}
read -ra tidy <<<"${TIDY:-$repo/build/bin/cuda-tidy}"

mkdir -p "$outdir/logs"
outdir=$(realpath "$outdir")
rm -f "$outdir"/logs/*.log

# Run a copy of the plugin, so that a rebuild during the run cannot change it
# half-way.
plugin=${CUDA_TIDY_PLUGIN:-$repo/build/lib/CudaTidyModule.so}
if [[ -f $plugin ]]; then
  cp "$plugin" "$outdir/CudaTidyModule.so"
  plugin=$outdir/CudaTidyModule.so
  export CUDA_TIDY_PLUGIN=$plugin
fi

if [[ ${STANDALONE:-0} == 1 ]]; then
  db_dir=$outdir/db
  python3 "$repo/tools/corpus/make-compile-db.py" --standalone -o "$db_dir" \
    "$corpus_root" >/dev/null
  read -ra tidy <<<"${TIDY:-/usr/lib/llvm-22/bin/clang-tidy}"
  [[ -f $plugin ]] && tidy+=("--load=$plugin")
fi
db_dir=$(realpath "$db_dir")
if [[ ! -f $db_dir/compile_commands.json ]]; then
  echo "run-corpus: no $db_dir/compile_commands.json;" \
    "run tools/corpus/make-compile-db.py $corpus_root" >&2
  exit 2
fi
if [[ ! -x ${tidy[0]} ]]; then
  echo "run-corpus: checker not found: ${tidy[0]}" >&2
  exit 2
fi

# One file: its log is the checker's stdout and stderr, then its exit status.
analyse_one() {
  local file=$1 log
  log=$outdir/logs/$(realpath --relative-to="$corpus_root" "$file" | sed 's|/|__|g').log
  local rc=0
  "${tidy[@]}" -p "$db_dir" "--checks=-*,$checks" "$file" >"$log" 2>&1 || rc=$?
  echo "exit status: $rc" >>"$log"
}
export -f analyse_one
export outdir corpus_root db_dir checks
export TIDY_CMD="${tidy[*]}"

python3 -c 'import json, sys
for e in json.load(open(sys.argv[1])): print(e["file"])' \
  "$db_dir/compile_commands.json" | sort -u >"$outdir/files.txt"

# xargs cannot pass an array through: rebuild it from TIDY_CMD in each job.
# shellcheck disable=SC2016 # expanded by the inner shell
xargs -P "$jobs" -I{} bash -c 'read -ra tidy <<<"$TIDY_CMD"; analyse_one "$1"' _ {} \
  <"$outdir/files.txt"

summary=$outdir/summary.tsv
printf 'file\tstatus\twarnings\n' >"$summary"
total=0
failed=0
broken=0
while read -r file; do
  rel=$(realpath --relative-to="$corpus_root" "$file")
  log=$outdir/logs/${rel//\//__}.log
  rc=$(sed -n 's/^exit status: //p' "$log")
  if grep -q 'error: .*\[clang-diagnostic-error\]' "$log"; then
    status=failed
  elif ((rc >= 128)) || grep -q '^Stack dump:' "$log"; then
    status=crashed
  elif ((rc != 0)); then
    status=tool-error
  else
    status=ok
  fi
  warnings=$(grep -E ': warning: .* \[[a-z0-9.-]+(,[a-z0-9.-]+)*\]$' "$log" |
    grep -vc '\[clang-diagnostic-' || true)
  printf '%s\t%s\t%s\n' "$rel" "$status" "$warnings" >>"$summary"
  total=$((total + 1))
  case $status in
  failed) failed=$((failed + 1)) ;;
  crashed | tool-error) broken=$((broken + 1)) ;;
  esac
done <"$outdir/files.txt"

echo "files analysed: $total"
echo "files that failed to parse: $failed"
echo "files that parse: $((total - failed - broken)) / $total"
awk -F'\t' 'NR > 1 && $2 == "failed" { print "  failed: " $1 }' "$summary"
if ((broken)); then
  echo "files where the checker crashed or did not run: $broken"
  awk -F'\t' 'NR > 1 && $2 != "ok" && $2 != "failed" { print "  " $2 ": " $1 }' "$summary"
fi

# Each warning of the checks, with the notes that follow it.
echo "warnings:"
count=0
while IFS=$'\t' read -r rel status warnings; do
  [[ $warnings == 0 ]] && continue
  count=$((count + warnings))
  awk '
    / warning: .*\[clang-diagnostic-/ { keep = 0; next }
    / warning: .*\[[a-z0-9.-]+(,[a-z0-9.-]+)*\]$/ { keep = 1; print "  " $0; next }
    / (error|warning): / { keep = 0; next }
    keep && / note: / { print "    " $0 }
  ' "$outdir/logs/${rel//\//__}.log"
done < <(tail -n +2 "$summary")
echo "warnings of $checks: $count"
