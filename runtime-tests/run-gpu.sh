#!/usr/bin/env bash
# The runtime-test suite in one command, on a machine with a GPU: builds every
# case with nvcc -arch=sm_90 -lineinfo, runs each program under the tool its
# `// RUNTIME:` line names, takes the static verdicts (from FILE, or by running
# the checks when clang-tidy and build/lib/CudaTidyModule.so are here, else
# 'pending'), and prints a Markdown table: case, check, static verdict, runtime
# tool, runtime verdict, agreement. Exits 1 on any disagreement.
#
#   runtime-tests/run-gpu.sh [--static-verdicts FILE] [--log FILE]
#                            [--table FILE] [--probe TOOL,...] [-j N]
#                            [CASE-FILE-OR-FOLDER...]
#
# --log keeps every command with its output; --probe also runs each program
# under each listed tool, to find the tool that shows a new pattern.
set -euo pipefail
exec python3 "$(dirname "$0")/runtime_suite.py" gpu "$@"
