# -*- Python -*-
# lit configuration for runtime-tests/: every <check>/<case>/<variant>.cu is
# four lit tests.
#
#   <variant>.cu        the static side: the file's own RUN lines (the check
#                       on the real toolkit, REQUIRES: cuda-toolkit).
#   <variant>.cu/nvcc   the program still builds: nvcc -arch=sm_90 -lineinfo
#                       (needs the feature nvcc).
#   <variant>.cu/repro  every finding's reproducer (cuda-tidy --repro-dir)
#                       builds, and a fixed.cu program has none (needs
#                       cuda-toolkit and nvcc).
#   <variant>.cu/gpu    the runtime side: build, run under the tool that the
#                       file's `// RUNTIME:` line names, and compare with its
#                       expectation (needs gpu and nvcc; unsupported elsewhere).
#
# The last three are made from the file, so a case is just its two programs.
# A program of several files names the others in a `// SOURCES:` line; they
# live in the case's Inputs/ folder, which lit skips.
# What the RUNTIME line means, and how a run is judged, is in runtime_suite.py.

import os
import shlex
import sys

config.name = "cuda-tidy-runtime"
config.suffixes = [".cu"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

sys.path.insert(0, os.path.join(config.test_source_root, "..", "test"))
sys.path.insert(0, config.test_source_root)
import lit_common
import lit_format
import runtime_suite

lit_common.configure(config, lit_config)
# A copy of lit carried to a GPU machine (README.md) holds no tests of ours.
config.excludes.append(".lit")

config.substitutions.append(
    ("%cuda_real", " ".join(map(shlex.quote, runtime_suite.CUDA_REAL_ARGS))))
# The clang-tidy arguments the wrapper adds besides (the toolkit's version
# macros, the overlay for `__shared__ cuda::barrier`) go to every static
# side, as run_static gives them.
config.substitutions = [
    (key, value + "".join(
        " " + shlex.quote("--tidy-arg=" + arg) for arg in
        runtime_suite.wrapper_tidy_args(config.cuda_tidy_wrapper)))
    if key == "%check_clang_tidy" else (key, value)
    for key, value in config.substitutions]
# The static side of a program of several files (runtime_suite.py
# static-program), first: %cuda_tidy would otherwise take its prefix.
config.substitutions.insert(0, (
    "%cuda_tidy_program", " ".join(map(shlex.quote, [
        config.python_executable, runtime_suite.__file__, "static-program",
        "--cuda-tidy", config.cuda_tidy_wrapper,
        "--plugin", config.cuda_tidy_plugin]))))
config.test_format = lit_format.RuntimeCaseFormat(
    config.test_format.execute_external)
