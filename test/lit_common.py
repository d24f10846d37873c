"""Substitutions, features and environment shared by cuda-tidy's lit suites.

Both test/lit.cfg.py and runtime-tests/lit.cfg.py call configure(config,
lit_config) after setting their name, suffixes and test_source_root:

    import os, sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "test"))
    import lit_common
    lit_common.configure(config, lit_config)

Paths come from the lit.site.cfg.py that CMake writes for each suite
(build/test/, build/runtime-tests/). Run lit on a source folder directly and
they default to the build/ folder of this checkout, or to the one named with
`lit --param cuda_tidy_build_dir=DIR`.

Substitutions (see docs/testing.md):
  %check_clang_tidy   python3 test/check_clang_tidy.py --clang-tidy=... --load=<plugin>
  %cuda_stub          compile args for the stub CUDA install in test/Inputs
  %cuda_tidy          the wrapper (build/bin/cuda-tidy)
  %clang_tidy_plugin  the plugin (build/lib/CudaTidyModule.so)
  %clang_tidy         clang-tidy itself
  %nvcc               nvcc
  %python             the Python that runs lit
  %cuda_tidy_unittests the gtest unit tests (build/bin/)
  %cuda_tidy_analysis_unittests the analyses' gtest unit tests (build/bin/)
  %cuda_tidy_obj_root the build folder
  %pre_commit         pre-commit (feature pre-commit)
  %test_path          the PATH tests run with
  %cuda_clangd        clangd with the cuda module (build/bin/cuda-clangd)
  %lsp_client         python3 test/clangd/lsp_client.py, a scripted LSP client
Features: cpack (cpack and dpkg-deb, to build and unpack the package),
cuda-toolkit (a real toolkit with cuda_runtime.h and
cooperative_groups.h), nvcc, gpu (nvidia-smi -L lists a GPU), sanitized (a
-DCUDA_TIDY_SANITIZE build), cuda-clangd (build/bin/cuda-clangd was built),
neovim (an nvim to run, 0.7 or later).

In a sanitized build every sanitizer report goes to a file under
<build>/sanitizer-reports/ rather than to standard error, so that a test
which expects a failure (`not %cuda_tidy ...`) cannot pass over one;
tools/bootstrap.sh test-sanitized fails when any report is there.
"""

import os
import shlex
import shutil
import subprocess
import sys

import lit.formats
import lit.util

TEST_DIR = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(TEST_DIR)
LLVM_TOOLS_DIR = "/usr/lib/llvm-22/bin"
CUDA_PATH = "/usr/local/cuda"


def _defaults(build_dir):
    nvcc = shutil.which("nvcc") or os.path.join(CUDA_PATH, "bin", "nvcc")
    return {
        "cuda_tidy_src_root": SOURCE_ROOT,
        "cuda_tidy_obj_root": build_dir,
        "clang_tidy": os.path.join(LLVM_TOOLS_DIR, "clang-tidy"),
        "cuda_tidy_plugin": os.path.join(build_dir, "lib", "CudaTidyModule.so"),
        "cuda_tidy_wrapper": os.path.join(build_dir, "bin", "cuda-tidy"),
        "llvm_tools_dir": LLVM_TOOLS_DIR,
        "cuda_toolkit_path": CUDA_PATH,
        "nvcc": nvcc,
        "python_executable": sys.executable,
    }


def _fill_paths(config, lit_config):
    build_dir = lit_config.params.get(
        "cuda_tidy_build_dir", os.path.join(SOURCE_ROOT, "build"))
    for name, value in _defaults(os.path.abspath(build_dir)).items():
        if not getattr(config, name, None):
            setattr(config, name, value)


def _has_gpu():
    nvidia_smi = shutil.which("nvidia-smi")
    if not nvidia_smi:
        return False
    try:
        listing = subprocess.run([nvidia_smi, "-L"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return listing.returncode == 0 and b"GPU " in listing.stdout


def _is_executable(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def configure(config, lit_config):
    _fill_paths(config, lit_config)

    # As upstream: lit's internal shell unless LIT_USE_INTERNAL_SHELL=0.
    use_lit_shell = True
    lit_shell_env = os.environ.get("LIT_USE_INTERNAL_SHELL")
    if lit_shell_env:
        use_lit_shell = lit.util.pythonize_bool(lit_shell_env)
    config.test_format = lit.formats.ShTest(not use_lit_shell)
    config.excludes = sorted(set(getattr(config, "excludes", [])) | {"Inputs"})
    if not getattr(config, "test_exec_root", None):
        config.test_exec_root = os.path.join(
            config.cuda_tidy_obj_root,
            os.path.relpath(config.test_source_root, config.cuda_tidy_src_root))

    # FileCheck, not, count and split-file come from LLVM's tools folder.
    path = os.environ.get("PATH", "")
    config.environment["PATH"] = os.pathsep.join(
        [config.llvm_tools_dir, path] if path else [config.llvm_tools_dir])
    # No clang configuration file of the user or the system takes part.
    config.environment["CLANG_NO_DEFAULT_CONFIG"] = "1"
    if getattr(config, "cuda_tidy_sanitize", ""):
        config.available_features.add("sanitized")
        reports = os.path.join(config.cuda_tidy_obj_root, "sanitizer-reports",
                               "report")
        # The runtime adds .<pid> to log_path, and needs the folder.
        os.makedirs(os.path.dirname(reports), exist_ok=True)
        config.environment["ASAN_OPTIONS"] = "log_path=" + reports
        config.environment["UBSAN_OPTIONS"] = "log_path=" + reports

    quote = shlex.quote
    python = quote(config.python_executable)
    stub_install = os.path.join(TEST_DIR, "Inputs", "CUDA", "usr", "local",
                                "cuda")
    stub_include = os.path.join(TEST_DIR, "Inputs", "include")
    check_clang_tidy = "%s %s --clang-tidy=%s --load=%s" % (
        python, quote(os.path.join(TEST_DIR, "check_clang_tidy.py")),
        quote(config.clang_tidy), quote(config.cuda_tidy_plugin))
    cuda_stub = "-nocudainc -nocudalib --cuda-path=%s -isystem %s" % (
        quote(stub_install), quote(stub_include))

    # lit substitutes in order: a name that is a prefix of another comes last.
    unittests = os.path.join(config.cuda_tidy_obj_root, "bin",
                             "cuda-tidy-unittests")
    analysis_unittests = os.path.join(config.cuda_tidy_obj_root, "bin",
                                      "cuda-tidy-analysis-unittests")
    cuda_clangd = os.path.join(config.cuda_tidy_obj_root, "bin", "cuda-clangd")
    lsp_client = "%s %s" % (python, quote(os.path.join(TEST_DIR, "clangd",
                                                       "lsp_client.py")))
    config.substitutions.extend([
        ("%cuda_tidy_analysis_unittests", quote(analysis_unittests)),
        ("%cuda_tidy_unittests", quote(unittests)),
        ("%cuda_tidy_obj_root", quote(config.cuda_tidy_obj_root)),
        ("%cuda_clangd", quote(cuda_clangd)),
        ("%lsp_client", lsp_client),
        ("%check_clang_tidy", check_clang_tidy),
        ("%cuda_stub", cuda_stub),
        ("%cuda_tidy", quote(config.cuda_tidy_wrapper)),
        ("%clang_tidy_plugin", quote(config.cuda_tidy_plugin)),
        ("%clang_tidy", quote(config.clang_tidy)),
        ("%nvcc", quote(config.nvcc)),
        ("%python", python),
    ])

    if _is_executable(cuda_clangd):
        config.available_features.add("cuda-clangd")
    if shutil.which("nvim"):
        config.available_features.add("neovim")

    toolkit = config.cuda_toolkit_path
    if all(os.path.isfile(os.path.join(toolkit, "include", header))
           for header in ("cuda_runtime.h", "cooperative_groups.h")):
        config.available_features.add("cuda-toolkit")
    # pre-commit, installed by tools/bootstrap.sh for the Python running lit.
    pre_commit = shutil.which("pre-commit")
    if pre_commit:
        config.available_features.add("pre-commit")
        config.substitutions.append(("%pre_commit", quote(pre_commit)))
    else:
        lit_config.note("pre-commit is not installed (tools/bootstrap.sh "
                        "installs it from PyPI): the hook test is skipped")
    # The PATH tests run with, for tests that put a folder before it.
    config.substitutions.append(("%test_path",
                                 quote(config.environment["PATH"])))
    if shutil.which("cpack") and shutil.which("dpkg-deb"):
        config.available_features.add("cpack")
    if _is_executable(config.nvcc):
        config.available_features.add("nvcc")
    if _has_gpu():
        config.available_features.add("gpu")
