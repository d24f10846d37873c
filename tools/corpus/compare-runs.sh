#!/usr/bin/env bash
# Compares two run-corpus.sh output folders diagnostic for diagnostic.
#
# usage: tools/corpus/compare-runs.sh BEFORE AFTER
#
# For every file both runs analysed, the warnings, notes and errors of its log
# (run-corpus.sh's OUTDIR/logs/*.log) must be the same lines in the same
# order, the source excerpts and the timing lines aside; so must each file's
# status in summary.tsv (ok, failed, crashed, timeout). Prints the number of
# files compared and, for each file that differs, a unified diff of its
# diagnostics. Exits 0 when every file is identical, 1 when one differs or
# one run lacks a file the other has, 2 on bad usage.
#
# This is how a change that must not change the output (a refactoring) is
# checked on real code: run-corpus.sh with the old and the new build into two
# folders, then this.
set -euo pipefail
if [[ $# -ne 2 || ! -d $1/logs || ! -d $2/logs ]]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
  exit 2
fi
before=$1 after=$2
diagnostics() { grep -E ': (warning|note|error): ' "$1" || true; }
status=0 compared=0 differing=0
while read -r log; do
  if [[ ! -f $after/logs/$log ]]; then
    echo "only in $before: $log"
    status=1
    continue
  fi
  compared=$((compared + 1))
  if ! out=$(diff -u --label "$before/logs/$log" --label "$after/logs/$log" \
    <(diagnostics "$before/logs/$log") <(diagnostics "$after/logs/$log")); then
    echo "$out"
    differing=$((differing + 1))
    status=1
  fi
done < <(cd "$before/logs" && ls)
while read -r log; do
  [[ -f $before/logs/$log ]] || { echo "only in $after: $log"; status=1; }
done < <(cd "$after/logs" && ls)
if [[ -f $before/summary.tsv && -f $after/summary.tsv ]]; then
  if ! out=$(diff -u <(cut -f1,2 "$before/summary.tsv" | sort) \
    <(cut -f1,2 "$after/summary.tsv" | sort)); then
    echo "statuses differ:"
    echo "$out"
    status=1
  fi
fi
echo "compared $compared files: $differing with different diagnostics"
exit "$status"
