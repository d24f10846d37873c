#!/usr/bin/env python3
"""What the cuda checks cost in the editor: cuda-clangd against stock clangd.

For each file of bench/files.txt (cuda-samples translation units), starts a
fresh language server, sends initialize and didOpen, and times the wait for
the first publishDiagnostics of the file (wall seconds: what the user
waits), then reads the server's CPU time (user+system, the whole run) and
peak resident memory (ru_maxrss) from wait4. On a busy machine the wall
times carry the load's noise; the CPU times do not. Two servers, same compile commands:

  (a) stock clangd-22 (/usr/lib/llvm-22/bin/clangd), clang-tidy off ("-*")
  (b) build/bin/cuda-clangd, with its default cuda-* checks

Both get the database of tools/corpus/make-compile-db.py --standalone and
the same CompileFlags that cuda-clangd adds for .cu files (stock clangd
reads them from a config file written here), so (b)/(a) is the cost of the
cuda checks (and of clang-tidy's machinery) in the editor. Background and
standard-library indexing are off in both, preambles are kept in memory, so
that only the file's own analysis is timed. Each
file gets one untimed run first; then ROUNDS rounds alternate which server
runs first; per file the median is kept, and the ratio is of the totals.

    bench/clangd-bench.py [FILES...]

Environment: CORPUS_ROOT (default corpus/cuda-samples), CUDA_CLANGD,
CLANGD (stock), ROUNDS (default 3), WARMUP=0 to skip the untimed runs.
See bench/README.md.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "test", "clangd"))
import lsp_client  # noqa: E402

corpus_root = os.path.realpath(os.environ.get(
    "CORPUS_ROOT", os.path.join(REPO, "corpus", "cuda-samples")))
cuda_clangd = os.environ.get(
    "CUDA_CLANGD", os.path.join(REPO, "build", "bin", "cuda-clangd"))
stock_clangd = os.environ.get("CLANGD", "/usr/lib/llvm-22/bin/clangd")
rounds = int(os.environ.get("ROUNDS", "3"))
warm_up = os.environ.get("WARMUP", "1") != "0"
# A file whose diagnostics take longer than this (a busy machine, or a slow
# analysis) is reported as timed out and left out of the totals.
lsp_client.TIMEOUT_SECONDS = int(os.environ.get("FILE_TIMEOUT", "300"))


def fail(message):
    sys.exit("clangd-bench: " + message)


for tool in (cuda_clangd, stock_clangd):
    if not os.access(tool, os.X_OK):
        fail("cannot run %s (stock clangd: apt-get install clangd-22)" % tool)
if not os.path.isdir(corpus_root):
    fail("no corpus at %s: see docs/corpus-cuda-samples.md" % corpus_root)

if len(sys.argv) > 1:
    files = sys.argv[1:]
else:
    with open(os.path.join(REPO, "bench", "files.txt")) as listing:
        files = [line.strip() for line in listing
                 if line.strip() and not line.lstrip().startswith("#")]
files = [os.path.realpath(os.path.join(corpus_root, f)) for f in files]

work = tempfile.mkdtemp(prefix="cuda-clangd-bench-")
try:
    database = os.path.join(work, "db")
    subprocess.run([sys.executable,
                    os.path.join(REPO, "tools", "corpus", "make-compile-db.py"),
                    "--standalone", "-o", database, corpus_root],
                   check=True, stdout=subprocess.DEVNULL)

    # Stock clangd's user config: cuda-clangd's CompileFlags, no checks.
    fragment = subprocess.run([cuda_clangd, "--cuda-clangd-show-config"],
                              capture_output=True, text=True,
                              check=True).stdout
    compile_flags = fragment.split("---\n")[1]
    stock_home = os.path.join(work, "stock-config")
    os.makedirs(os.path.join(stock_home, "clangd"))
    # Neither indexes the standard library in the background while timed.
    no_stdlib_index = '---\n{"Index":{"StandardLibrary":false}}\n'
    with open(os.path.join(stock_home, "clangd", "config.yaml"), "w") as out:
        out.write("---\n" + compile_flags + no_stdlib_index +
                  '---\n{"Diagnostics":{"ClangTidy":{"Remove":["*"]}}}\n')
    cuda_home = os.path.join(work, "cuda-config")
    os.makedirs(os.path.join(cuda_home, "clangd"))
    with open(os.path.join(cuda_home, "clangd", "config.yaml"), "w") as out:
        out.write(no_stdlib_index)

    common = ["--compile-commands-dir=" + database, "--background-index=false",
              "--pch-storage=memory"]
    servers = {
        "a": ([stock_clangd] + common, stock_home),
        "b": ([cuda_clangd] + common, cuda_home),
    }

    def measure(name, path):
        """Wall seconds from didOpen to diagnostics, CPU seconds of the whole
        server run, peak RSS in MiB, and the diagnostics."""
        command, home = servers[name]
        env = dict(os.environ, XDG_CONFIG_HOME=home)
        with open(path, errors="replace") as source:
            text = source.read()
        server = lsp_client.Server(command, cwd=os.path.dirname(path), env=env)
        try:
            seconds, diagnostics = lsp_client.open_document(server, path, text)
        except SystemExit:
            server.process.kill()
            server.process.wait()
            return None
        server.request("shutdown", None)
        server.notify("exit", None)
        _, _, usage = os.wait4(server.process.pid, 0)
        server.process.returncode = 0
        return (seconds, usage.ru_utime + usage.ru_stime,
                usage.ru_maxrss / 1024.0, diagnostics)

    version = subprocess.run([stock_clangd, "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    print("date:    %s" % time.strftime("%Y-%m-%d %H:%M %Z"))
    print("machine: %d CPUs, load %.1f" % (os.cpu_count(), os.getloadavg()[0]))
    print("(a) %s (%s), clang-tidy off" % (stock_clangd, version))
    print("(b) %s, cuda-* checks" % cuda_clangd)
    print("files:   %d under %s, %d rounds" % (len(files), corpus_root, rounds))
    print("time: wall seconds from didOpen to the first publishDiagnostics; "
          "cpu: user+sys seconds of the server run; memory: peak RSS")
    print()

    timed_out = set()
    if warm_up:
        for path in files:
            if measure("a", path) is None:
                timed_out.add(path)
    samples = {(f, s): [] for f in files for s in servers}
    cpu = {(f, s): [] for f in files for s in servers}
    memory = {(f, s): 0.0 for f in files for s in servers}
    warnings = {f: 0 for f in files}
    for round_index in range(rounds):
        for file_index, path in enumerate(files):
            order = ["a", "b"] if (round_index + file_index) % 2 == 0 \
                else ["b", "a"]
            for name in order:
                if path in timed_out:
                    continue
                print("round %d, %s: %s" % (round_index + 1, name,
                                            os.path.relpath(path, corpus_root)),
                      file=sys.stderr, flush=True)
                result = measure(name, path)
                if result is None:
                    timed_out.add(path)
                    continue
                seconds, cpu_seconds, rss, diagnostics = result
                samples[(path, name)].append(seconds)
                cpu[(path, name)].append(cpu_seconds)
                memory[(path, name)] = max(memory[(path, name)], rss)
                if name == "b":
                    warnings[path] = sum(
                        1 for d in diagnostics
                        if str(d.get("code", "")).startswith("cuda-"))

    totals = {s: 0.0 for s in servers}
    cpu_totals = {s: 0.0 for s in servers}
    print("%8s %8s %6s %8s %8s %9s %9s %5s  file" % (
        "a (s)", "b (s)", "b/a", "a cpu", "b cpu", "a (MiB)", "b (MiB)",
        "cuda"))
    for path in files:
        if path in timed_out:
            print("%s  %s" % ("timed out (FILE_TIMEOUT=%d s), left out"
                              % lsp_client.TIMEOUT_SECONDS,
                              os.path.relpath(path, corpus_root)))
            continue
        median = {s: statistics.median(samples[(path, s)]) for s in servers}
        cpu_median = {s: statistics.median(cpu[(path, s)]) for s in servers}
        for s in servers:
            totals[s] += median[s]
            cpu_totals[s] += cpu_median[s]
        print("%8.2f %8.2f %6.3f %8.2f %8.2f %9.0f %9.0f %5d  %s" % (
            median["a"], median["b"], median["b"] / median["a"],
            cpu_median["a"], cpu_median["b"],
            memory[(path, "a")], memory[(path, "b")], warnings[path],
            os.path.relpath(path, corpus_root)))
    print()
    print("total (a) stock clangd: %.2f s to diagnostics, %.2f s CPU" % (
        totals["a"], cpu_totals["a"]))
    print("total (b) cuda-clangd:  %.2f s to diagnostics, %.2f s CPU" % (
        totals["b"], cpu_totals["b"]))
    print("ratio b/a: %.3f (time to diagnostics), %.3f (CPU)" % (
        totals["b"] / totals["a"], cpu_totals["b"] / cpu_totals["a"]))
    for s, label in (("a", "stock clangd"), ("b", "cuda-clangd")):
        peaks = [memory[(f, s)] for f in files if f not in timed_out]
        print("peak RSS %s: median %.0f MiB, max %.0f MiB" % (
            label, statistics.median(peaks), max(peaks)))
finally:
    shutil.rmtree(work, ignore_errors=True)
