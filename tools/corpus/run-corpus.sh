#!/usr/bin/env bash
# Run cuda-tidy over every translation unit of a compile_commands.json.
#
# usage: tools/corpus/run-corpus.sh CHECKS OUTDIR
#
#   CHECKS  checks to enable, as for --checks (e.g. cuda-divergent-barrier or
#           'cuda-*'); '-*,' is put in front.
#   OUTDIR  where to write one log per file (OUTDIR/logs/) and summary.tsv
#           (file, status, warnings, CPU seconds); status is ok, failed (an
#           error, i.e. clang-diagnostic-error: the file did not parse),
#           crashed, timeout, or tool-error (the checker did not run, e.g. the
#           plugin did not load).
#
# Prints the number of files analysed and of files that failed to parse, the
# CPU time, the slowest analyses the checks timed, then every warning of
# CHECKS with its notes.
#
# Environment:
#   CORPUS_ROOT  tree to analyse (default: corpus/cuda-samples)
#   DB_DIR       directory of compile_commands.json (default: CORPUS_ROOT);
#                make it with tools/corpus/make-compile-db.py
#   TIDY         the checker (default: build/bin/cuda-tidy)
#   CUDA_TIDY_PLUGIN  the plugin (default: build/lib/CudaTidyModule.so); a copy
#                in OUTDIR is used, safe from rebuilds during the run
#   JOBS         files analysed in parallel (default: 2)
#   TIMEOUT      seconds one file may take before it is stopped and counted
#                as a timeout (default: 600)
#   STANDALONE=1 run plain clang-tidy instead of the wrapper: builds a
#                --standalone database in OUTDIR and loads
#                build/lib/CudaTidyModule.so if it exists
#   REPORT_ONLY=1  analyse nothing: summarise the logs already in OUTDIR
#   DB_ARGS      further make-compile-db.py options for that database (the
#                -I, -D, --under, ... the corpus's own database was made with)
#
# The checks time their slowest function (CUDA_TIDY_TIMING, set here): each
# log holds a "<check>: slowest '<function>' took <s> s" line.
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
timeout_s=${TIMEOUT:-600}
read -ra tidy <<<"${TIDY:-$repo/build/bin/cuda-tidy}"

mkdir -p "$outdir/logs"
outdir=$(realpath "$outdir")
report_only=${REPORT_ONLY:-0}
[[ $report_only == 1 ]] || rm -f "$outdir"/logs/*.log

# Run a copy of the plugin, so that a rebuild during the run cannot change it
# half-way. The copy is renamed into place: copying over a library that a
# checker of an earlier run in OUTDIR still has loaded would crash it.
plugin=${CUDA_TIDY_PLUGIN:-$repo/build/lib/CudaTidyModule.so}
if [[ -f $plugin ]]; then
  cp "$plugin" "$outdir/CudaTidyModule.so.$$"
  mv -f "$outdir/CudaTidyModule.so.$$" "$outdir/CudaTidyModule.so"
  plugin=$outdir/CudaTidyModule.so
  export CUDA_TIDY_PLUGIN=$plugin
fi

if [[ ${STANDALONE:-0} == 1 ]]; then
  db_dir=$outdir/db
  read -ra db_args <<<"${DB_ARGS:-}"
  python3 "$repo/tools/corpus/make-compile-db.py" --standalone -o "$db_dir" \
    "${db_args[@]}" "$corpus_root" >/dev/null
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

# One file: its log is the checker's stdout and stderr, then its exit status
# and the CPU time (user + system) it took.
analyse_one() {
  local file=$1 log
  log=$outdir/logs/$(realpath --relative-to="$corpus_root" "$file" | sed 's|/|__|g').log
  local rc=0
  /usr/bin/time -o "$log.time" -f '%U %S' timeout -k 10 "$timeout_s" \
    "${tidy[@]}" -p "$db_dir" "--checks=-*,$checks" "$file" >"$log" 2>&1 || rc=$?
  echo "exit status: $rc" >>"$log"
  # A stopped checker's time is not known: its children were not waited for.
  if ((rc != 124 && rc != 137)); then
    awk '/^[0-9.]+ [0-9.]+$/ { printf "cpu seconds: %.2f\n", $1 + $2 }' "$log.time" >>"$log"
  fi
  rm -f "$log.time"
}
export -f analyse_one
export CUDA_TIDY_TIMING=${CUDA_TIDY_TIMING:-1}
export outdir corpus_root db_dir checks timeout_s
export TIDY_CMD="${tidy[*]}"

python3 -c 'import json, sys
for e in json.load(open(sys.argv[1])): print(e["file"])' \
  "$db_dir/compile_commands.json" | sort -u >"$outdir/files.txt"

# xargs cannot pass an array through: rebuild it from TIDY_CMD in each job.
# shellcheck disable=SC2016 # expanded by the inner shell
[[ $report_only == 1 ]] ||
  xargs -P "$jobs" -I{} bash -c 'read -ra tidy <<<"$TIDY_CMD"; analyse_one "$1"' _ {} \
    <"$outdir/files.txt"

summary=$outdir/summary.tsv
printf 'file\tstatus\twarnings\tcpu_s\n' >"$summary"
total=0
failed=0
broken=0
while read -r file; do
  rel=$(realpath --relative-to="$corpus_root" "$file")
  log=$outdir/logs/${rel//\//__}.log
  rc=$(sed -n 's/^exit status: //p' "$log" | tail -n 1)
  if ((rc == 124 || rc == 137)); then
    status=timeout
  elif grep -q 'error: .*\[clang-diagnostic-error\]' "$log"; then
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
  cpu=$(sed -n 's/^cpu seconds: //p' "$log")
  printf '%s\t%s\t%s\t%s\n' "$rel" "$status" "$warnings" "${cpu:-?}" >>"$summary"
  total=$((total + 1))
  case $status in
  failed) failed=$((failed + 1)) ;;
  crashed | timeout | tool-error) broken=$((broken + 1)) ;;
  esac
done <"$outdir/files.txt"

echo "files analysed: $total"
echo "files that failed to parse: $failed"
echo "files that parse: $((total - failed - broken)) / $total"
awk -F'\t' 'NR > 1 && $2 == "failed" { print "  failed: " $1 }' "$summary"
if ((broken)); then
  echo "files where the checker crashed, timed out or did not run: $broken"
  awk -F'\t' 'NR > 1 && $2 != "ok" && $2 != "failed" { print "  " $2 ": " $1 }' "$summary"
fi

awk -F'\t' 'NR > 1 && $4 != "?" { n++; s += $4 }
  END { if (n) printf "cpu seconds: %.1f over %d files, %.2f per file\n", s, n, s / n }' "$summary"
echo "slowest analyses:"
grep "^cuda-[a-z-]*: slowest '" "$outdir"/logs/*.log |
  awk '{ for (i = NF; i > 0; i--) if ($i == "took") { t = $(i + 1); break }
         sub(/^.*\/logs\//, ""); sub(/\.log:/, ": "); print t "\t" $0 }' |
  sort -g -r | cut -f2 | head -n 5 | sed 's/^/  /' || true

# Each warning of the checks, with the notes that follow it.
echo "warnings:"
count=0
while IFS=$'\t' read -r rel status warnings _cpu; do
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
