#!/usr/bin/env bash
# Sets up everything cuda-tidy needs on a fresh Debian 12 machine, builds it,
# then either runs the checker over examples/ or runs every test.
#
#   tools/bootstrap.sh examples        install, build, run cuda-tidy on examples/
#   tools/bootstrap.sh test            install, build, run all lit suites
#   tools/bootstrap.sh test-sanitized  the same with ASan and UBSan, in
#                                      build-asan/ (docs/testing.md)
#
# A second run with nothing changed installs nothing and rebuilds nothing.
set -euo pipefail

mode=${1:-examples}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CUDA_TIDY_BUILD_DIR:-$root/build}
cmake_args=(-DBUILD_TESTING=ON)
if [[ $mode == test-sanitized ]]; then
  build=${CUDA_TIDY_SANITIZED_BUILD_DIR:-$root/build-asan}
  cmake_args+=(-DCUDA_TIDY_SANITIZE=address,undefined)
fi
llvm=/usr/lib/llvm-22

# libclang-rt-22-dev: the ASan and UBSan runtimes of the sanitized build.
# libgrpc++-dev and libprotobuf-dev: the libraries Debian's static clangd
# libraries were built against, for cuda-clangd; lld-22 links it in seconds;
# neovim: the editor the end-to-end test drives cuda-clangd from.
packages=(clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
          libclang-rt-22-dev cmake ninja-build python3 python3-pip
          libgtest-dev libgmock-dev git libgrpc++-dev libprotobuf-dev lld-22
          neovim)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

# Python packages the tests use, for the Python that runs lit: jsonschema
# validates SARIF against the official schema, pre-commit runs the hook.
python=/usr/bin/python3
pip_packages=(jsonschema pre-commit)
if ! "$python" -c 'import jsonschema, pre_commit' 2>/dev/null; then
  echo "bootstrap: installing ${pip_packages[*]} from PyPI"
  # Debian marks its Python as externally managed; this machine is the
  # project's own.
  "$python" -m pip install -q --root-user-action=ignore \
    --break-system-packages "${pip_packages[@]}"
fi

if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -G Ninja "${cmake_args[@]}"
fi
cmake --build "$build"

case $mode in
examples)
  if [[ ! -d /usr/local/cuda ]]; then
    echo "bootstrap: the examples need the CUDA toolkit at /usr/local/cuda" >&2
    exit 1
  fi
  find "$root/examples" -name "*.cu" | sort | while read -r f; do
    echo "== cuda-tidy ${f#$root/}"
    "$build/bin/cuda-tidy" "$f" -- -std=c++17 2>&1 | grep -v 'warnings\? generated' || true
  done
  ;;
test | test-sanitized)
  command -v nvim >/dev/null ||
    echo "bootstrap: Neovim is not installed; the editor test (test/clangd/neovim.test) will be skipped"
  log=$build/lit.log
  reports=$build/sanitizer-reports
  rm -rf "$reports"
  set +e
  "$llvm/bin/lit" -sv "$build/test" "$build/runtime-tests" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  count() {
    local n
    n=$(sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | head -n1)
    echo "${n:-0}"
  }
  passed=$(($(count Passed) + $(count 'Expectedly Failed')))
  failed=$(($(count Failed) + $(count 'Unexpectedly Passed') + $(count Unresolved)))
  skipped=$(count Unsupported)
  echo "lit: $passed passed, $failed failed, $skipped skipped"
  # Sanitizer reports land here (test/lit_common.py), even those of runs
  # that a test expected to fail.
  if [[ -d $reports ]] && [[ -n $(ls -A "$reports") ]]; then
    echo "sanitizer reports in ${reports#$root/}:" >&2
    cat "$reports"/* >&2
    exit 1
  fi
  exit "$status"
  ;;
*)
  echo "usage: tools/bootstrap.sh examples|test|test-sanitized" >&2
  exit 2
  ;;
esac
