#!/usr/bin/env bash
# Cost of the cuda-* checks over real code: CPU time of clang-tidy with the
# cuda-tidy plugin loaded, with and without the cuda-* checks, on the same
# cuda-samples translation units.  See bench/README.md.
#
# usage: bench/bench.sh [FILES...]
#
#   FILES   .cu files, absolute or relative to the cuda-samples root
#           (default: the list in bench/files.txt)
#
# Environment:
#   CORPUS_ROOT  cuda-samples checkout (default: corpus/cuda-samples)
#   PLUGIN       the plugin (default: build/lib/CudaTidyModule.so)
#   CLANG_TIDY   default: /usr/lib/llvm-22/bin/clang-tidy
#   ROUNDS       repetitions of every file and configuration (default: 3)
#   WARMUP       0 skips the untimed first run of each file (default: 1), for
#                corpora whose headers other runs keep in the page cache
#   DB_ARGS      further tools/corpus/make-compile-db.py options (-I, -D,
#                --under, ...) for a tree other than cuda-samples; FILES are
#                then given explicitly (see docs/corpus-gromacs.md)
#
# Needs the corpus (see docs/corpus-cuda-samples.md), so it is not
# part of any test suite and CI never runs it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec python3 - "$repo" "$@" <<'PYTHON'
import atexit
import os
import platform
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

repo = sys.argv[1]
corpus_root = os.path.realpath(
    os.environ.get("CORPUS_ROOT", os.path.join(repo, "corpus", "cuda-samples"))
)
plugin = os.environ.get("PLUGIN", os.path.join(repo, "build", "lib", "CudaTidyModule.so"))
clang_tidy = os.environ.get("CLANG_TIDY", "/usr/lib/llvm-22/bin/clang-tidy")
rounds = int(os.environ.get("ROUNDS", "3"))
warmup = os.environ.get("WARMUP", "1") != "0"

# clang-tidy refuses to run with no check enabled ("no checks enabled"), so a
# check that costs next to nothing stands in for "no checks" in the baseline.
BASELINE = "-*,misc-unused-alias-decls"
CONFIGURATIONS = {"a": BASELINE, "b": BASELINE + ",cuda-*"}


def fail(message):
    sys.exit(f"bench: {message}")


if not os.path.isdir(corpus_root):
    fail(f"no corpus at {corpus_root}: see docs/corpus-cuda-samples.md to set it up")
if not os.path.isfile(plugin):
    fail(f"no plugin at {plugin}: build it first (build/lib/CudaTidyModule.so)")

if len(sys.argv) > 2:
    files = sys.argv[2:]
else:
    with open(os.path.join(repo, "bench", "files.txt")) as listing:
        files = [
            line.strip()
            for line in listing
            if line.strip() and not line.lstrip().startswith("#")
        ]
files = [os.path.realpath(os.path.join(corpus_root, f)) for f in files]
missing = [f for f in files if not os.path.isfile(f)]
if missing:
    fail("missing files:\n  " + "\n  ".join(missing))

database = tempfile.mkdtemp(prefix="cuda-tidy-bench-")
atexit.register(shutil.rmtree, database, ignore_errors=True)
# Time a copy of the plugin: a rebuild during the run cannot change it.
plugin_copy = os.path.join(database, os.path.basename(plugin))
shutil.copyfile(plugin, plugin_copy)
subprocess.run(
    [
        sys.executable,
        os.path.join(repo, "tools", "corpus", "make-compile-db.py"),
        "--standalone",
        "-o",
        database,
        *shlex.split(os.environ.get("DB_ARGS", "")),
        corpus_root,
    ],
    check=True,
    stdout=subprocess.DEVNULL,
)

base_command = [clang_tidy, "--load=" + plugin_copy, "-p", database]


# The checks print their slowest per-function analysis when this is set.
child_env = dict(os.environ, CUDA_TIDY_TIMING="1")
slowest = {}  # check -> (seconds, function, file)


def cpu_seconds(checks, path):
    """User+system CPU time of one clang-tidy run, and whether it was clean."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        base_command + ["--checks=" + checks, path],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=child_env,
    )
    for line in run.stderr.splitlines():
        # "cuda-bank-conflict: slowest 'kernel' took 0.012 s"
        if ": slowest '" in line and line.endswith(" s"):
            check, rest = line.split(": slowest '", 1)
            name, took = rest.rsplit("' took ", 1)
            seconds_taken = float(took[:-2])
            if seconds_taken > slowest.get(check, (-1,))[0]:
                slowest[check] = (seconds_taken, name, path)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    clean = run.returncode == 0 and "[clang-diagnostic-error]" not in run.stdout
    return seconds, clean


listed = subprocess.run(
    base_command + ["--checks=" + CONFIGURATIONS["b"], "--list-checks"],
    capture_output=True,
    text=True,
    check=True,
).stdout.split()
cuda_checks = [c for c in listed if c.startswith("cuda-")]

cpu_model = platform.processor() or platform.machine()
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_model = next(
            l.split(":", 1)[1].strip() for l in cpuinfo if l.startswith("model name")
        )
except (OSError, StopIteration):
    pass
version = subprocess.run([clang_tidy, "--version"], capture_output=True, text=True).stdout
version = next((l.strip() for l in version.splitlines() if "version" in l), "?")

print(f"date:      {time.strftime('%Y-%m-%d %H:%M %Z')}")
print(f"machine:   {platform.node()}, {cpu_model}, {os.cpu_count()} CPUs")
print(f"tool:      {clang_tidy} ({version}) --load={plugin}")
print(f"files:     {len(files)} under {corpus_root}, {rounds} rounds"
      f"{'' if warmup else ', no untimed first run'}")
print(f"(a) baseline: --checks={CONFIGURATIONS['a']}")
print("    (misc-unused-alias-decls stands in for 'no checks': clang-tidy does")
print("    not parse anything when no check is enabled)")
print(f"(b) --checks={CONFIGURATIONS['b']}: {', '.join(cuda_checks) or 'NO cuda-* CHECK'}")
print("time: user+sys CPU seconds of clang-tidy; per file the median of the rounds")
print()

# One untimed run per file first: the first read of the toolkit's headers
# from disk would otherwise count against whichever configuration runs first.
for path in files if warmup else []:
    cpu_seconds(CONFIGURATIONS["a"], path)

samples = {(f, c): [] for f in files for c in CONFIGURATIONS}
unclean = set()
for round_index in range(rounds):
    for file_index, path in enumerate(files):
        # Alternate which configuration runs first, so that neither profits
        # from the page cache warmed by the other.
        order = ["a", "b"] if (round_index + file_index) % 2 == 0 else ["b", "a"]
        for name in order:
            seconds, clean = cpu_seconds(CONFIGURATIONS[name], path)
            samples[(path, name)].append(seconds)
            if not clean:
                unclean.add((path, name))

totals = {c: 0.0 for c in CONFIGURATIONS}
print(f"{'a (s)':>8} {'b (s)':>8} {'b/a':>6}  file")
for path in files:
    median = {c: statistics.median(samples[(path, c)]) for c in CONFIGURATIONS}
    for c in CONFIGURATIONS:
        totals[c] += median[c]
    ratio = median["b"] / median["a"] if median["a"] else float("nan")
    mark = "  (errors)" if any((path, c) in unclean for c in CONFIGURATIONS) else ""
    print(
        f"{median['a']:8.2f} {median['b']:8.2f} {ratio:6.3f}  "
        f"{os.path.relpath(path, corpus_root)}{mark}"
    )
print()
print(f"total (a) baseline:  {totals['a']:.2f} s CPU")
print(f"total (b) + cuda-*:  {totals['b']:.2f} s CPU")
print(f"ratio b/a: {totals['b'] / totals['a']:.3f}")

# The difference of two totals is at the mercy of the machine's noise (on a
# shared VM the same file's two medians can differ by 20% with nothing
# changed). The checks' own time, measured inside one process by
# clang-tidy's --enable-check-profile, is not: one more run of (b) per file
# with the profile gives the share of the process's CPU time the cuda-*
# checks take, and the ratio it implies, (b) / ((b) - checks).
PROFILE_LINE = re.compile(
    r"^\s*([\d.]+) \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)\s+([\d.]+) "
    r"\(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)\s+(cuda-\S+)\s*$")
profiled_process = 0.0
profiled_checks = 0.0
for path in files:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        base_command + ["--checks=" + CONFIGURATIONS["b"], "--enable-check-profile", path],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=child_env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    profiled_process += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for line in (run.stdout + run.stderr).splitlines():
        match = PROFILE_LINE.match(line)
        if match:
            profiled_checks += float(match.group(3))
print()
print(f"in-process: cuda-* checks {profiled_checks:.2f} s of {profiled_process:.2f} s CPU "
      f"(one profiled run of (b) per file)")
print(f"implied ratio b/a: {profiled_process / (profiled_process - profiled_checks):.3f}")
print()
print("slowest function analysed, per check (processor seconds of that analysis):")
for check in sorted(slowest):
    seconds_taken, name, path = slowest[check]
    print(f"  {check}: {seconds_taken:.3f} s for '{name}' in "
          f"{os.path.relpath(path, corpus_root)}")
if unclean:
    print(f"warning: {len(unclean)} runs reported errors or failed; see '(errors)' above")
PYTHON
