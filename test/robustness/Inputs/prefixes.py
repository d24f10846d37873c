#!/usr/bin/env python3
"""Writes each prefix of a file, one line longer each time, as
OUTDIR/prefix-NNN.cu: what an editor sends while the file is typed.

  prefixes.py FILE OUTDIR
"""

import os
import sys


def main():
    source, outdir = sys.argv[1], sys.argv[2]
    with open(source) as f:
        lines = f.readlines()
    for n in range(1, len(lines) + 1):
        with open(os.path.join(outdir, "prefix-%03d.cu" % n), "w") as out:
            out.writelines(lines[:n])


if __name__ == "__main__":
    main()
