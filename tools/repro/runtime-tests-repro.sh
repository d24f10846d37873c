#!/usr/bin/env bash
# Writes a reproducer for every finding on the runtime-test programs and
# builds them all with nvcc (tools/repro/runtime_tests_repro.py says how):
#
#   tools/repro/runtime-tests-repro.sh [-o DIR] [--no-build] [-j N] [CASE...]
#
# Default DIR: build/repro-runtime-tests. Then, on a GPU machine:
#   build/bin/cuda-tidy-confirm -j 8 -o confirmations.json DIR
set -euo pipefail
exec python3 "$(dirname "$0")/runtime_tests_repro.py" "$@"
