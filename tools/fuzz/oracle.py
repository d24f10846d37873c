#!/usr/bin/env python3
"""Labels generated programs with what a GPU's tools show (run by gpu-oracle.sh).

    oracle.py --seeds 0:320 --out DIR [-j 16] [--plain-jobs 8]
              [--ncu-jobs 3] [--deadline SECONDS] [--work DIR]

Generates the programs (gen.py), builds them in parallel with
`nvcc -arch=sm_90 -lineinfo`, and runs each under the tools its labels need
(the union of its header's `oracle` lists, see tools_for):

- `./prog` under `timeout 10`, a few at a time and before any sanitizer
  starts: `hang` (exit 124) and `result` (the CPU reference check in main)
  are judged from that run; one that timed out is run again alone with 40 s
  before it is called a hang;
- compute-sanitizer synccheck and racecheck (every program but the overflow
  plants, whose other labels are n/a), memcheck (the programs with an
  `extern __shared__` pool: the only memory the bounds check is about);
- ncu on the transpose and matrix-product programs, whose header names a
  kernel and an op (one shared load or two shared stores of interest a
  kernel), for the bank-conflict label; not on their overflow plants (the
  kernel ends at the first access past the pool) nor on a program whose
  plain run hung.

The tools are judged by runtime-tests/runtime_suite.py, so a finding means
here what it means in runtime-tests/RESULTS.md. Each check's label is then
derived from the tools its program's header names for it (`oracle`):
`fault` when one of them shows a fault; `clean` when all ran and showed
none; `error` otherwise (a build failure, a sanitizer that hung, a run the
deadline cut). A sanitizer that found nothing in a program whose result is
wrong counts as having found nothing; the wrong result is in the `result`
column of tools.tsv for the comparison to point out. Bank conflicts: `fault`
when the op's measured wavefronts per instruction are more than twice the
ideal (BANK_FAULT_RATIO), whether or not the program's result is right.

Phases go in seed order, and nothing starts after the deadline, so a range
too long for the time loses whole programs at its end (summary.md counts
the programs fully labelled: no label `error`).

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
import threading
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
# A bank-conflict fault is a ratio above 2: the check reports from 4-way on
# (MinimumDegree), a second conflict-free access of the same op can halve
# the ratio (8-way: 4.5), and a 2-way conflict (exactly 2.0: a padded 16-wide
# tile read by a warp spanning two of its rows, seeds 0 and 77 of the second
# H200 run) is below what the check claims.
BANK_FAULT_RATIO = 2.0
# A plain run that timed out is run once more, on its own and with this
# longer limit, before it is called a hang: in the second H200 run 73 plain
# runs timed out at 10 s beside 20 sanitizers, and all but two of those
# programs ran to their end under compute-sanitizer.
HANG_RECHECK_SECONDS = 40
# Seconds that must be left for a tool to start: its usual time, so that a
# run started just before the deadline does not end far past it. A
# sanitizer's own timeout shrinks with the time left.
START_MARGIN = {"ncu": 40, "build": 30}
START_MARGIN_DEFAULT = 15
# ncu's time limit here (runtime_suite's is 120 s): the longest ncu run of
# the second H200 run took 61 s, four at a time beside twenty sanitizers,
# and one started just before the deadline must end well within the device
# tool's 600 s.
NCU_SECONDS = 90


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
    if clock.left() < START_MARGIN["build"]:
        return None, "not built: deadline", 0.0
    start = time.monotonic()
    cmd = [suite.nvcc()] + suite.NVCC_ARGS + ["-o", exe, src]
    status, out = suite.run(cmd, BUILD_SECONDS)
    log = "$ %s\n%s[exit %s]\n" % (" ".join(map(shlex.quote, cmd)), out,
                                   status)
    return (exe if status == 0 else None), log, time.monotonic() - start


def run_tool(tool, exe, header, clock):
    """(verdict, detail, log, seconds) of one tool on one program."""
    if clock.left() < START_MARGIN.get(tool, START_MARGIN_DEFAULT):
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
        verdict = ncu_verdict(suite.run_runtime("ncu", exe, args=args), args,
                              header)
    else:
        verdict = suite.run_runtime(tool, exe, sanitizer_timeout=min(
            SANITIZER_SECONDS, max(10, int(clock.left()))))
    return (verdict.verdict, verdict.detail, verdict.log,
            time.monotonic() - start)


def ncu_verdict(verdict, args, header):
    """The bank-conflict verdict of one ncu run. A program whose result is
    wrong (another check's plant: a race, a split barrier) exits 1 under ncu
    too, but the counters of the kernel it profiled are as valid as in a
    right run: they are judged, and the wrong result is left to the result
    column."""
    if verdict.verdict == "error" and "the result is wrong" in verdict.detail:
        rejudged = suite.judge_ncu(args, 0, verdict.log)
        if rejudged.value is not None:
            sass = verdict.detail.partition("; SASS: ")[2]
            rejudged.detail += " (the result is wrong)" + (
                "; SASS: " + sass if sass else "")
            rejudged.log = verdict.log
            verdict = rejudged
    if verdict.value is not None:
        ratio = verdict.value / float(header["ncu"]["ideal"])
        verdict.verdict = "fault" if ratio > BANK_FAULT_RATIO else "clean"
        verdict.detail = "%.2f x ideal: %s" % (ratio, verdict.detail)
    return verdict


def rerun_timed_out(exe, clock):
    """A plain run that timed out, once more on its own with
    HANG_RECHECK_SECONDS: a program that ends then was slow (starved), not
    hung, and this run's verdicts replace the first's. Without the time for
    it, the hang is left undecided (limit 0)."""
    if clock.left() < HANG_RECHECK_SECONDS + 10:
        return ("plain", (None, "", 0),
                "[timed out; not run again alone: deadline]\n", 0.0)
    start = time.monotonic()
    cmd = ["timeout", "--kill-after=5", str(HANG_RECHECK_SECONDS), exe]
    status, out = suite.run(cmd, HANG_RECHECK_SECONDS + 30)
    log = "$ %s   # timed out among others; run again alone\n%s[exit %s]\n" \
        % (" ".join(cmd), out, status)
    return ("plain", (status, out, HANG_RECHECK_SECONDS), log,
            time.monotonic() - start)


def plain_verdicts(status, out, limit=None):
    """(hang, result) verdicts of one plain run. A run that ends, whatever
    its status (a wrong result exits 1), did not hang. `limit` is set on the
    run again alone (rerun_timed_out): its first run timed out; 0 when the
    deadline left no time to run it again."""
    status = None if status in (124, 137) else status
    if limit == 0:
        return (("error", "timeout %ds among others; not run again alone: "
                 "deadline" % suite.HANG_SECONDS), ("error", "hung"))
    hang = suite.judge_hang(status, out)
    if hang.verdict == "error":
        hang = suite.Verdict("clean", "finished, exit %s" % status)
    if limit is not None:
        hang.detail = ("timeout %ds among others, and %ds alone"
                       % (suite.HANG_SECONDS, limit) if status is None else
                       "%s alone (slow: timed out at %ds among others)"
                       % (hang.detail, suite.HANG_SECONDS))
    result = suite.judge_result(status, out)
    return (hang.verdict, hang.detail), (result.verdict, result.detail)


def tools_for(header):
    """The runs a program's labels need: the plain run always (the hang and
    the result), and each other tool some check's oracle names. The
    overflow plants need no synccheck or racecheck (their other labels are
    n/a), the programs without a shared pool no memcheck, and only the
    transposes and matrix products that are not overflow plants need ncu."""
    needed = {t for tools in header["oracle"].values() for t in tools}
    return ["plain"] + [t for t in ("synccheck", "racecheck", "memcheck",
                                    "ncu") if t in needed]


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
        return "n/a", (header["not_profiled"] if check == "cuda-bank-conflict"
                       and "not_profiled" in header else
                       "no oracle for this check on this program")
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
    global HANG_RECHECK_SECONDS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", help="A:B, seeds A to B-1")
    parser.add_argument("--out", help="folder for the results")
    parser.add_argument("--work", default=None)
    parser.add_argument("-j", "--jobs", type=int, default=16)
    parser.add_argument("--plain-jobs", type=int, default=8,
                        help="plain runs at once, in their own phase before "
                        "the sanitizers")
    parser.add_argument("--ncu-jobs", type=int, default=3,
                        help="ncu runs at once (ncu profiles one kernel at "
                        "a time on a GPU)")
    parser.add_argument("--deadline", type=float, default=480,
                        help="seconds after which nothing new starts")
    parser.add_argument("--ncu-plants", default="",
                        help="comma-separated plants whose programs ncu "
                        "profiles (default: every plant); the bank-conflict "
                        "label of the others is n/a")
    parser.add_argument("--hang-seconds", type=int, default=suite.HANG_SECONDS,
                        help="a plain run's time limit")
    parser.add_argument("--recheck-seconds", type=int,
                        default=HANG_RECHECK_SECONDS,
                        help="the limit of a timed-out plain run run again "
                        "alone")
    parser.add_argument("--self-test", action="store_true",
                        help="label two programs from made-up verdicts")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.seeds or not args.out:
        parser.error("--seeds and --out are required")
    suite.HANG_SECONDS = args.hang_seconds
    suite.NCU_SECONDS = NCU_SECONDS
    HANG_RECHECK_SECONDS = args.recheck_seconds
    ncu_plants = set(filter(None, args.ncu_plants.split(",")))
    unknown = ncu_plants - set(gen.PLANT_CHECK) - {"none"}
    if unknown:
        parser.error("--ncu-plants: no plant %s" % ", ".join(sorted(unknown)))
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
        # ncu is the longest run and profiles one kernel at a time: a run
        # short of time profiles only some plants (the lead's H200 runs:
        # the bank plants and the clean programs, whose tiles are the ones
        # the other plants of the same shapes use).
        if ncu_plants and headers[seed]["plant"] not in ncu_plants and \
                headers[seed]["oracle"]["cuda-bank-conflict"]:
            headers[seed]["oracle"]["cuda-bank-conflict"] = []
            headers[seed]["not_profiled"] = "not profiled: --ncu-plants %s" \
                % args.ncu_plants

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
        for tool in tools_for(headers[seed]):
            tasks.append((seed, tool, exe))

    def work_on(task):
        """A tool's run; an exception of the oracle's own is that run's
        error, not the end of a call whose labels would all be lost."""
        seed, tool, exe = task
        try:
            return task, run_tool(tool, exe, headers[seed], clock)
        except Exception as e:  # noqa: BLE001
            return task, ("error", "oracle error: %r" % e, "", 0.0)

    # Set once a program's hang verdict is final; ncu waits for it.
    plain_done = {seed: threading.Event() for seed in seeds}

    def record(task, outcome):
        (seed, tool, _), (verdict, detail, log, secs) = task, outcome
        logs[seed].append(clip(log))
        seconds[seed][tool] = seconds[seed].get(tool, 0.0) + secs
        if verdict == "plain":
            hang, result = plain_verdicts(*detail)
            results[seed]["hang"] = hang
            results[seed]["result"] = result
            if hang[0] != "fault" or len(detail) > 2:
                plain_done[seed].set()
        else:
            results[seed][tool] = (verdict, detail)
            if tool == "plain":  # not run: deadline
                plain_done[seed].set()

    def profile(task):
        """ncu, after the program's plain run: a program that hangs would
        hang under ncu too, for NCU_SECONDS."""
        seed = task[0]
        plain_done[seed].wait()
        if results[seed].get("hang", ("",))[0] == "fault":
            return task, ("error", "not run: the program hangs", "", 0.0)
        return work_on(task)

    # Phases in seed order, so that the deadline cuts whole programs at the
    # end of the range rather than random tools. ncu has its own, smaller
    # pool from the start (it profiles one kernel at a time on the GPU and
    # is the longest run), each program's profile after its plain run.
    # First the plain runs, a few at a time with no sanitizer beside them:
    # runs starved among twenty sanitizers took their 10 s in the second
    # H200 run and were labelled hangs. Then each plain run that timed out
    # once more, alone, with a longer limit (rerun_timed_out). Then the
    # sanitizers.
    plain = [t for t in tasks if t[1] == "plain"]
    sanitizers = [t for t in tasks if t[1] in suite.SANITIZER_TOOLS]
    with ThreadPoolExecutor(args.ncu_jobs) as ncu_pool:
        ncu_futures = [ncu_pool.submit(profile, t)
                       for t in tasks if t[1] == "ncu"]
        try:
            with ThreadPoolExecutor(args.plain_jobs) as pool:
                for task, outcome in pool.map(work_on, plain):
                    record(task, outcome)
                timed_out = [t for t in plain
                             if not plain_done[t[0]].is_set()]
                for task, outcome in zip(timed_out, pool.map(
                        lambda t: rerun_timed_out(t[2], clock), timed_out)):
                    record(task, outcome)
        finally:
            for done in plain_done.values():
                done.set()
        plain_time = clock.elapsed() - build_time
        with ThreadPoolExecutor(args.jobs) as pool:
            for task, outcome in pool.map(work_on, sanitizers):
                record(task, outcome)
        for future in ncu_futures:
            record(*future.result())
    run_time = clock.elapsed() - build_time

    incomplete = set()
    with open(os.path.join(args.out, "labels.tsv"), "w") as f:
        f.write("seed\tshape\tplant\tcheck\tlabel\tevidence\n")
        for seed in seeds:
            h = headers[seed]
            for check in gen.CHECKS:
                if "build" in results[seed]:
                    lab, why = "error", results[seed]["build"][1]
                else:
                    lab, why = label(check, h, results[seed])
                if lab == "error":
                    incomplete.add(seed)
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
            if secs > 0:  # 0: not run (the deadline, a hung program)
                per_tool.setdefault(tool, []).append(secs)
    cut = sum(1 for seed in seeds for v in results[seed].values()
              if "deadline" in v[1])
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("# GPU oracle run\n\n")
        f.write("- seeds %d:%d (%d programs), plain -j %d, sanitizers -j %d, "
                "ncu -j %d%s\n" % (first, last, len(seeds), args.plain_jobs,
                                   args.jobs, args.ncu_jobs,
                                   ", ncu on plants " + args.ncu_plants
                                   if ncu_plants else ""))
        f.write(suite.machine_facts().rstrip("\n") + "\n")
        f.write("- wall: build %.0f s, plain runs %.0f s, all tools %.0f s, "
                "total %.0f s (deadline %.0f s)\n" % (
                    build_time, plain_time, run_time, clock.elapsed(),
                    args.deadline))
        f.write("- tool runs cut by the deadline: %d\n" % cut)
        f.write("- programs fully labelled (no label `error`): %d of %d%s\n"
                "\n" % (len(seeds) - len(incomplete), len(seeds),
                        "; not: " + ", ".join(map(str, sorted(incomplete)))
                        if incomplete else ""))
        f.write("| step | runs | mean s | max s | sum s |\n|---|---|---|---|---|\n")
        for tool, values in sorted(per_tool.items()):
            f.write("| %s | %d | %.1f | %.1f | %.0f |\n" % (
                tool, len(values), sum(values) / len(values), max(values),
                sum(values)))
    sys.stdout.write(open(os.path.join(args.out, "summary.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
