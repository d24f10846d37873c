#!/usr/bin/env python3
"""Reproducers for every runtime-test program (issue 24).

Runs `cuda-tidy --repro-dir` on each program of runtime-tests/ (bad.cu,
fixed.cu and any other variant) as its RUN line analyses it: the check of
the line, its options, and for a program of several files (SOURCES) a
compile database of nvcc commands, kept beside the reproducers since their
build.sh compiles with it. The folders go to DIR/<check>/<case>/<variant>/,
then `cuda-tidy-confirm --build-only DIR` builds them all with nvcc (no GPU
needed). On a GPU machine, `cuda-tidy-confirm -j 8 DIR` runs them.

Prints one line a program (findings, reproducers, findings that cannot be
reproduced and why) and a summary; exits 1 when a fixed.cu program has a
finding or a reproducer does not build. Other variants (padded.cu, ...)
are reported with the warnings their CHECK-MESSAGES lines expect.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "runtime-tests"))
import runtime_suite  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--out", default=os.path.join(
        ROOT, "build", "repro-runtime-tests"))
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"),
                        help="where cuda-tidy and cuda-tidy-confirm are")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args()
    cuda_tidy = os.path.join(args.bin, "cuda-tidy")
    confirm = os.path.join(args.bin, "cuda-tidy-confirm")
    out_root = os.path.abspath(args.out)
    subprocess.call(["rm", "-rf", out_root])
    bad_total = bad_written = bad_cannot = bad_findings = 0
    fixed_with_findings = []
    variants = []
    for case in runtime_suite.discover(args.cases or None):
        folder = os.path.join(out_root, case.check, case.case, case.variant)
        os.makedirs(folder, exist_ok=True)
        if case.sources:
            db = folder + ".db"
            os.makedirs(db, exist_ok=True)
            runtime_suite.program_database(case, db)
            cmd = [cuda_tidy, "-p", db, "--checks=-*," + case.check,
                   "--config={}", "--repro-dir=" + folder, case.path]
        else:
            tidy_args = case.tidy_args if any(
                a.startswith(("-config", "--config"))
                for a in case.tidy_args) else case.tidy_args + ["--config={}"]
            cmd = [cuda_tidy, "--checks=-*," + case.check] + tidy_args + [
                "--repro-dir=" + folder, case.path, "--",
                "--cuda-device-only", "--cuda-gpu-arch=sm_90"]
        run = subprocess.run(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        findings = sorted(glob.glob(os.path.join(folder, "*", "finding.json")))
        cannot = []
        for path in findings:
            with open(path) as f:
                finding = json.load(f)
            if "cannot_reproduce" in finding:
                cannot.append("%d: %s" % (finding["line"],
                                          finding["cannot_reproduce"]))
        written = len(findings) - len(cannot)
        print("%s: %d finding%s, %d reproducer%s%s" % (
            case.relpath, len(findings), "" if len(findings) == 1 else "s",
            written, "" if written == 1 else "s",
            "".join("; cannot reproduce at line " + c for c in cannot)))
        if run.returncode not in (0, 1):
            print("  cuda-tidy exited %d: %s" % (run.returncode,
                                                 run.stderr.strip()[-500:]))
        if case.variant == "bad":
            bad_total += 1
            bad_findings += len(findings)
            bad_written += written
            bad_cannot += len(cannot)
        elif case.variant == "fixed":
            if findings:
                fixed_with_findings.append(case.relpath)
        else:
            variants.append("%s (%d finding%s, %d expected)" % (
                case.relpath, len(findings), "" if len(findings) == 1 else "s",
                len(case.expected_lines)))
    print("runtime-tests-repro: %d bad programs, %d findings: %d reproducers, "
          "%d cannot be reproduced; %d fixed programs with a finding%s; "
          "other variants: %s" % (
              bad_total, bad_findings, bad_written, bad_cannot,
              len(fixed_with_findings),
              ": " + ", ".join(fixed_with_findings)
              if fixed_with_findings else "", ", ".join(variants) or "none"))
    status = 1 if fixed_with_findings else 0
    if not args.no_build:
        built = subprocess.call([confirm, "--build-only", "-j", str(args.j),
                                 out_root])
        status = status or built
    return status


if __name__ == "__main__":
    sys.exit(main())
