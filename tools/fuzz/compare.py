#!/usr/bin/env python3
"""The agreement table: cuda-tidy's verdicts against the GPU's labels.

    compare.py LABELS.tsv VERDICTS.tsv [--tools TOOLS.tsv] [--per-program]

LABELS.tsv comes from gpu-oracle.sh (seed, shape, plant, check, label,
evidence), VERDICTS.tsv from verdicts.sh (seed, shape, plant, check,
expected, verdict, lines). A check's verdict agrees with the hardware when
it warns on a program labelled `fault` and is silent on one labelled
`clean`; labels `n/a` (no oracle for that check on that program) and `error`
(the tools did not all run) are counted apart and are not in the
percentage. Prints Markdown for docs/fuzz-agreement.md: a summary per check,
one per planted defect, every disagreement with the tools' evidence, and
with --tools the programs whose result is wrong while no label is a fault.
"""

import argparse
import collections
import csv
import sys

CHECKS = ("cuda-divergent-barrier", "cuda-shared-memory-race",
          "cuda-bank-conflict", "cuda-dynamic-shared-bounds")


def read_tsv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def outcome(verdict, label):
    if label not in ("fault", "clean"):
        return label
    if verdict not in ("warn", "silent"):
        return "error"
    return "agree" if (verdict == "warn") == (label == "fault") else "differ"


def percent(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels")
    parser.add_argument("verdicts")
    parser.add_argument("--tools", help="tools.tsv of the same GPU run")
    parser.add_argument("--per-program", action="store_true",
                        help="also a row per program")
    args = parser.parse_args()
    labels = {(r["seed"], r["check"]): r for r in read_tsv(args.labels)}
    verdicts = {(r["seed"], r["check"]): r for r in read_tsv(args.verdicts)}
    seeds = sorted({s for s, _ in labels} & {s for s, _ in verdicts}, key=int)
    missing = sorted({s for s, _ in labels} ^ {s for s, _ in verdicts},
                     key=int)
    for seed in seeds:
        if labels[(seed, CHECKS[0])]["plant"] != \
                verdicts[(seed, CHECKS[0])]["plant"]:
            sys.exit("seed %s: the two files were made by different "
                     "generators (plants differ)" % seed)

    out = []
    w = out.append
    per_check = collections.defaultdict(collections.Counter)
    per_plant = collections.defaultdict(collections.Counter)
    rows = []
    for seed in seeds:
        for check in CHECKS:
            lab, ver = labels[(seed, check)], verdicts[(seed, check)]
            o = outcome(ver["verdict"], lab["label"])
            per_check[check][o] += 1
            kind = (ver["verdict"], lab["label"])
            per_check[check][kind] += 1
            plant = lab["plant"]
            if plant == "none" or ver["expected"] == "warn":
                per_plant[plant][o] += 1
            rows.append((seed, check, lab, ver, o))

    total = collections.Counter()
    w("| check | programs labelled | agree | warn + fault | silent + clean "
      "| warn + clean | silent + fault | n/a | error |")
    w("|---|---|---|---|---|---|---|---|---|")
    for check in CHECKS:
        c = per_check[check]
        judged = c["agree"] + c["differ"]
        total.update({"agree": c["agree"], "judged": judged})
        w("| %s | %d | %d (%s) | %d | %d | %d | %d | %d | %d |" % (
            check, judged, c["agree"], percent(c["agree"], judged),
            c[("warn", "fault")], c[("silent", "clean")],
            c[("warn", "clean")], c[("silent", "fault")], c["n/a"],
            c["error"]))
    w("| all | %d | %d (%s) | | | | | | |" % (
        total["judged"], total["agree"],
        percent(total["agree"], total["judged"])))
    w("")
    w("%d programs compared%s. Per planted defect (the planted check's row; "
      "`none`: every check of the clean programs):" % (
          len(seeds), "; seeds in one file only: " + ", ".join(missing)
          if missing else ""))
    w("")
    w("| plant | rows | agree | differ | n/a | error |")
    w("|---|---|---|---|---|---|")
    for plant in sorted(per_plant):
        c = per_plant[plant]
        w("| %s | %d | %d | %d | %d | %d |" % (
            plant, sum(c.values()), c["agree"], c["differ"], c["n/a"],
            c["error"]))
    w("")
    differ = [r for r in rows if r[4] in ("differ", "error")]
    w("### Disagreements and errors (%d)" % len(differ))
    w("")
    if differ:
        w("| seed | shape | plant | check | checker | hardware | evidence |")
        w("|---|---|---|---|---|---|---|")
        for seed, check, lab, ver, o in differ:
            lines = "" if ver["lines"] == "-" else " (%s)" % ver["lines"]
            w("| %s | %s | %s | %s | %s%s | %s | %s |" % (
                seed, lab["shape"], lab["plant"], check, ver["verdict"],
                lines, lab["label"], lab["evidence"][:300].replace("|", "/")))
        w("")
    if args.tools:
        tools = read_tsv(args.tools)
        wrong = {t["seed"]: t["detail"] for t in tools
                 if t["tool"] == "result" and t["verdict"] == "fault"}
        unexplained = [s for s in seeds if s in wrong and not any(
            labels[(s, c)]["label"] == "fault" for c in CHECKS)]
        w("### Wrong results no tool explains (%d)" % len(unexplained))
        w("")
        for s in unexplained:
            w("- seed %s (%s, %s): %s" % (s, labels[(s, CHECKS[0])]["shape"],
                                          labels[(s, CHECKS[0])]["plant"],
                                          wrong[s]))
        w("")
    if args.per_program:
        w("### Per program (checker verdict / hardware label)")
        w("")
        w("| seed | shape | plant | " + " | ".join(CHECKS) + " |")
        w("|---|---|---|" + "---|" * len(CHECKS))
        by_seed = collections.defaultdict(dict)
        for seed, check, lab, ver, o in rows:
            by_seed[seed][check] = "%s / %s%s" % (
                ver["verdict"], lab["label"],
                "" if o in ("agree", "n/a") else " **%s**" % o)
        for seed in seeds:
            h = labels[(seed, CHECKS[0])]
            w("| %s | %s | %s | %s |" % (seed, h["shape"], h["plant"],
                                         " | ".join(by_seed[seed][c]
                                                    for c in CHECKS)))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
