#!/usr/bin/env python3
"""The distribution of the checks' per-function analysis time over corpora.

Reads the logs of tools/corpus/run-corpus.sh runs made with
CUDA_TIDY_TIMING=all (bench/functions.sh makes them), where each check prints
"<check>: function '<name>' took <s> s" for every function it analysed, in
each compilation pass (device and host: a function analysed in both counts
twice, once per pass). Prints, per check: the number of analyses, the median,
the 90th and 99th percentiles, the maximum, how many took over 100 ms and
over 1 s, and the slowest ones with their translation units; then the same
over all checks. Issue 25's targets: no analysis over 1 s, the 99th
percentile under 100 ms.

usage: bench/functions.py [--top N] RUN_DIR...
"""

import argparse
import re
import sys
from pathlib import Path

LINE = re.compile(r"^(cuda-[a-z-]+): function '(.*)' took ([0-9.]+) s$")


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1,
                   int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("runs", nargs="+", help="run-corpus.sh output folders")
    args = ap.parse_args()
    rows = []  # (check, seconds, function, unit, run)
    for run in args.runs:
        logs = sorted(Path(run, "logs").glob("*.log"))
        if not logs:
            print("functions.py: no logs in %s/logs" % run, file=sys.stderr)
            return 2
        for log in logs:
            for line in log.read_text(errors="replace").splitlines():
                m = LINE.match(line)
                if m:
                    rows.append((m.group(1), float(m.group(3)), m.group(2),
                                 log.stem, Path(run).name))
    if not rows:
        print("functions.py: no 'function ... took' lines: were the runs made "
              "with CUDA_TIDY_TIMING=all?", file=sys.stderr)
        return 2
    checks = sorted({r[0] for r in rows}) + ["all checks"]
    print("| check | analyses | median ms | p90 ms | p99 ms | max s | over 100 ms | over 1 s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for check in checks:
        values = sorted(r[1] for r in rows if check == "all checks" or r[0] == check)
        print("| %s | %d | %.2f | %.2f | %.2f | %.3f | %d | %d |" % (
            check, len(values), 1000 * percentile(values, 50),
            1000 * percentile(values, 90), 1000 * percentile(values, 99),
            values[-1], sum(v > 0.1 for v in values), sum(v > 1.0 for v in values)))
    for check in checks[:-1]:
        print("\nslowest, %s:" % check)
        slow = sorted((r for r in rows if r[0] == check), key=lambda r: -r[1])
        for _, seconds, name, unit, run in slow[:args.top]:
            print("  %8.3f s  %s  (%s: %s)" % (seconds, name, run, unit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
