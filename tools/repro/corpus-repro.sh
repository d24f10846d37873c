#!/usr/bin/env bash
# Writes a reproducer for every finding of a corpus, to carry to a GPU
# machine with the corpus's sources (docs/reproducers.md):
#
#   tools/repro/corpus-repro.sh NAME DB OUT [FILE...]
#
# runs cuda-tidy -p DB --repro-dir=OUT/NAME over FILE... (default: every
# translation unit of DB's compile_commands.json), JOBS at a time (2), and
# keeps its output in OUT/NAME.txt. The folders hold text only; build.sh
# builds each on the GPU machine, for its GPU. Then, there:
#   build/bin/cuda-tidy-confirm -j 8 --timeout 120 -o confirmations.json OUT/NAME
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 NAME DB OUT [FILE...]" >&2; exit 2; }
name=$1 db=$2 out=$3
shift 3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tidy=${TIDY:-$root/build/bin/cuda-tidy}
[[ -f $db/compile_commands.json ]] || { echo "$0: no $db/compile_commands.json" >&2; exit 2; }
files=("$@")
if ((${#files[@]} == 0)); then
  mapfile -t files < <(python3 -c 'import json, sys
for e in json.load(open(sys.argv[1])):
    print(e["file"])' "$db/compile_commands.json")
fi
rm -rf "${out:?}/$name"
mkdir -p "$out"
status=0
"$tidy" -p "$db" -j "${JOBS:-2}" --repro-dir="$out/$name" "${files[@]}" > "$out/$name.txt" 2>&1 || status=$?
echo "$name: $(grep -c ': warning: ' "$out/$name.txt" || true) warnings, $(ls "$out/$name" 2>/dev/null | wc -l) folders, cuda-tidy status $status"
grep '^cuda-tidy: wrote' "$out/$name.txt" || true
