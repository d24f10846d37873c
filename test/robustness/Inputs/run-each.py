#!/usr/bin/env python3
"""Runs a command once per file and fails if any run crashes, hangs, or
exits with a status other than 0 (clean) or 1 (errors in the input).

  run-each.py SECONDS FILE... -- COMMAND...   ({} in COMMAND is the file)

A crash of clang-tidy is reported by cuda-tidy with status 2 and
"clang-tidy crashed"; a crash of cuda-tidy itself is a negative status here.
"""

import subprocess
import sys


def main():
    seconds = float(sys.argv[1])
    split = sys.argv.index("--")
    files, command = sys.argv[2:split], sys.argv[split + 1:]
    failures = 0
    for name in files:
        argv = [name if word == "{}" else word for word in command]
        try:
            run = subprocess.run(argv, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=seconds)
        except subprocess.TimeoutExpired:
            print("%s: no result within %g s" % (name, seconds))
            failures += 1
            continue
        output = run.stdout.decode(errors="replace")
        if run.returncode not in (0, 1) or "crashed" in output:
            print("%s: status %d\n%s" % (name, run.returncode, output))
            failures += 1
    print("%d files, %d failures" % (len(files), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
