#!/usr/bin/env python3
"""The runtime-test suite: each check's bug patterns as small CUDA programs.

A case is a folder runtime-tests/<check>/<case>/ with two complete programs,
bad.cu (the pattern) and fixed.cu (its natural correct rewrite). Each file
states what it expects of both sides:

  static   lit lines: `// RUN: %check_clang_tidy %s <check> %t -- -- %cuda_real`
           plus one `// CHECK-MESSAGES: ... [<check>]` per expected warning;
           a file with no CHECK-MESSAGES line expects the check to be silent.
  sources  a program of several translation units (a kernel launched from
           another file) names the others in `// SOURCES: Inputs/x.cu ...`
           (relative to the case file, under its case's Inputs/, which lit
           skips); nvcc builds them together, and its RUN line is
           `// RUN: %cuda_tidy_program %s <check>`: cuda-tidy -p over a
           compile database of all of them, on the case file (static-program
           below), so that the check sees the launches in the other files.
  runtime  a header line `// RUNTIME: tool=<tool> expect=<fault|clean>`, where
           tool is one of
             racecheck, synccheck, memcheck
                       compute-sanitizer --tool <tool> --error-exitcode 1;
                       a finding of that tool is a fault;
             hang      timeout 10 ./prog; exit status 124 is a fault;
             result    ./prog, which compares its output with a CPU reference
                       and exits 1 on a mismatch: that is a fault;
             ncu       Nsight Compute counts the shared-memory wavefronts and
                       instructions of one kernel (kernel=NAME), loads or
                       stores (op=ld|st); wavefronts per instruction above the
                       ideal (ideal=N) by more than NCU_TOLERANCE is a fault
                       (a bank conflict), and the count must also be within
                       NCU_TOLERANCE of what the file expects (wavefronts=N).

This module is the one place that reads those lines and judges verdicts. lit
(runtime-tests/lit.cfg.py) imports it; the commands below are what
static-verdicts.sh, run-gpu.sh and lit's gpu tests run:

  runtime_suite.py static-verdicts [-o FILE]   run the checks here (needs the
                                               plugin), write one verdict a file
  runtime_suite.py gpu [--static-verdicts FILE] build and run every case on a
                                               GPU, print the Markdown table,
                                               exit 1 on any disagreement
  runtime_suite.py runtime FILE EXE            run one program's runtime part,
                                               exit 1 unless it meets its
                                               expectation
  runtime_suite.py static-program FILE CHECK   the static side of a program
                                               with SOURCES (its RUN line),
                                               exit 1 unless it meets its
                                               CHECK-MESSAGES lines
"""

import argparse
import concurrent.futures
import datetime
import functools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

SUITE_DIR = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(SUITE_DIR)
CUDA_PATH = "/usr/local/cuda"
LLVM_TOOLS_DIR = "/usr/lib/llvm-22/bin"

# Compile arguments for the real toolkit under clang-tidy: what the cuda-tidy
# wrapper adds (tools/cuda-tidy/CudaTidyMain.cpp says why), plus the device
# pass only, as the check analyses device code. lit's %cuda_real.
CUDA_REAL_ARGS = [
    "-Xclang", "-target-sdk-version=12.9",
    "-isystem", CUDA_PATH + "/include/cccl",
    "-Wno-unknown-cuda-version",
    "--cuda-gpu-arch=sm_90",
    "--cuda-device-only",
]
NVCC_ARGS = ["-arch=sm_90", "-lineinfo"]

SANITIZER_TOOLS = ("racecheck", "synccheck", "memcheck")
TOOLS = SANITIZER_TOOLS + ("hang", "result", "ncu")
HANG_SECONDS = 10
# A sanitizer run of a program that hangs never ends by itself; --probe runs
# every tool on every program, hanging ones too, and sets it lower.
SANITIZER_SECONDS = 120

# What each sanitizer prints at the head of a finding; anything else it
# reports (a failed API call, say) is not the tool's verdict on the kernel.
FINDING = {
    # Distributed shared memory: racecheck reports a read or write of a
    # block of the cluster "that might not have entered yet" or "might have
    # exited" as a potential invalid __shared__ access.
    "racecheck": re.compile(r"^========= (Error|Warning): Race reported"
                            r"|^========= Potential invalid __shared__ "
                            r"(read|write)"),
    "synccheck": re.compile(r"^========= Barrier error detected"
                            r"|^========= .*[Ss]ynchroni[sz]ation error"),
    "memcheck": re.compile(r"^========= (Invalid __\w+__ (read|write)"
                           r"|Out-of-range|Misaligned|Malloc/Free error"
                           r"|Hardware exception|Illegal)"),
}
SANITIZER_SUMMARY = re.compile(
    r"^========= (ERROR SUMMARY|RACECHECK SUMMARY): (\d+ (?:errors?|hazards?"
    r" displayed.*))$", re.M)
MISMATCH = "differ from the CPU reference"
RUNTIME_LINE = re.compile(r"^// RUNTIME:(.*)$", re.M)
WARNING_MARK = re.compile(
    r"^(.*)// CHECK-MESSAGES: :\[\[@LINE([+-]\d+)?\]\]:.*warning:.*\[([\w-]+)\]",
    re.M)
RUN_CHECK = re.compile(r"^// RUN: %check_clang_tidy %s ([\w-]+) (.*)$", re.M)
RUN_PROGRAM = re.compile(r"^// RUN: %cuda_tidy_program %s ([\w-]+)\s*$", re.M)
SOURCES_LINE = re.compile(r"^// SOURCES:(.*)$", re.M)
# A bad program the check does not yet warn on, with the reason: its row is
# a known miss, shown as such and counted apart, never as agreement.
KNOWN_MISS_LINE = re.compile(r"^// KNOWN-MISS:(.*)$", re.M)

# Nsight Compute (tool=ncu): the counters of shared loads and stores, as
# GPU-FACTS.md found them to work on the H200 (--clock-control none).
NCU_METRICS = {
    op: ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % op,
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % op,
         "smsp__sass_inst_executed_op_shared_%s.sum" % op)
    for op in ("ld", "st")}
NCU_FIELDS = ("kernel", "op", "wavefronts", "ideal")
# Measured and predicted wavefronts per instruction agree within 10 %.
NCU_TOLERANCE = 0.10
NCU_SECONDS = 120
# What cuda-bank-conflict's note predicts for an access: the warning says the
# degree and the kind (reading, writing, updating), the note the wavefronts.
BANK_WARNING = re.compile(
    r"^(.*):(\d+):\d+: warning: (\d+)-way bank conflict (reading|writing|"
    r"updating) .*\[cuda-bank-conflict\]$", re.M)
BANK_NOTE = re.compile(
    r"^(.*):(\d+):\d+: note: predicted ([\d.]+) wavefronts per request where "
    r"(\d+) would do", re.M)
# ... and as static_detail writes it: "38 read 32-way 32.0/1".
PREDICTION = re.compile(r"(\d+) (read|write|update) (\d+)-way ([\d.]+)/(\d+)")


@dataclass
class CaseFile:
    path: str           # absolute
    check: str          # cuda-divergent-barrier
    case: str           # split-inside-warp
    variant: str        # bad, fixed
    tool: str
    expect_runtime: str  # fault, clean
    expect_static: str   # warn, silent
    expected_lines: List[int] = field(default_factory=list)
    # The RUNTIME line's other fields (tool=ncu: kernel, op, wavefronts, ideal).
    runtime_args: Dict[str, str] = field(default_factory=dict)
    # clang-tidy arguments of the RUN line (between '%t --' and '--').
    tidy_args: List[str] = field(default_factory=list)
    # The program's other translation units (absolute), from SOURCES.
    sources: List[str] = field(default_factory=list)
    # Why the check is silent on this faulting program (KNOWN-MISS), if so.
    known_miss: str = ""

    @property
    def name(self) -> str:
        return "%s/%s" % (self.case, self.variant)

    @property
    def relpath(self) -> str:
        return os.path.relpath(self.path, SUITE_DIR)


def parse_case_file(path: str) -> CaseFile:
    with open(path) as f:
        text = f.read()
    rel = os.path.relpath(os.path.abspath(path), SUITE_DIR).split(os.sep)
    if len(rel) != 3 or not rel[2].endswith(".cu"):
        raise ValueError("%s: not at <check>/<case>/<variant>.cu" % path)
    check, case, variant = rel[0], rel[1], rel[2][:-len(".cu")]

    runtime = RUNTIME_LINE.findall(text)
    if len(runtime) != 1:
        raise ValueError("%s: needs exactly one '// RUNTIME:' line" % path)
    fields = dict(item.split("=", 1) for item in runtime[0].split())
    tool, expect = fields.get("tool"), fields.get("expect")
    if tool not in TOOLS or expect not in ("fault", "clean"):
        raise ValueError("%s: RUNTIME wants tool=%s expect=fault|clean, got %r"
                         % (path, "|".join(TOOLS), runtime[0].strip()))
    args = {k: v for k, v in fields.items() if k not in ("tool", "expect")}
    if tool == "ncu":
        missing = [f for f in NCU_FIELDS if f not in args]
        if missing or args.get("op") not in ("ld", "st"):
            raise ValueError("%s: tool=ncu wants kernel=NAME op=ld|st "
                             "wavefronts=N ideal=N, got %r"
                             % (path, runtime[0].strip()))
        try:
            float(args["wavefronts"]), float(args["ideal"])
        except ValueError:
            raise ValueError("%s: wavefronts and ideal must be numbers" % path)
    sources = [os.path.join(os.path.dirname(os.path.abspath(path)), name)
               for line in SOURCES_LINE.findall(text) for name in line.split()]
    for source in sources:
        if not os.path.isfile(source) or os.path.relpath(
                source, os.path.dirname(os.path.abspath(path))).split(
                    os.sep)[0] != "Inputs":
            raise ValueError("%s: SOURCES names %s, not a file under the "
                             "case's Inputs/" % (path, source))
    tidy_args = []
    if sources:
        # Analysed alone, the file would miss the launches in the others.
        run = RUN_PROGRAM.search(text)
        if not run or run.group(1) != check:
            raise ValueError("%s: a program with SOURCES needs '// RUN: "
                             "%%cuda_tidy_program %%s %s'" % (path, check))
    else:
        run = RUN_CHECK.search(text)
        if not run or run.group(1) != check:
            raise ValueError("%s: needs '// RUN: %%check_clang_tidy %%s %s ...'"
                             % (path, check))
        # '%t -- <clang-tidy args> -- <compile args>'
        words = shlex.split(run.group(2))
        if len(words) > 1 and words[0] == "%t" and words[1] == "--":
            rest = words[2:]
            tidy_args = rest[:rest.index("--")] if "--" in rest else rest

    lines = []
    for match in WARNING_MARK.finditer(text):
        if match.group(3) != check:
            continue
        line = text.count("\n", 0, match.start()) + 1
        lines.append(line + int(match.group(2) or 0))
    # Two warnings on one line (two CHECK-MESSAGES lines) are one line warned
    # at, as run_static counts them.
    known_miss = " ".join(m.strip() for m in KNOWN_MISS_LINE.findall(text))
    if known_miss and (lines or expect != "fault"):
        raise ValueError("%s: KNOWN-MISS is for a faulting program the check "
                         "is silent on (no CHECK-MESSAGES)" % path)
    return CaseFile(os.path.abspath(path), check, case, variant, tool, expect,
                    "warn" if lines else "silent", sorted(set(lines)), args,
                    tidy_args, sources, known_miss)


def discover(paths: Optional[List[str]] = None) -> List[CaseFile]:
    found = []
    for check in sorted(os.listdir(SUITE_DIR)):
        check_dir = os.path.join(SUITE_DIR, check)
        if not os.path.isdir(check_dir) or check.startswith("."):
            continue
        for case in sorted(os.listdir(check_dir)):
            case_dir = os.path.join(check_dir, case)
            if not os.path.isdir(case_dir):
                continue
            for name in sorted(os.listdir(case_dir)):
                if name.endswith(".cu"):
                    found.append(parse_case_file(os.path.join(case_dir, name)))
    if paths:
        wanted = [os.path.abspath(p) for p in paths]
        found = [c for c in found
                 if any(c.path == w or c.path.startswith(w + os.sep)
                        for w in wanted)]
    # bad before fixed within a case.
    order = {"bad": 0, "fixed": 1}
    found.sort(key=lambda c: (c.check, c.case, order.get(c.variant, 2),
                              c.variant))
    return found


# ----------------------------------------------------------------- tools

def find_program(name: str, *fallbacks: str) -> str:
    for candidate in (shutil.which(name),) + fallbacks:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return name  # let the call fail with a clear "not found"


def nvcc() -> str:
    return find_program("nvcc", os.path.join(CUDA_PATH, "bin", "nvcc"))


def compute_sanitizer() -> str:
    return find_program("compute-sanitizer",
                        os.path.join(CUDA_PATH, "bin", "compute-sanitizer"))


def ncu() -> str:
    return find_program("ncu", os.path.join(CUDA_PATH, "bin", "ncu"))


def cuobjdump() -> str:
    return find_program("cuobjdump", os.path.join(CUDA_PATH, "bin", "cuobjdump"))


def run(cmd: List[str], timeout: float,
        env: Optional[Dict[str, str]] = None) -> Tuple[Optional[int], str]:
    """(exit status or None on timeout, stdout and stderr together), with
    env added to the environment.

    The command runs in a process group of its own, which is killed whole on
    timeout: compute-sanitizer runs the program as its child, and a hung
    program left behind would keep spinning on the GPU.
    """
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                start_new_session=True,
                                env=dict(os.environ, **env) if env else None)
    except OSError as e:
        return 127, "%s: %s\n" % (cmd[0], e)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out.decode(errors="replace")


# ---------------------------------------------------------------- verdicts

@dataclass
class Verdict:
    verdict: str  # runtime: fault, clean, error; static: warn, silent, error,
                  # pending
    detail: str = ""
    log: str = ""
    lines: List[int] = field(default_factory=list)  # where a check warned
    # tool=ncu: measured wavefronts per shared instruction of the op.
    value: Optional[float] = None

    def cell(self) -> str:
        return "%s (%s)" % (self.verdict, self.detail) if self.detail \
            else self.verdict


def sanitizer_findings(tool: str, out: str) -> List[str]:
    """One line per distinct finding of the tool: what, where, how often.

    A finding is a header line (FINDING) and the indented lines under it,
    which name the source lines ('in bad.cu:33') and, for racecheck, the
    number of hazards it stands for ('[512 hazards]').
    """
    groups: Dict[Tuple[str, Tuple[str, ...]], List[int]] = {}
    block: List[str] = []

    def close():
        if not block:
            return
        what = re.split(r" at |\s+in\s+\S+:\d+", block[0])[0].rstrip(". ")
        text = "\n".join(block)
        where = tuple(dict.fromkeys(
            os.path.basename(m) for m in re.findall(r" in (\S+:\d+)", text)))
        hazards = re.search(r"\[(\d+) hazards?\]", text)
        count = groups.setdefault((what, where), [0, 0])
        count[0] += 1
        count[1] += int(hazards.group(1)) if hazards else 0
        block.clear()

    for line in out.splitlines():
        if FINDING[tool].match(line):
            close()
            block.append(line[len("========= "):].strip())
        elif block and line.startswith("=========  "):
            block.append(line.strip("= "))
        else:
            close()
    close()
    return ["%d × %s%s%s" % (n, what, " at " + ", ".join(where) if where else "",
                             " [%d hazards]" % hazards if hazards else "")
            for (what, where), (n, hazards) in groups.items()]


def judge_sanitizer(tool: str, status: Optional[int], out: str,
                    timeout: int) -> Verdict:
    findings = sanitizer_findings(tool, out)
    summary = "; ".join("%s: %s" % m for m in SANITIZER_SUMMARY.findall(out))
    if findings:
        return Verdict("fault", "%s; %s%s" % (
            "; ".join(findings[:2]) + ("; ..." if len(findings) > 2 else ""),
            summary, "; then hung" if status is None else ""))
    if status is None:
        return Verdict("error", "hung: no finding in %ds" % timeout)
    if status == 0 and summary:
        return Verdict("clean", summary)
    if MISMATCH in out:
        return Verdict("error", "no %s finding, but the result is wrong"
                       % tool)
    return Verdict("error", "exit %s, no %s finding%s"
                   % (status, tool, "; " + summary if summary else ""))


def judge_hang(status: Optional[int], out: str) -> Verdict:
    if status is None or status in (124, 137):
        return Verdict("fault", "timeout %ds: exit 124" % HANG_SECONDS)
    if status == 0:
        return Verdict("clean", "finished, exit 0")
    return Verdict("error", "exit %d" % status)


def judge_result(status: Optional[int], out: str) -> Verdict:
    if status is None:
        return Verdict("error", "hung")
    if status == 0:
        return Verdict("clean", "matches the CPU reference")
    if status == 1 and MISMATCH in out:
        line = next(l for l in out.splitlines() if MISMATCH in l)
        return Verdict("fault", line.replace("result check: ", ""))
    return Verdict("error", "exit %d" % status)


def parse_ncu_metrics(out: str) -> Dict[str, float]:
    """metric name -> value summed over the profiled launches.

    Reads ncu's --csv output (a header row naming "Metric Name" and "Metric
    Value", one row a launch and metric) and, failing that, its plain output
    (one '<metric> [unit] <value>' line a launch and metric). Thousands
    separators are dropped.
    """
    import csv
    names = {m for ms in NCU_METRICS.values() for m in ms}
    values: Dict[str, float] = {}
    rows = [l for l in out.splitlines() if l.startswith('"')]
    header = None
    for row in csv.reader(rows):
        if "Metric Name" in row and "Metric Value" in row:
            header = row
            continue
        if not header or len(row) != len(header):
            continue
        name = row[header.index("Metric Name")]
        value = row[header.index("Metric Value")].replace(",", "")
        if name in names:
            try:
                values[name] = values.get(name, 0.0) + float(value)
            except ValueError:
                pass
    if values:
        return values
    plain = re.compile(r"^\s*(\S+)\s+(?:\S+\s+)?([\d,]+(?:\.\d+)?)\s*$")
    for line in out.splitlines():
        m = plain.match(line)
        if m and m.group(1) in names:
            values[m.group(1)] = values.get(m.group(1), 0.0) + \
                float(m.group(2).replace(",", ""))
    return values


SASS_FUNCTION = re.compile(r"^\s*Function : (\S+)", re.M)
SASS_SHARED = re.compile(
    r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P[T0-9]+\s+)?((?:LDS|STS|LDSM|ATOMS)(?:\.[\w.]+)?)\s")


def sass_shared_ops(exe: str, kernel: str) -> Tuple[str, str]:
    """('LDS.64 ×1, STS ×1', the disassembly) for the functions whose mangled
    name holds kernel; ('', log) when cuobjdump is missing or fails."""
    status, out = run([cuobjdump(), "-sass", exe], 120)
    if status != 0:
        return "", out
    counts: Dict[str, int] = {}
    sections = SASS_FUNCTION.split(out)
    for name, body in zip(sections[1::2], sections[2::2]):
        if kernel not in name:
            continue
        for m in SASS_SHARED.finditer(body):
            op = ("@P " if m.group(1) else "") + m.group(2)
            counts[op] = counts.get(op, 0) + 1
    return ", ".join("%s ×%d" % kv for kv in sorted(counts.items())), out


def judge_ncu(args: Dict[str, str], status: Optional[int], out: str) -> Verdict:
    op, ideal = args["op"], float(args["ideal"])
    values = parse_ncu_metrics(out)
    measured = {}
    for o, (conflicts, wavefronts, insts) in NCU_METRICS.items():
        if wavefronts in values and insts in values:
            measured[o] = (values[wavefronts], values[insts],
                           values.get(conflicts))
    if status is None:
        return Verdict("error", "ncu hung")
    if status != 0:
        return Verdict("error", "exit %s%s" % (
            status, "; the result is wrong" if MISMATCH in out else ""))
    if op not in measured or not measured[op][1]:
        return Verdict("error", "no %s counters for kernel %s in ncu's output"
                       % (op, args["kernel"]))

    def describe(o):
        wf, n, conflicts = measured[o]
        return "%s %.2f wavefronts/instruction (%d / %d%s)" % (
            o, wf / n, wf, n, "; %d conflicts" % conflicts
            if conflicts is not None else "")
    value = measured[op][0] / measured[op][1]
    detail = describe(op)
    other = "st" if op == "ld" else "ld"
    if other in measured and measured[other][1]:
        detail += "; " + describe(other)
    verdict = "fault" if value > ideal * (1 + NCU_TOLERANCE) else "clean"
    return Verdict(verdict, detail, value=value)


def ncu_problems(case: "CaseFile", runtime: Verdict) -> List[str]:
    """What is wrong with a tool=ncu measurement beyond fault/clean: the
    count the file expects, within NCU_TOLERANCE."""
    if case.tool != "ncu" or runtime.value is None:
        return []
    expected = float(case.runtime_args["wavefronts"])
    if abs(runtime.value - expected) > NCU_TOLERANCE * expected:
        return ["measured %.2f wavefronts/instruction, the file expects %g"
                % (runtime.value, expected)]
    return []


def run_runtime(tool: str, exe: str,
                sanitizer_timeout: int = SANITIZER_SECONDS,
                args: Optional[Dict[str, str]] = None) -> Verdict:
    exe = os.path.abspath(exe)
    if tool == "ncu":
        args = args or {}
        if not all(f in args for f in NCU_FIELDS):
            return Verdict("error", "tool=ncu needs kernel, op, wavefronts "
                           "and ideal on the RUNTIME line")
        metrics = ",".join(NCU_METRICS["ld"] + NCU_METRICS["st"])
        # The kernel by its name, whether ncu's name for it carries the
        # parameter list or not.
        base = [ncu(), "--clock-control", "none", "--kernel-name",
                "regex:^%s($|[(<])" % re.escape(args["kernel"]),
                "--metrics", metrics]
        cmd = base + ["--csv", exe]
        status, out = run(cmd, NCU_SECONDS)
        if status == 0 and not parse_ncu_metrics(out):
            # Not the CSV expected: the plain output, parsed line by line.
            cmd = base + [exe]
            status, out = run(cmd, NCU_SECONDS)
        verdict = judge_ncu(args, status, out)
        ops, sass = sass_shared_ops(exe, args["kernel"])
        if ops:
            verdict.detail += "; SASS: " + ops
        verdict.log = "$ %s\n%s[exit %s]\n" % (
            " ".join(map(shlex.quote, cmd)), out, status)
        verdict.log += "$ cuobjdump -sass %s (shared-memory instructions of " \
            "%s)\n%s\n" % (exe, args["kernel"], ops or sass[-2000:])
        return verdict
    if tool in SANITIZER_TOOLS:
        cmd = [compute_sanitizer(), "--tool", tool, "--error-exitcode", "1",
               exe]
        status, out = run(cmd, sanitizer_timeout)
        verdict = judge_sanitizer(tool, status, out, sanitizer_timeout)
    elif tool == "hang":
        cmd = ["timeout", "--kill-after=5", str(HANG_SECONDS), exe]
        status, out = run(cmd, HANG_SECONDS + 30)
        verdict = judge_hang(status, out)
    else:
        cmd = ["timeout", "--kill-after=5", str(HANG_SECONDS), exe]
        status, out = run(cmd, HANG_SECONDS + 30)
        verdict = judge_result(None if status in (124, 137) else status, out)
    verdict.log = "$ %s\n%s[exit %s]\n" % (" ".join(map(shlex.quote, cmd)),
                                          out, status)
    return verdict


def build(case: CaseFile, out_dir: str) -> Tuple[Optional[str], str]:
    exe = os.path.join(out_dir, case.check, case.case, case.variant)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = [nvcc()] + NVCC_ARGS + ["-o", exe, case.path] + case.sources
    status, out = run(cmd, 300)
    log = "$ %s\n%s[exit %s]\n" % (" ".join(map(shlex.quote, cmd)), out,
                                  status)
    return (exe if status == 0 else None), log


# ------------------------------------------------------------- static side

def default_plugin() -> str:
    return os.path.join(SOURCE_ROOT, "build", "lib", "CudaTidyModule.so")


def default_cuda_tidy() -> str:
    return os.path.join(SOURCE_ROOT, "build", "bin", "cuda-tidy")


@functools.lru_cache(maxsize=None)
def wrapper_tidy_args(cuda_tidy: Optional[str] = None) -> List[str]:
    """The clang-tidy arguments the cuda-tidy wrapper adds beside
    CUDA_REAL_ARGS: the toolkit's version macros with their compat header,
    and the overlay that lets `__shared__ cuda::barrier` parse. Asked of the
    wrapper itself (--cuda-tidy-show-command), so that the static side sees
    the toolkit as a user's cuda-tidy does; none when it is not built."""
    exe = cuda_tidy or default_cuda_tidy()
    if not os.access(exe, os.X_OK):
        return []
    try:
        out = subprocess.run([exe, "--cuda-tidy-show-command", "x.cu", "--"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             timeout=60).stdout.decode(errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return []
    lines = out.strip().splitlines()
    words = shlex.split(lines[-1]) if lines else []
    return [w for w in words
            if w.startswith("--vfsoverlay=") or
            w.startswith("--extra-arg=-D__CUDA_TIDY_") or
            (w.startswith("--extra-arg=-include") and "compat" in w)]


def default_clang_tidy() -> str:
    return find_program(os.path.join(LLVM_TOOLS_DIR, "clang-tidy"),
                        shutil.which("clang-tidy-22") or "")


def bank_predictions(path: str, out: str) -> str:
    """cuda-bank-conflict's predictions in path, as '38 read 32-way 32.0/1'
    (line, kind, degree, predicted wavefronts / ideal), ', '-separated."""
    notes = {(os.path.abspath(f), int(l)): (w, i)
             for f, l, w, i in BANK_NOTE.findall(out)}
    found = []
    for f, line, degree, kind in BANK_WARNING.findall(out):
        note = notes.get((os.path.abspath(f), int(line)))
        if os.path.abspath(f) == path and note:
            found.append("%s %s %s-way %s/%s" % (
                line, {"reading": "read", "writing": "write",
                       "updating": "update"}[kind], degree, note[0], note[1]))
    return ", ".join(found)


def program_database(case: CaseFile, folder: str) -> None:
    """Writes folder/compile_commands.json for the case file and its
    SOURCES, compiled as build() compiles them (nvcc's flags; cuda-tidy
    rewrites an nvcc database into Clang's spelling)."""
    entries = [{"directory": folder, "file": source,
                "arguments": [nvcc()] + NVCC_ARGS + [
                    "-c", source, "-o",
                    os.path.join(folder, "%d.o" % number)]}
               for number, source in enumerate([case.path] + case.sources)]
    with open(os.path.join(folder, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def run_static(case: CaseFile, clang_tidy: str, plugin: str,
               cuda_tidy: Optional[str] = None) -> Verdict:
    if case.sources:
        # cuda-tidy -p: its pre-pass reads the launches in the other files.
        with tempfile.TemporaryDirectory(prefix="cuda-tidy-program-") as db:
            program_database(case, db)
            cmd = [cuda_tidy or default_cuda_tidy(), "-p", db,
                   "--checks=-*," + case.check, "--config={}", case.path]
            status, out = run(cmd, 300, {"CUDA_TIDY_PLUGIN": plugin})
        return static_verdict(case, cmd, status, out)
    # The RUN line's clang-tidy arguments (a -config with options, say), else
    # --config={} so that no .clang-tidy file takes part.
    tidy_args = case.tidy_args if any(
        a.startswith(("-config", "--config")) for a in case.tidy_args) \
        else case.tidy_args + ["--config={}"]
    cmd = [clang_tidy, "--load=" + plugin, "-checks=-*," + case.check] + \
        wrapper_tidy_args(cuda_tidy) + tidy_args + [case.path, "--"] + \
        CUDA_REAL_ARGS
    status, out = run(cmd, 300)
    return static_verdict(case, cmd, status, out)


def static_verdict(case: CaseFile, cmd: List[str], status: Optional[int],
                   out: str) -> Verdict:
    log = "$ %s\n%s[exit %s]\n" % (" ".join(map(shlex.quote, cmd)), out,
                                  status)
    mark = re.compile(r"^%s:(\d+):\d+: warning: .*\[%s\]$"
                      % (re.escape(case.path), re.escape(case.check)), re.M)
    lines = sorted({int(m) for m in mark.findall(out)})
    if status != 0 or re.search(r"^[^ ].*: error: ", out, re.M):
        return Verdict("error", "%s exit %s" % (os.path.basename(cmd[0]),
                                                status), log)
    if lines:
        detail = "line%s %s" % ("s" if len(lines) > 1 else "",
                                ", ".join(map(str, lines)))
        predicted = bank_predictions(case.path, out)
        if predicted:
            detail += "; predicted: " + predicted
        return Verdict("warn", detail, log, lines)
    return Verdict("silent", "", log)


def read_static_verdicts(path: str) -> Dict[str, Verdict]:
    """check/case/variant -> Verdict, from a static-verdicts file."""
    verdicts = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            key, verdict, detail = (line.rstrip("\n").split("\t") + ["", ""])[:3]
            verdicts[key] = Verdict(verdict, detail)
    return verdicts


def static_key(case: CaseFile) -> str:
    return "%s/%s/%s" % (case.check, case.case, case.variant)


def cmd_static_verdicts(args) -> int:
    clang_tidy = args.clang_tidy or default_clang_tidy()
    plugin = args.plugin or default_plugin()
    if not os.path.exists(plugin):
        print("no plugin at %s: build it first (cmake --build build)" % plugin,
              file=sys.stderr)
        return 2
    cases = discover(args.paths)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        verdicts = list(pool.map(
            lambda c: run_static(c, clang_tidy, plugin, args.cuda_tidy),
            cases))
    lines = ["# static verdicts of runtime-tests, written by static-verdicts.sh",
             "# %s; %s --load=%s" % (datetime.datetime.now(
                 datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 clang_tidy, plugin),
             "# case\tverdict\tdetail"]
    failed = 0
    for case, verdict in zip(cases, verdicts):
        lines.append("%s\t%s\t%s" % (static_key(case), verdict.verdict,
                                     verdict.detail))
        if verdict.verdict != case.expect_static or \
                verdict.lines != case.expected_lines:
            failed += 1
            tail = verdict.log.splitlines()
            print("%s: expected %s%s, got %s\n%s" % (
                case.relpath, case.expect_static,
                " at %s" % case.expected_lines if case.expected_lines else "",
                verdict.cell(), "\n".join(tail[:1] + ["..."] + tail[-12:]
                                           if len(tail) > 14 else tail)),
                file=sys.stderr)
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print("%d of %d files as expected" % (len(cases) - failed, len(cases)),
          file=sys.stderr)
    return 1 if failed else 0


# ------------------------------------------------------------ GPU side

def predicted_for(case: CaseFile, static: Verdict) -> Optional[float]:
    """The predicted wavefronts of the access a tool=ncu case measures: the
    static verdict's prediction of the op's kind (an update is both)."""
    kinds = {"ld": ("read", "update"), "st": ("write", "update")}[
        case.runtime_args.get("op", "ld")]
    for line, kind, degree, wavefronts, ideal in PREDICTION.findall(
            static.detail):
        if kind in kinds:
            return float(wavefronts)
    return None


def agreement(case: CaseFile, static: Verdict, runtime: Verdict) -> str:
    problems = []
    if runtime.verdict != case.expect_runtime:
        problems.append("runtime %s, expected %s" % (runtime.verdict,
                                                     case.expect_runtime))
    problems += ncu_problems(case, runtime)
    if case.tool == "ncu" and static.verdict == "warn" and \
            runtime.value is not None:
        predicted = predicted_for(case, static)
        if predicted is None:
            problems.append("no prediction for the %s in the static verdict"
                            % case.runtime_args["op"])
        elif abs(runtime.value - predicted) > NCU_TOLERANCE * predicted:
            problems.append("predicted %.1f wavefronts/instruction, measured "
                            "%.2f" % (predicted, runtime.value))
    if static.verdict == "pending":
        return "; ".join(problems) if problems else \
            "pending (runtime as expected)"
    if case.known_miss and not problems and static.verdict == "silent" and \
            runtime.verdict == "fault":
        return "known miss: " + case.known_miss
    if static.verdict != case.expect_static:
        problems.append("static %s, expected %s" % (static.verdict,
                                                    case.expect_static))
    if (static.verdict == "warn") != (runtime.verdict == "fault") and \
            not problems:
        problems.append("checker %s but runtime %s" % (static.verdict,
                                                       runtime.verdict))
    return "no: " + "; ".join(problems) if problems else "yes"


def markdown_table(rows: List[List[str]], header: List[str]) -> str:
    def esc(cell):
        return cell.replace("|", "\\|")
    out = ["| " + " | ".join(header) + " |",
           "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def machine_facts() -> str:
    """Where the runtime side ran, as a Markdown list."""
    def first_line(cmd, pick=lambda lines: lines[0]):
        status, out = run(cmd, 60)
        lines = [l.strip() for l in out.splitlines() if l.strip()]
        return pick(lines) if status == 0 and lines else "unknown (%s)" % (
            out.strip().splitlines()[-1] if out.strip() else "exit %s" % status)
    gpu = first_line(["nvidia-smi", "--query-gpu=name,driver_version,"
                      "compute_cap", "--format=csv,noheader"])
    toolkit = first_line([nvcc(), "--version"],
                         lambda lines: next((l for l in lines if "release" in l),
                                            lines[-1]))
    sanitizer = first_line([compute_sanitizer(), "--version"],
                           lambda lines: lines[-1])
    nsight = first_line([ncu(), "--version"], lambda lines: lines[-1])
    return ("- date: %s\n- GPU (name, driver, compute capability): %s\n"
            "- nvcc: %s\n- compute-sanitizer: %s\n- ncu: %s\n"
            "- nvcc flags: %s\n\n" % (
                datetime.datetime.now(datetime.timezone.utc).strftime(
                    "%Y-%m-%d %H:%M UTC"), gpu, toolkit, sanitizer, nsight,
                " ".join(NVCC_ARGS)))


def cmd_gpu(args) -> int:
    cases = discover(args.paths)
    bin_dir = os.path.abspath(args.build_dir)
    log = open(args.log, "w") if args.log else None

    def write_log(title, text):
        if log:
            log.write("==== %s\n%s\n" % (title, text))
            log.flush()

    if args.static_verdicts:
        from_file = read_static_verdicts(args.static_verdicts)
        static = {static_key(c): from_file.get(
            static_key(c), Verdict("pending", "not in %s"
                                   % os.path.basename(args.static_verdicts)))
                  for c in cases}
    else:
        plugin = args.plugin or default_plugin()
        clang_tidy = args.clang_tidy or default_clang_tidy()
        if os.path.exists(plugin) and os.access(clang_tidy, os.X_OK):
            static = {static_key(c): run_static(c, clang_tidy, plugin,
                                                args.cuda_tidy)
                      for c in cases}
        else:
            static = {static_key(c): Verdict("pending", "") for c in cases}
    for key, verdict in static.items():
        if verdict.log:
            write_log("static " + key, verdict.log)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        built = list(pool.map(lambda c: build(c, bin_dir), cases))
    for case, (exe, build_log) in zip(cases, built):
        write_log("nvcc " + case.relpath, build_log)

    def runtime_of(item):
        case, (exe, _) = item
        if exe is None:
            return Verdict("error", "nvcc failed")
        return run_runtime(case.tool, exe, args.sanitizer_timeout,
                           case.runtime_args)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runtimes = list(pool.map(runtime_of, zip(cases, built)))

    rows, failures, misses = [], 0, 0
    for case, runtime in zip(cases, runtimes):
        write_log("runtime %s (%s)" % (case.relpath, case.tool), runtime.log)
        verdict = static[static_key(case)]
        agree = agreement(case, verdict, runtime)
        failures += agree.startswith("no")
        misses += agree.startswith("known miss")
        rows.append([case.name, case.check, verdict.cell(), case.tool,
                     runtime.cell(), agree])
    table = machine_facts() + markdown_table(
        rows, ["case", "check", "static verdict", "runtime tool",
               "runtime verdict", "agreement"])

    if args.probe:
        # Every tool on every program, to see which one shows a pattern.
        jobs = [(c, exe, tool) for c, (exe, _) in zip(cases, built) if exe
                for tool in args.probe.split(",")]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            probes = list(pool.map(
                lambda j: run_runtime(j[2], j[1], args.sanitizer_timeout,
                                      j[0].runtime_args), jobs))
        probe_rows = []
        for (case, _, tool), verdict in zip(jobs, probes):
            write_log("probe %s (%s)" % (case.relpath, tool), verdict.log)
            probe_rows.append([case.name, tool, verdict.cell()])
        table += "\nEvery tool on every program (--probe):\n\n" + \
            markdown_table(probe_rows, ["case", "tool", "verdict"])

    sys.stdout.write(table)
    if args.table:
        with open(args.table, "w") as f:
            f.write(table)
    if log:
        log.close()
    print("\n%d of %d rows disagree%s" % (
        failures, len(rows),
        ", %d are known misses" % misses if misses else ""))
    return 1 if failures else 0


def cmd_static_program(args) -> int:
    case = parse_case_file(args.file)
    if args.check != case.check or not case.sources:
        print("%s: static-program is for a %s program with SOURCES"
              % (case.relpath, case.check), file=sys.stderr)
        return 2
    plugin = args.plugin or default_plugin()
    verdict = run_static(case, "", plugin, args.cuda_tidy)
    sys.stdout.write(verdict.log)
    print("%s: %s, expected %s%s" % (
        case.relpath, verdict.cell(), case.expect_static,
        " at lines %s" % ", ".join(map(str, case.expected_lines))
        if case.expected_lines else ""))
    return 0 if verdict.verdict == case.expect_static and \
        verdict.lines == case.expected_lines else 1


def cmd_runtime(args) -> int:
    case = parse_case_file(args.file)
    verdict = run_runtime(case.tool, args.exe, args=case.runtime_args)
    sys.stdout.write(verdict.log)
    problems = ncu_problems(case, verdict)
    print("%s: %s, expected %s%s" % (case.relpath, verdict.cell(),
                                     case.expect_runtime,
                                     "".join("; " + p for p in problems)))
    return 0 if verdict.verdict == case.expect_runtime and not problems else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    static = sub.add_parser("static-verdicts",
                            help="run the checks on every case file here")
    static.add_argument("paths", nargs="*", help="case files or folders")
    static.add_argument("-o", "--output", help="verdicts file (default stdout)")
    static.add_argument("--clang-tidy")
    static.add_argument("--plugin")
    static.add_argument("--cuda-tidy", help="for programs with SOURCES "
                        "(default build/bin/cuda-tidy)")
    static.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    static.set_defaults(func=cmd_static_verdicts)

    gpu = sub.add_parser("gpu", help="build and run every case on a GPU")
    gpu.add_argument("paths", nargs="*", help="case files or folders")
    gpu.add_argument("--static-verdicts", metavar="FILE",
                     help="read the static side from FILE instead of running "
                          "clang-tidy here")
    gpu.add_argument("--clang-tidy")
    gpu.add_argument("--plugin")
    gpu.add_argument("--cuda-tidy")
    gpu.add_argument("--build-dir",
                     default=os.path.join(SOURCE_ROOT, "build",
                                          "runtime-tests", "bin"))
    gpu.add_argument("--log", help="write every command and its output here")
    gpu.add_argument("--table", help="write the Markdown table here too")
    gpu.add_argument("--probe", metavar="TOOLS",
                     help="also run each program under each of these tools "
                          "(comma-separated) and print what each saw")
    gpu.add_argument("--sanitizer-timeout", type=int,
                     default=SANITIZER_SECONDS, metavar="SECONDS",
                     help="give up on a sanitizer run after this long "
                          "(default %(default)s)")
    gpu.add_argument("-j", "--jobs", type=int, default=1,
                     help="programs run at the same time (default 1)")
    gpu.set_defaults(func=cmd_gpu)

    program = sub.add_parser("static-program",
                             help="the static side of a program with SOURCES")
    program.add_argument("file")
    program.add_argument("check", help="the check the case file is for")
    program.add_argument("--cuda-tidy")
    program.add_argument("--plugin")
    program.set_defaults(func=cmd_static_program)

    one = sub.add_parser("runtime", help="run one program's runtime part")
    one.add_argument("file")
    one.add_argument("exe")
    one.set_defaults(func=cmd_runtime)

    args = parser.parse_args()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
