#!/usr/bin/env python3
"""Runs cuda-tidy's four checks over generated programs and judges the run.

    tidy_run.py --seeds 0:300 --work DIR [--headers stub|toolkit]
                [--passes device,host] [--repeat 2] [-j 2] [--batch 40]
                [--budget SECONDS] [--verdicts FILE]

Generates the programs (gen.py) into DIR, runs clang-tidy with the plugin on
them, several files per invocation (one process parses one file after the
other, which saves starting clang-tidy and loading the plugin for each), and
checks three things, each of which makes it exit 1:

- no crash: every invocation exits 0 or 1 (1 is what clang-tidy returns for
  a compile error, which is also a failure here: every generated program must
  parse) and prints no stack dump; a batch that crashes is rerun file by file
  to name the program;
- determinism: the second run's output is byte-identical to the first's, per
  file and per pass;
- time: a batch that runs longer than --budget seconds per file is rerun
  file by file, and a file over the budget alone fails.

Verdicts against the planted labels (the `expect` of each program's header)
are reported, never a failure: a disagreement is for triage (see
tools/fuzz/README.md). --verdicts writes one row per program and check
(seed, shape, plant, check, expected, verdict, lines) from the device pass,
the pass whose verdict `cuda-tidy` gives for a .cu file; the host pass must
parse and not crash, and a warning it gives is listed as well.

--headers stub parses against the stub CUDA install in test/Inputs (about
twenty times faster: the lit test uses it); toolkit uses the real toolkit
with the flags build/bin/cuda-tidy adds (what verdicts.sh uses).
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

WARNING = re.compile(r"^(.*?):(\d+):(\d+): warning: (.*) \[(cuda-[a-z-]+)\]$")
ERROR = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")
CRASH_SIGNS = ("PLEASE submit a bug report", "Stack dump:",
               "ERROR: AddressSanitizer", "runtime error:", "LLVM ERROR")


def read_header(path):
    with open(path) as f:
        first = f.readline()
    assert first.startswith("// FUZZ: "), path
    return json.loads(first[len("// FUZZ: "):])


def tidy_command(args, files, cuda_pass):
    if args.headers == "stub":
        inputs = os.path.join(ROOT, "test", "Inputs")
        compile_args = ["-nocudainc", "-nocudalib",
                        "--cuda-path=" + os.path.join(inputs, "CUDA", "usr",
                                                      "local", "cuda"),
                        "-isystem", os.path.join(inputs, "include")]
        prefix = [args.clang_tidy, "--load=" + args.plugin,
                  "--checks=-*,cuda-*"]
    else:
        compile_args = []
        prefix = [args.cuda_tidy, "--checks=-*,cuda-*"]
    return prefix + ["--quiet"] + files + [
        "--", "--cuda-%s-only" % cuda_pass, "-std=c++17"] + compile_args


class Outcome:
    def __init__(self):
        self.text = collections.defaultdict(list)  # file -> output lines
        self.problems = []                            # (file or None, what)
        self.seconds = 0.0


def run_batch(args, files, cuda_pass):
    """Runs one clang-tidy over files; returns an Outcome. Output lines are
    attributed to the file they name; the others (summaries) are dropped."""
    out = Outcome()
    start = time.monotonic()
    limit = args.budget * len(files)
    try:
        proc = subprocess.run(tidy_command(args, files, cuda_pass),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=limit, env=dict(os.environ,
                                                      CLANG_NO_DEFAULT_CONFIG="1"))
        status, text = proc.returncode, proc.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        status, text = None, ""
    out.seconds = time.monotonic() - start
    if status is None:
        out.problems.append((None, "timeout: over %.0f s for %d files" %
                             (limit, len(files))))
        return out
    crashed = status not in (0, 1) or any(s in text for s in CRASH_SIGNS)
    if crashed:
        out.problems.append((None, "crash: exit %s" % status))
    names = {os.path.abspath(f): f for f in files}
    for line in text.splitlines():
        m = WARNING.match(line) or ERROR.match(line)
        if m and os.path.abspath(m.group(1)) in names:
            out.text[names[os.path.abspath(m.group(1))]].append(line)
            if " error: " in line:
                out.problems.append((names[os.path.abspath(m.group(1))],
                                     "does not parse: " + line))
    return out


def run_files(args, files, cuda_pass):
    """Runs files in batches, in parallel; reruns a batch with a crash or a
    timeout file by file so that the problem names its program."""
    batches = [files[i:i + args.batch] for i in range(0, len(files),
                                                       args.batch)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda b: (b, run_batch(args, b, cuda_pass)),
                                batches))
    merged = Outcome()
    for batch, outcome in results:
        merged.seconds += outcome.seconds
        if any(f is None for f, _ in outcome.problems) and len(batch) > 1:
            with ThreadPoolExecutor(args.jobs) as pool:
                singles = list(pool.map(
                    lambda f: (f, run_batch(args, [f], cuda_pass)), batch))
            for f, single in singles:
                merged.text[f] = single.text[f]
                merged.problems += [(f, what) for _, what in single.problems]
            continue
        for f in batch:
            merged.text[f] = outcome.text[f]
        merged.problems += [(f or batch[0], what)
                            for f, what in outcome.problems]
    return merged


def warnings_by_check(lines):
    found = collections.defaultdict(list)
    for line in lines:
        m = WARNING.match(line)
        if m:
            found[m.group(5)].append(int(m.group(2)))
    return found


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", required=True, help="A:B, seeds A to B-1")
    parser.add_argument("--work", required=True, help="folder for programs")
    parser.add_argument("--headers", choices=["stub", "toolkit"],
                        default="stub")
    parser.add_argument("--passes", default="device,host")
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs to compare for determinism")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=40,
                        help="files per clang-tidy invocation")
    parser.add_argument("--budget", type=float, default=10.0,
                        help="seconds per file before it counts as a hang")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--clang-tidy",
                        default="/usr/lib/llvm-22/bin/clang-tidy")
    parser.add_argument("--plugin", help="default: BUILD/lib/CudaTidyModule.so")
    parser.add_argument("--cuda-tidy", help="default: BUILD/bin/cuda-tidy")
    parser.add_argument("--verdicts", help="write the verdicts here (TSV)")
    parser.add_argument("--list-disagreements", action="store_true")
    args = parser.parse_args()
    args.plugin = args.plugin or os.path.join(args.build, "lib",
                                              "CudaTidyModule.so")
    args.cuda_tidy = args.cuda_tidy or os.path.join(args.build, "bin",
                                                    "cuda-tidy")

    first, last = (int(x) for x in args.seeds.split(":"))
    os.makedirs(args.work, exist_ok=True)
    files = []
    for seed in range(first, last):
        path = os.path.join(args.work, "fz%d.cu" % seed)
        with open(path, "w") as f:
            f.write(gen.generate(seed))
        files.append(path)

    failures = []
    runs = {}
    timing = {}
    for cuda_pass in args.passes.split(","):
        outcomes = [run_files(args, files, cuda_pass)
                    for _ in range(args.repeat)]
        runs[cuda_pass] = outcomes[0]
        timing[cuda_pass] = [o.seconds for o in outcomes]
        for outcome in outcomes:
            for f, what in outcome.problems:
                failures.append("%s (%s pass): %s" % (f, cuda_pass, what))
        for other in outcomes[1:]:
            for f in files:
                if outcomes[0].text[f] != other.text[f]:
                    failures.append("%s (%s pass): output differs between "
                                    "runs" % (f, cuda_pass))

    rows = []
    agree = collections.Counter()
    disagreements = []
    host_warnings = []
    for f in files:
        header = read_header(f)
        device = warnings_by_check(runs.get("device", Outcome()).text[f])
        host = warnings_by_check(runs.get("host", Outcome()).text[f])
        for check in gen.CHECKS:
            expected = header["expect"][check]
            verdict = "warn" if device.get(check) else "silent"
            lines = ",".join(map(str, sorted(set(device.get(check, [])))))
            rows.append([str(header["seed"]), header["shape"],
                         header["plant"], check, expected, verdict,
                         lines or "-"])
            agree[(check, expected, verdict)] += 1
            if expected not in (verdict, "either"):
                disagreements.append("seed %d (%s, %s): %s expected %s, "
                                     "got %s %s" % (
                                         header["seed"], header["shape"],
                                         header["plant"], check, expected,
                                         verdict, lines))
            if "host" in runs and "device" in runs and (
                    sorted(set(host.get(check, []))) !=
                    sorted(set(device.get(check, [])))):
                host_warnings.append("seed %d: %s: host pass warns at %s, "
                                     "device pass at %s" % (
                                         header["seed"], check,
                                         sorted(set(host.get(check, []))),
                                         sorted(set(device.get(check, [])))))

    if args.verdicts:
        with open(args.verdicts, "w") as f:
            f.write("seed\tshape\tplant\tcheck\texpected\tverdict\tlines\n")
            for row in rows:
                f.write("\t".join(row) + "\n")

    n = len(files)
    print("programs: %d (seeds %d:%d), headers: %s" % (n, first, last,
                                                       args.headers))
    for cuda_pass, seconds in timing.items():
        print("%s pass: %s s of clang-tidy time over %d runs (%.3f s a file)"
              % (cuda_pass, " + ".join("%.1f" % s for s in seconds),
                 len(seconds), sum(seconds) / max(1, n * len(seconds))))
    print("verdicts against the plants (check: expected -> verdict: count):")
    for check in gen.CHECKS:
        cells = ["%s->%s: %d" % (e, v, agree[(check, e, v)])
                 for e in ("warn", "silent", "either")
                 for v in ("warn", "silent") if agree[(check, e, v)]]
        print("  %s: %s" % (check, ", ".join(cells)))
    total = sum(agree.values())
    same = sum(c for (_, e, v), c in agree.items() if e in (v, "either"))
    print("agreement with the plants: %d of %d (%.1f%%); disagreements are "
          "for triage, not failures" % (same, total, 100.0 * same / total))
    if args.list_disagreements:
        for line in disagreements + host_warnings:
            print("  " + line)
    if failures:
        print("FAILURES (%d):" % len(failures))
        for line in failures:
            print("  " + line)
        return 1
    print("no crash, no parse error, no timeout, deterministic")
    return 0


if __name__ == "__main__":
    sys.exit(main())
