#!/usr/bin/env python3
"""Labels generated programs with what a GPU's tools show (run by gpu-oracle.sh).

    oracle.py --seeds 0:320 --out DIR [-j 16] [--ncu-jobs 3]
              [--deadline SECONDS] [--work DIR]

Generates the programs (gen.py), builds them in parallel with
`nvcc -arch=sm_90 -lineinfo`, and runs each under the tools of its plan:

- `./prog` once under `timeout 10`: `hang` (exit 124) and `result` (the CPU
  reference check in main) are judged from that one run;
- compute-sanitizer synccheck and racecheck (every program), memcheck (the
  programs with an `extern __shared__` pool: the only memory the bounds check
  is about);
- ncu on the programs whose header names a kernel and an op for it (the
  transpose and matrix-product shapes: one shared load or two shared stores
  of interest a kernel), for the bank-conflict label.

The tools are judged by runtime-tests/runtime_suite.py, so a finding means
here what it means in runtime-tests/RESULTS.md. Each check's label is then
derived from the tools its program's header names for it (`oracle`):
`fault` when one of them shows a fault; `clean` when all ran and showed
none; `error` otherwise (a build failure, a sanitizer that hung, a run the
deadline cut). A sanitizer that found nothing in a program whose result is
wrong counts as having found nothing; the wrong result is in the `result`
column of tools.tsv for the comparison to point out. Bank conflicts: `fault`
when the op's measured wavefronts per instruction are at least twice the
ideal (BANK_FAULT_RATIO: the check reports from 4-way on, and a kernel's
second, conflict-free access of the same op can halve the ratio; no clean
program of the generator measures above 1.5).

Writes DIR/labels.tsv (seed, shape, plant, check, label, evidence),
DIR/tools.tsv (seed, tool, verdict, detail, seconds), DIR/summary.md and
DIR/fuzz-logs.tar.gz (every command and its output, per program).
"""

import argparse
import json
import os
import shlex
import sys
import tarfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "runtime-tests"))
import gen  # noqa: E402
import runtime_suite as suite  # noqa: E402

SANITIZER_SECONDS = 60
BUILD_SECONDS = 180
BANK_FAULT_RATIO = 2.0


class Clock:
    def __init__(self, deadline):
        self.start = time.monotonic()
        self.deadline = deadline

    def left(self):
        return self.deadline - (time.monotonic() - self.start)

    def elapsed(self):
        return time.monotonic() - self.start


def build(work, seed, clock):
    src = os.path.join(work, "fz%d.cu" % seed)
    exe = os.path.join(work, "fz%d" % seed)
    if clock.left() < 30:
        return None, "not built: deadline", 0.0
    start = time.monotonic()
    cmd = [suite.nvcc()] + suite.NVCC_ARGS + ["-o", exe, src]
    status, out = suite.run(cmd, BUILD_SECONDS)
    log = "$ %s\n%s[exit %s]\n" % (" ".join(map(shlex.quote, cmd)), out,
                                   status)
    return (exe if status == 0 else None), log, time.monotonic() - start


def run_tool(tool, exe, header, clock):
    """(verdict, detail, log, seconds) of one tool on one program."""
    if clock.left() < 15:
        return "error", "not run: deadline", "", 0.0
    start = time.monotonic()
    if tool == "plain":
        cmd = ["timeout", "--kill-after=5", str(suite.HANG_SECONDS), exe]
        status, out = suite.run(cmd, suite.HANG_SECONDS + 30)
        log = "$ %s\n%s[exit %s]\n" % (" ".join(cmd), out, status)
        return ("plain", (status, out), log, time.monotonic() - start)
    if tool == "ncu":
        args = dict(header["ncu"], wavefronts="1")
        args = {k: str(v) for k, v in args.items()}
        verdict = suite.run_runtime("ncu", exe, args=args)
        if verdict.value is not None:
            ratio = verdict.value / float(header["ncu"]["ideal"])
            verdict.verdict = "fault" if ratio >= BANK_FAULT_RATIO else "clean"
            verdict.detail = "%.2f x ideal: %s" % (ratio, verdict.detail)
    else:
        verdict = suite.run_runtime(tool, exe, sanitizer_timeout=min(
            SANITIZER_SECONDS, max(10, int(clock.left()))))
    return (verdict.verdict, verdict.detail, verdict.log,
            time.monotonic() - start)


def plain_verdicts(status, out):
    """(hang, result) verdicts of one plain run. A run that ends, whatever
    its status (a wrong result exits 1), did not hang."""
    status = None if status in (124, 137) else status
    hang = suite.judge_hang(status, out)
    if hang.verdict == "error":
        hang = suite.Verdict("clean", "finished, exit %s" % status)
    result = suite.judge_result(status, out)
    return (hang.verdict, hang.detail), (result.verdict, result.detail)


def clip(log, keep=8000):
    """A log's head and tail: a racecheck report can run to megabytes, and
    the tarball has to come back from the device machine."""
    if len(log) <= 2 * keep:
        return log
    return "%s\n[... %d characters left out ...]\n%s" % (
        log[:keep], len(log) - 2 * keep, log[-keep:])


def label(check, header, verdicts):
    tools = header["oracle"][check]
    if not tools:
        return "n/a", "no oracle for this check on this program"
    seen = []
    complete = True
    for tool in tools:
        verdict, detail = verdicts.get(tool, ("error", "not run"))
        if verdict == "fault":
            return "fault", "%s: %s" % (tool, detail)
        if verdict == "error" and "the result is wrong" in detail \
                and tool in suite.SANITIZER_TOOLS:
            verdict = "clean"
        if verdict != "clean":
            complete = False
        seen.append("%s: %s" % (tool, detail) if verdict != "clean"
                    else tool + " clean")
    return ("clean" if complete else "error"), "; ".join(seen)


def self_test():
    """Labels two generated programs from made-up tool verdicts (the lit
    test test/fuzz/oracle-label.test reads this)."""
    verdicts = {
        "synccheck": ("clean", "ERROR SUMMARY: 0 errors"),
        "hang": ("clean", "finished, exit 0"),
        "racecheck": ("fault", "1 × Error: Race reported"),
        "result": ("fault", "3 of 64 values differ from the CPU reference"),
        "memcheck": ("error", "no memcheck finding, but the result is wrong"),
    }
    print("plain run, wrong result: hang %s, result %s" % plain_verdicts(
        1, "3 of 64 values differ from the CPU reference\n"))
    print("plain run, timeout: hang %s, result %s" % plain_verdicts(124, ""))
    for seed in (7, 1):
        header = json.loads(gen.generate(seed).split("\n", 1)[0]
                            [len("// FUZZ: "):])
        for check in gen.CHECKS:
            lab, why = label(check, header, verdicts)
            print("seed %d %s %s: %s%s" % (
                seed, header["plant"], check, lab,
                " (%s)" % why if lab in ("fault", "error") else ""))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", help="A:B, seeds A to B-1")
    parser.add_argument("--out", help="folder for the results")
    parser.add_argument("--work", default=None)
    parser.add_argument("-j", "--jobs", type=int, default=16)
    parser.add_argument("--ncu-jobs", type=int, default=4,
                        help="ncu runs at once (ncu profiles one kernel at "
                        "a time on a GPU)")
    parser.add_argument("--deadline", type=float, default=480,
                        help="seconds after which nothing new starts")
    parser.add_argument("--self-test", action="store_true",
                        help="label two programs from made-up verdicts")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.seeds or not args.out:
        parser.error("--seeds and --out are required")
    clock = Clock(args.deadline)
    first, last = (int(x) for x in args.seeds.split(":"))
    seeds = list(range(first, last))
    work = args.work or os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    headers = {}
    for seed in seeds:
        text = gen.generate(seed)
        headers[seed] = json.loads(text.split("\n", 1)[0][len("// FUZZ: "):])
        with open(os.path.join(work, "fz%d.cu" % seed), "w") as f:
            f.write(text)
        # cuda-dynamic-shared-bounds is about `extern __shared__` pools only:
        # memcheck on a program without one would label nothing the check
        # claims, and it is the costliest run to skip (the first H200 run ran
        # out of its 480 s with memcheck on every program).
        if headers[seed].get("smem") != "dynamic":
            headers[seed]["oracle"]["cuda-dynamic-shared-bounds"] = []

    logs = {seed: [] for seed in seeds}
    results = {seed: {} for seed in seeds}   # tool -> (verdict, detail)
    seconds = {seed: {} for seed in seeds}

    with ThreadPoolExecutor(args.jobs) as pool:
        built = dict(zip(seeds, pool.map(lambda s: build(work, s, clock),
                                         seeds)))
    build_time = clock.elapsed()
    tasks = []
    for seed in seeds:
        exe, log, secs = built[seed]
        logs[seed].append(log)
        seconds[seed]["build"] = secs
        if not exe:
            results[seed]["build"] = ("error", "build failed"
                                      if "deadline" not in log else log)
            continue
        tools = ["plain", "synccheck", "racecheck"]
        if headers[seed]["oracle"].get("cuda-dynamic-shared-bounds"):
            tools.append("memcheck")
        if headers[seed].get("ncu"):
            tools.append("ncu")
        for tool in tools:
            tasks.append((seed, tool, exe))

    def work_on(task):
        seed, tool, exe = task
        return task, run_tool(tool, exe, headers[seed], clock)

    # Sanitizers in one pool, ncu in its own, smaller one: both at once.
    with ThreadPoolExecutor(args.jobs) as pool, \
            ThreadPoolExecutor(args.ncu_jobs) as ncu_pool:
        futures = [(ncu_pool if t[1] == "ncu" else pool).submit(work_on, t)
                   for t in tasks]
        for future in futures:
            (seed, tool, _), (verdict, detail, log, secs) = future.result()
            logs[seed].append(clip(log))
            seconds[seed][tool] = secs
            if verdict == "plain":
                hang, result = plain_verdicts(*detail)
                results[seed]["hang"] = hang
                results[seed]["result"] = result
            else:
                results[seed][tool] = (verdict, detail)
    run_time = clock.elapsed() - build_time

    with open(os.path.join(args.out, "labels.tsv"), "w") as f:
        f.write("seed\tshape\tplant\tcheck\tlabel\tevidence\n")
        for seed in seeds:
            h = headers[seed]
            for check in gen.CHECKS:
                if "build" in results[seed]:
                    lab, why = "error", results[seed]["build"][1]
                else:
                    lab, why = label(check, h, results[seed])
                f.write("\t".join([str(seed), h["shape"], h["plant"], check,
                                   lab, why.replace("\t", " ")]) + "\n")
    with open(os.path.join(args.out, "tools.tsv"), "w") as f:
        f.write("seed\ttool\tverdict\tdetail\tseconds\n")
        for seed in seeds:
            for tool, (verdict, detail) in sorted(results[seed].items()):
                secs = seconds[seed].get("plain" if tool in ("hang", "result")
                                         else tool, 0.0)
                f.write("%d\t%s\t%s\t%s\t%.1f\n" % (
                    seed, tool, verdict, detail.replace("\t", " ")
                    .replace("\n", " ")[:400], secs))
    logdir = os.path.join(work, "logs")
    os.makedirs(logdir, exist_ok=True)
    for seed in seeds:
        with open(os.path.join(logdir, "fz%d.log" % seed), "w") as f:
            f.write("\n".join(logs[seed]))
    with tarfile.open(os.path.join(args.out, "fuzz-logs.tar.gz"), "w:gz") as t:
        t.add(logdir, arcname="fuzz-logs")

    per_tool = {}
    for seed in seeds:
        for tool, secs in seconds[seed].items():
            per_tool.setdefault(tool, []).append(secs)
    cut = sum(1 for seed in seeds for v in results[seed].values()
              if "deadline" in v[1])
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("# GPU oracle run\n\n")
        f.write("- seeds %d:%d (%d programs), -j %d, ncu -j %d\n" % (
            first, last, len(seeds), args.jobs, args.ncu_jobs))
        f.write(suite.machine_facts().rstrip("\n") + "\n")
        f.write("- wall: build %.0f s, tools %.0f s, total %.0f s\n" % (
            build_time, run_time, clock.elapsed()))
        f.write("- tool runs cut by the deadline: %d\n\n" % cut)
        f.write("| step | runs | mean s | max s | sum s |\n|---|---|---|---|---|\n")
        for tool, values in sorted(per_tool.items()):
            f.write("| %s | %d | %.1f | %.1f | %.0f |\n" % (
                tool, len(values), sum(values) / len(values), max(values),
                sum(values)))
    sys.stdout.write(open(os.path.join(args.out, "summary.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
