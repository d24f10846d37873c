#!/usr/bin/env bash
# Scaling benchmark: the cuda-* checks' own time on generated kernels of N
# repetitions of one pattern (issue 9, item 8), per statement.
#
# usage: bench/scaling.sh [N ...]        (default: 100 200 400 800 1600 3200)
#
# Each repetition is {two shared stores, a barrier, a thread-dependent branch
# with shared loads, a small loop, a barrier}: 8 statements. The time is the
# sum of the cuda-* checks' user+system time from clang-tidy's
# --enable-check-profile, so parsing is not counted. Environment: PLUGIN
# (default build/lib/CudaTidyModule.so), CLANG_TIDY, CHECKS (default cuda-*).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
plugin=${PLUGIN:-$repo/build/lib/CudaTidyModule.so}
tidy=${CLANG_TIDY:-/usr/lib/llvm-22/bin/clang-tidy}
checks=${CHECKS:-cuda-*}
stub=$repo/test/Inputs
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(100 200 400 800 1600 3200)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generate() {
  local n=$1
  echo '#include <cuda_runtime.h>'
  echo '__global__ void generated(float *out, int n) {'
  echo '  __shared__ float a[256], b[256];'
  echo '  int t = threadIdx.x;'
  echo '  float acc = 0.0f;'
  for ((r = 0; r < n; ++r)); do
    echo "  a[t] = out[t + $r];"
    echo "  b[t] = acc;"
    echo '  __syncthreads();'
    echo "  if (t < 128) { acc += a[t + 128] + b[255 - t]; }"
    echo "  for (int k = 0; k < 4; ++k) acc += a[(t + k) % 256];"
    echo '  __syncthreads();'
  done
  echo '  out[t] = acc;'
  echo '}'
  echo 'void launch(float *o, int n) { generated<<<1, 256>>>(o, n); }'
}

printf '| N | statements | checks s | us/statement | kernel warnings |\n|---|---|---|---|---|\n'
for n in "${sizes[@]}"; do
  generate "$n" >"$work/gen$n.cu"
  statements=$((8 * n + 4))
  "$tidy" --load="$plugin" --checks="-*,$checks" --enable-check-profile \
    --store-check-profile="$work/prof$n" "$work/gen$n.cu" -- \
    -nocudainc -nocudalib --cuda-path="$stub/CUDA/usr/local/cuda" \
    -isystem "$stub/include" --cuda-device-only -std=c++17 \
    >"$work/out$n" 2>&1 || true
  seconds=$(python3 - "$work/prof$n" <<'PY'
import json, glob, sys
total = 0.0
for f in glob.glob(sys.argv[1] + "/*.json"):
    profile = json.load(open(f))["profile"]
    for key, value in profile.items():
        if "cuda-" in key and (key.endswith(".wall") is False) and \
           (key.endswith(".user") or key.endswith(".sys")):
            total += value
print("%.3f" % total)
PY
)
  warnings=$(grep -c 'warning:' "$work/out$n" || true)
  printf '| %d | %d | %s | %s | %s |\n' "$n" "$statements" "$seconds" \
    "$(python3 -c "print('%.1f' % ($seconds * 1e6 / $statements))")" "$warnings"
done
