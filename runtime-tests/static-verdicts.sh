#!/usr/bin/env bash
# Runs each check on its runtime-test cases here, where LLVM 22 and the plugin
# are, and writes one verdict a file (warn and the lines, silent, or error).
# run-gpu.sh --static-verdicts FILE reads it on a GPU machine that has no
# LLVM 22. Exits 1 if a file's verdict is not the one its CHECK-MESSAGES lines
# expect.
#
#   runtime-tests/static-verdicts.sh [-o FILE] [--plugin SO] [--clang-tidy EXE]
#                                    [CASE-FILE-OR-FOLDER...]
#
# Defaults: build/lib/CudaTidyModule.so, /usr/lib/llvm-22/bin/clang-tidy,
# verdicts on stdout.
set -euo pipefail
exec python3 "$(dirname "$0")/runtime_suite.py" static-verdicts "$@"
