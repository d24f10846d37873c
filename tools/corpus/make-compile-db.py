#!/usr/bin/env python3
"""Write a compile_commands.json for the CUDA translation units of a source tree.

Made for NVIDIA/cuda-samples (a `Common/` directory of shared headers, one
directory per sample), it works on any tree laid out the same way.  Every
`.cu` file is a translation unit unless another file of the tree includes it
(`#include "x.cu"`): those are fragments and are left out.

Each entry compiles the file as CUDA for one GPU architecture:

    clang++ -x cuda --cuda-gpu-arch=sm_90 -std=c++17 [-fgpu-rdc]
            -iquote D -idirafter D    for D in: the file's directory, the
                                      sample's, the sample's inc/ or include/
            -idirafter <root>/Common -c <file>

The project's own directories come after the system ones (`-idirafter`)
because some projects ship a `cuda.h` of their own that would shadow the
toolkit's.  But clang counts a header found through `-idirafter` as a system
header, and clang-tidy neither analyses nor reports code in system headers:
the kernels of a sample's `inc/FooKernel.cuh` would be invisible.  So the
sample's directories are also given with `-iquote`, which serves only
`#include "..."` (the spelling samples use for their own headers), keeps
those headers user headers, and cannot shadow `<cuda.h>`.  Common/'s helpers
stay system headers.

Dynamic-parallelism samples (kernels launching kernels) need `-fgpu-rdc`; they are found by directory name (`cdp`, any case) or by a
device-side launch API in the source.  A file that includes <omp.h> gets
`-fopenmp`, and GCC's omp.h when LLVM's libomp headers are not installed.
Kernels of `*_nvrtc` samples are compiled at run time by NVRTC, which
declares `assert` without an #include: they get `-include assert.h`.

Trees laid out otherwise (a library with its own include directories,
generated config headers, macros its build system defines) are described
with options that apply to every entry: `-I DIR`, `-D NAME[=VALUE]`,
`--include FILE` (force-included before the file), `--extra-arg ARG`;
`--under DIR` and `--exclude GLOB` choose which translation units to write,
`--suffix SUFFIX` names the translation units of a tree whose CUDA sources
are not `.cu` files (libcu++'s tests are `*.pass.cpp`, compiled as CUDA),
`--unit GLOB` keeps a `.cu` file that another includes only under an `#if`
(a "single compilation unit" build switch) as a translation unit of its own,
and `--sample N` keeps N of them, evenly spread over the sorted list, for a
corpus too slow to run whole.

The fixes for CUDA 13 are added by the `cuda-tidy` wrapper, not written here.
`--standalone` writes them into the database as well, for running a plain
clang-tidy (the baseline of bench/bench.sh).
"""

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys

CLANG = "/usr/lib/llvm-22/bin/clang++"
CUDA_PATH = "/usr/local/cuda"

# What build/bin/cuda-tidy adds (README.md, "Using it").
STANDALONE_FLAGS = [
    "-Xclang",
    "-target-sdk-version=12.9",
    "-isystem",
    CUDA_PATH + "/include/cccl",
    "-Wno-unknown-cuda-version",
]

INCLUDE_OF_CU = re.compile(r'^\s*#\s*include\s*[<"]([^">]*\.cu)[">]', re.M)

# Device-side launch spellings that only compile with relocatable device code.
DEVICE_LAUNCH_API = re.compile(
    r"\bcudaStreamFireAndForget\b|\bcudaStreamTailLaunch\b"
    r"|\bcudaGetParameterBuffer\b|\bcudaLaunchDevice\b"
)

INCLUDE_OF_OMP = re.compile(r'^\s*#\s*include\s*<omp\.h>', re.M)

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hxx", ".cpp", ".cc", ".c", ".inl")


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def walk_sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(dirpath, name)


def included_fragments(sources):
    """Absolute paths of `.cu` files that some other source #includes."""
    by_basename = {}
    for path in sources:
        if path.endswith(".cu"):
            by_basename.setdefault(os.path.basename(path), []).append(path)
    fragments = set()
    for path in sources:
        for spelled in INCLUDE_OF_CU.findall(read_text(path)):
            beside = os.path.normpath(os.path.join(os.path.dirname(path), spelled))
            if os.path.exists(beside):
                fragments.add(beside)
                continue
            # Found through an include path: match on the file name.
            for candidate in by_basename.get(os.path.basename(spelled), []):
                fragments.add(candidate)
    return fragments


def sample_dir(path, root):
    """The nearest directory above `path` with a CMakeLists.txt or Makefile."""
    directory = os.path.dirname(path)
    while directory.startswith(root) and directory != root:
        if os.path.exists(os.path.join(directory, "CMakeLists.txt")) or os.path.exists(
            os.path.join(directory, "Makefile")
        ):
            return directory
        directory = os.path.dirname(directory)
    return os.path.dirname(path)


def needs_rdc(path, root, text):
    directories = os.path.relpath(os.path.dirname(path), root).split(os.sep)
    if any("cdp" in part.lower() for part in directories):
        return True
    return DEVICE_LAUNCH_API.search(text) is not None


def omp_include_dir(clang):
    """Where omp.h is when clang has none of its own (libomp-dev missing), or None."""
    resource_dir = subprocess.run(
        [clang, "-print-resource-dir"], capture_output=True, text=True
    ).stdout.strip()
    llvm_include = os.path.join(os.path.dirname(os.path.dirname(clang)), "include")
    for directory in (os.path.join(resource_dir, "include"), llvm_include):
        if os.path.exists(os.path.join(directory, "omp.h")):
            return None
    try:
        gcc_include = subprocess.run(
            ["gcc", "-print-file-name=include"], capture_output=True, text=True
        ).stdout.strip()
    except FileNotFoundError:
        return None
    return gcc_include if os.path.exists(os.path.join(gcc_include, "omp.h")) else None


def include_dirs(path, root):
    """The sample's own directories, and the tree's Common/ (or None)."""
    dirs = [os.path.dirname(path)]
    sample = sample_dir(path, root)
    for candidate in (sample, os.path.join(sample, "inc"), os.path.join(sample, "include")):
        if os.path.isdir(candidate) and candidate not in dirs:
            dirs.append(candidate)
    common = os.path.join(root, "Common")
    return dirs, common if os.path.isdir(common) else None


def selected(relative, args):
    """Whether the translation unit at `relative` (to the root) is wanted."""
    if args.under and not any(
        relative == d or relative.startswith(d.rstrip("/") + "/") for d in args.under
    ):
        return False
    return not any(fnmatch.fnmatch(relative, glob) for glob in args.exclude)


def entry(path, root, args, omp_dir):
    text = read_text(path)
    command = [args.clang, "-x", "cuda", "--cuda-gpu-arch=" + args.arch, "-std=" + args.std]
    if needs_rdc(path, root, text):
        command.append("-fgpu-rdc")
    if INCLUDE_OF_OMP.search(text):
        command.append("-fopenmp")
    sample_dirs, common_dir = include_dirs(path, root)
    for directory in sample_dirs:
        command += ["-iquote", directory, "-idirafter", directory]
    if common_dir:
        command += ["-idirafter", common_dir]
    if omp_dir and INCLUDE_OF_OMP.search(text):
        command += ["-idirafter", omp_dir]
    if os.path.basename(os.path.dirname(path)).endswith("_nvrtc"):
        command += ["-include", "assert.h"]
    for directory in args.include_dir:
        command += ["-I", directory]
    for define in args.define:
        command.append("-D" + define)
    for header in args.include:
        command += ["-include", header]
    command += args.extra_arg
    if args.standalone:
        command += STANDALONE_FLAGS
    command += ["-c", path]
    return {"directory": os.path.dirname(path), "file": path, "arguments": command}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", help="root of the source tree (e.g. corpus/cuda-samples)")
    parser.add_argument(
        "-o",
        "--output-dir",
        help="directory to write compile_commands.json into (default: the root)",
    )
    parser.add_argument(
        "--standalone",
        action="store_true",
        help="also write the CUDA 13 flags that build/bin/cuda-tidy adds, for plain clang-tidy",
    )
    parser.add_argument("--arch", default="sm_90", help="GPU architecture (default: sm_90)")
    parser.add_argument("--std", default="c++17", help="language standard (default: c++17)")
    parser.add_argument("--clang", default=CLANG, help="compiler named in the entries")
    parser.add_argument(
        "-D", dest="define", action="append", default=[], metavar="NAME[=VALUE]",
        help="macro to define in every entry (repeatable)",
    )
    parser.add_argument(
        "-I", dest="include_dir", action="append", default=[], metavar="DIR",
        help="include directory for every entry, searched as -I (repeatable)",
    )
    parser.add_argument(
        "--include", action="append", default=[], metavar="FILE",
        help="header to force-include in every entry (repeatable)",
    )
    parser.add_argument(
        "--extra-arg", action="append", default=[], metavar="ARG",
        help="compiler argument for every entry, e.g. --extra-arg=-fno-exceptions (repeatable)",
    )
    parser.add_argument(
        "--under", action="append", default=[], metavar="DIR",
        help="only translation units below DIR, relative to the root (repeatable)",
    )
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB",
        help="leave out translation units whose path relative to the root matches GLOB (repeatable)",
    )
    parser.add_argument(
        "--unit", action="append", default=[], metavar="GLOB",
        help="a translation unit even if another file includes it (repeatable)",
    )
    parser.add_argument(
        "--suffix", action="append", default=[], metavar="SUFFIX",
        help="file names ending in SUFFIX are translation units (repeatable; default: .cu), "
        "e.g. --suffix=.pass.cpp for libcu++'s tests, compiled as CUDA like .cu files",
    )
    parser.add_argument(
        "--sample", type=int, metavar="N",
        help="keep only N translation units, evenly spread over the sorted list",
    )
    args = parser.parse_args()
    args.include_dir = [os.path.realpath(d) for d in args.include_dir]
    # A path is made absolute; a bare name (`--include tuple`) is searched for.
    args.include = [os.path.realpath(f) if os.path.exists(f) else f for f in args.include]

    root = os.path.realpath(args.root)
    if not os.path.isdir(root):
        sys.exit(f"make-compile-db: not a directory: {args.root}")
    sources = list(walk_sources(root))
    fragments = included_fragments(sources)
    fragments = {
        p for p in fragments
        if not any(fnmatch.fnmatch(os.path.relpath(p, root), glob) for glob in args.unit)
    }
    suffixes = tuple(args.suffix or [".cu"])
    units = [p for p in sources if p.endswith(suffixes) and p not in fragments]
    units = [p for p in units if selected(os.path.relpath(p, root), args)]
    if args.sample is not None and 0 < args.sample < len(units):
        step = len(units) / args.sample
        units = [units[int(i * step)] for i in range(args.sample)]
    omp_dir = omp_include_dir(args.clang)
    database = [entry(p, root, args, omp_dir) for p in units]

    output_dir = os.path.realpath(args.output_dir or root)
    os.makedirs(output_dir, exist_ok=True)
    output = os.path.join(output_dir, "compile_commands.json")
    with open(output, "w") as f:
        json.dump(database, f, indent=2)
        f.write("\n")
    rdc = sum("-fgpu-rdc" in e["arguments"] for e in database)
    print(
        f"{output}: {len(database)} translation units "
        f"({len(fragments)} included .cu fragments skipped, {rdc} with -fgpu-rdc)"
    )


if __name__ == "__main__":
    main()
