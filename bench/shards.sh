#!/usr/bin/env bash
# A large database split into parts, cold and then with the result cache
# warm (issue 25): how long each part takes, how many files it holds, and
# whether the merge of the parts' SARIF logs equals one unsharded run's.
#
# usage: bench/shards.sh DB_DIR [N]        (default N: 4)
#
# Each part K of N runs `cuda-tidy -p DB_DIR --shard=K/N -j JOBS
# --cache-dir=CACHE --sarif=...` one after the other on this machine, as N
# machines of a CI matrix would run them side by side; the wall time of a
# matrix is then the slowest part's. A second round with the same cache is
# the warm run (nothing changed). With UNSHARDED=1 an unsharded run without
# a cache is timed too, and its SARIF log is compared with the merge.
#
# Environment: TIDY (default build/bin/cuda-tidy), CHECKS (default cuda-*),
# JOBS (default nproc), WORK (default a temporary folder, removed after).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
db=${1:?usage: bench/shards.sh DB_DIR [N]}
parts=${2:-4}
tidy=${TIDY:-$repo/build/bin/cuda-tidy}
checks=${CHECKS:-cuda-*}
jobs=${JOBS:-$(nproc)}
[[ -f $db/compile_commands.json ]] || { echo "shards.sh: no compile_commands.json in $db" >&2; exit 2; }
if [[ -n ${WORK:-} ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
cache=$work/cache
rm -rf "$cache"

units=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$db/compile_commands.json")
echo "database: $db ($units entries), $parts parts, -j $jobs, checks $checks"
echo "tool: $("$tidy" --version 2>/dev/null | head -1)"
echo "machine: $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo

# run LABEL ARGS...: one cuda-tidy run; prints its wall time, its cache line
# and its SARIF result count.
run() {
  local label=$1
  shift
  local start end status=0
  start=$(date +%s.%N)
  "$tidy" -p "$db" -j "$jobs" --checks="-*,$checks" "$@" \
    >"$work/$label.out" 2>"$work/$label.err" || status=$?
  end=$(date +%s.%N)
  local cacheline results
  cacheline=$(grep -o 'result cache .*' "$work/$label.err" | sed "s|result cache '[^']*': ||" | paste -sd';' - | sed 's|;|; |g' || true)
  results=$(python3 -c 'import json,sys; print(sum(len(r["results"]) for r in json.load(open(sys.argv[1]))["runs"]))' \
    "$work/$label.sarif" 2>/dev/null || echo "?")
  printf '| %s | %.1f | %s | %s | %s |\n' "$label" "$(echo "$end - $start" | bc)" \
    "${cacheline:--}" "$results" "$status"
}

printf '| run | wall s | cache | SARIF results | exit |\n|---|---|---|---|---|\n'
if [[ ${UNSHARDED:-0} == 1 ]]; then
  run unsharded --sarif="$work/unsharded.sarif"
fi
for round in cold warm; do
  for ((k = 1; k <= parts; ++k)); do
    run "$round-$k-of-$parts" --shard="$k/$parts" --cache-dir="$cache" \
      --sarif="$work/$round-$k-of-$parts.sarif"
  done
done
echo
"$tidy" --merge-sarif="$work/merged-cold.sarif" "$work"/cold-*-of-"$parts".sarif
"$tidy" --merge-sarif="$work/merged-warm.sarif" "$work"/warm-*-of-"$parts".sarif
if cmp -s "$work/merged-cold.sarif" "$work/merged-warm.sarif"; then
  echo "merged SARIF: cold and warm rounds identical"
else
  echo "merged SARIF: cold and warm rounds DIFFER"
fi
if [[ -f $work/unsharded.sarif ]]; then
  if cmp -s "$work/merged-cold.sarif" "$work/unsharded.sarif"; then
    echo "merged SARIF: identical to the unsharded run's"
  else
    echo "merged SARIF: DIFFERS from the unsharded run's"
  fi
fi
echo "cache: $(find "$cache" -type f | wc -l) entries, $(du -sh "$cache" | cut -f1)"
