#!/usr/bin/env python3
"""The agreement table: cuda-tidy's verdicts against the GPU's labels.

    compare.py LABELS.tsv VERDICTS.tsv [--tools TOOLS.tsv] [--per-program]
    compare.py --run DIR [--run DIR ...] VERDICTS.tsv [--per-program]
               [--doc docs/fuzz-agreement.md]

LABELS.tsv comes from gpu-oracle.sh (seed, shape, plant, check, label,
evidence), VERDICTS.tsv from verdicts.sh (seed, shape, plant, check,
expected, verdict, lines). A check's verdict agrees with the hardware when
it warns on a program labelled `fault` and is silent on one labelled
`clean`; labels `n/a` (no oracle for that check on that program) and `error`
(the tools did not all run) are counted apart and are not in the
percentage.

`--run DIR` reads a gpu-oracle.sh folder (labels.tsv, tools.tsv,
summary.md); given several, a seed labelled in more than one takes its
labels from the run where it has the fewest `error` labels (the later run
on a tie), so that two calls of the device tool, with overlapping ranges or
not, make one table.

Prints Markdown for docs/fuzz-agreement.md: a summary per check, one per
planted defect, every disagreement and error with the tools' evidence and a
cause where one is known (`classify`: a deadline cut, a starved run, a
2-way conflict below the check's claim, a checker limit documented in
rules/), the wrong results no tool explains, and with --per-program a row
per program. `--doc FILE` writes it, with the runs' summaries, between the
file's `<!-- BEGIN compare.py -->` and `<!-- END compare.py -->` lines
instead of printing it.
"""

import argparse
import collections
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

CHECKS = gen.CHECKS
BEGIN = "<!-- BEGIN compare.py -->"
END = "<!-- END compare.py -->"

RACE_LIMITS = "rules/cuda-shared-memory-race.md#known-limits"
# Misses of the checker the CPU comparison already showed (seeds 0:340
# against their plants, docs/fuzz-agreement.md), by what the program's
# header says: (check, shape, plant prefix, header condition, cause).
KNOWN_LIMITS = [
    ("cuda-shared-memory-race", "scan", "race-",
     lambda h: h.get("helper"),
     "checker limit: a read under a condition inside a `__device__` "
     "helper (the scan's `carryFrom`) is not judged (%s)" % RACE_LIMITS),
    ("cuda-shared-memory-race", "histogram", "race-",
     lambda h: True,
     "checker limit: the bins' `atomicAdd` index is loaded from memory, "
     "not computable, so the atomics are not set against the zeroing or "
     "the flush (%s)" % RACE_LIMITS),
]


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


def header_of(seed):
    return json.loads(gen.generate(int(seed)).split("\n", 1)[0]
                      [len("// FUZZ: "):])


def classify(seed, check, lab, ver, tools):
    """A cause for a disagreement or error row, or None when none is
    known. `tools`: the seed's tools.tsv rows, tool -> (verdict, detail)."""
    evidence = lab["evidence"]
    if lab["label"] == "error":
        if "deadline" in evidence:
            return "deadline cut: the call ran out of time before this run"
        if "the program hangs" in evidence:
            return "not profiled: the program hangs"
        if "hung: no finding" in evidence:
            return "the program hangs under the sanitizer"
        if "build failed" in evidence:
            return None
        if "ncu" in evidence and "the result is wrong" in evidence:
            return ("old oracle: ncu's counters were not judged on a wrong "
                    "result")
        return None
    header = header_of(seed)
    if ver["verdict"] == "silent" and lab["label"] == "fault":
        if check == "cuda-divergent-barrier" and evidence.startswith(
                "hang: timeout") and "alone" not in evidence and any(
                    tools.get(t, ("error", ""))[0] in ("clean", "fault")
                    for t in ("synccheck", "racecheck")):
            return ("starved (old oracle): the plain run timed out among "
                    "sanitizers, the program ran to its end under "
                    "compute-sanitizer")
        ratio = re.match(r"ncu: ([\d.]+) x ideal", evidence)
        if check == "cuda-bank-conflict" and ratio and \
                float(ratio.group(1)) <= 2.0:
            return ("2-way conflict (old oracle's threshold): below the 4-way "
                    "the check claims")
        if (header["shape"], header["plant"]) != (lab["shape"], lab["plant"]):
            return None  # labels of another generator's program
        for limit_check, shape, plant, when, cause in KNOWN_LIMITS:
            if check == limit_check and header["shape"] == shape and \
                    header["plant"].startswith(plant) and when(header):
                return cause
    if ver["verdict"] == "warn" and lab["label"] == "clean" and \
            ver["expected"] == "warn":
        # The defect is there by construction; the check names it. What
        # the tools missed (a split barrier whose threads happen to meet
        # the data in order, say) is the oracle's blind spot, to be read
        # in the program before it is accepted as one.
        return ("the planted defect did not show on the GPU (its tools saw "
                "nothing): the oracle's blind spot, check the program")
    return None


def load_runs(run_dirs):
    """(labels, tools, summaries) merged over the runs: labels by (seed,
    check), tools by seed -> tool -> (verdict, detail)."""
    chosen = {}
    for index, run in enumerate(run_dirs):
        rows = read_tsv(os.path.join(run, "labels.tsv"))
        tools_path = os.path.join(run, "tools.tsv")
        tools = collections.defaultdict(dict)
        if os.path.exists(tools_path):
            for t in read_tsv(tools_path):
                tools[t["seed"]][t["tool"]] = (t["verdict"], t["detail"])
        by_seed = collections.defaultdict(list)
        for r in rows:
            by_seed[r["seed"]].append(r)
        for seed, seed_rows in by_seed.items():
            errors = sum(r["label"] == "error" for r in seed_rows)
            if seed not in chosen or errors <= chosen[seed][0]:
                chosen[seed] = (errors, seed_rows, tools[seed], index)
    labels = {(r["seed"], r["check"]): r
              for _, rows, _, _ in chosen.values() for r in rows}
    tools = {seed: t for seed, (_, _, t, _) in chosen.items()}
    summaries = []
    for run in run_dirs:
        path = os.path.join(run, "summary.md")
        if os.path.exists(path):
            summaries.append((run, open(path).read()))
    return labels, tools, summaries


def report(labels, verdicts, tools, per_program):
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
    complete = [s for s in seeds if all(
        labels[(s, c)]["label"] != "error" for c in CHECKS)]

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
    w("%d programs compared, %d of them fully labelled (no label "
      "`error`)%s. Per planted defect (the planted check's row; `none`: "
      "every check of the clean programs):" % (
          len(seeds), len(complete), "; seeds in one file only: " +
          ", ".join(missing) if missing else ""))
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
    causes = collections.Counter()
    w("### Disagreements and errors (%d)" % len(differ))
    w("")
    if differ:
        w("| seed | shape | plant | check | checker | hardware | evidence "
          "| cause |")
        w("|---|---|---|---|---|---|---|---|")
        for seed, check, lab, ver, o in differ:
            cause = classify(seed, check, lab, ver, tools.get(seed, {}))
            causes[(o, cause or "**unexplained**")] += 1
            lines = "" if ver["lines"] == "-" else " (%s)" % ver["lines"]
            w("| %s | %s | %s | %s | %s%s | %s | %s | %s |" % (
                seed, lab["shape"], lab["plant"], check, ver["verdict"],
                lines, lab["label"],
                lab["evidence"][:300].replace("|", "/"),
                cause or "**unexplained**"))
        w("")
        w("By cause:")
        w("")
        w("| rows | outcome | cause |")
        w("|---|---|---|")
        for (o, cause), n in sorted(causes.items(),
                                    key=lambda kv: (-kv[1], kv[0])):
            w("| %d | %s | %s |" % (n, o, cause))
        w("")
    if tools:
        wrong = {s: t["result"][1] for s, t in tools.items()
                 if t.get("result", ("",))[0] == "fault"}
        unexplained = [s for s in seeds if s in wrong and not any(
            labels[(s, c)]["label"] == "fault" for c in CHECKS)]
        w("### Wrong results no tool explains (%d)" % len(unexplained))
        w("")
        for s in unexplained:
            w("- seed %s (%s, %s): %s" % (s, labels[(s, CHECKS[0])]["shape"],
                                          labels[(s, CHECKS[0])]["plant"],
                                          wrong[s]))
        w("")
    if per_program:
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
        w("")
    return out


def write_doc(path, text):
    with open(path) as f:
        doc = f.read()
    if doc.count(BEGIN) != 1 or doc.count(END) != 1:
        sys.exit("%s: needs one %s line and one %s line" % (path, BEGIN, END))
    head, rest = doc.split(BEGIN)
    _, tail = rest.split(END)
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+",
                        help="LABELS.tsv VERDICTS.tsv, or with --run only "
                        "VERDICTS.tsv")
    parser.add_argument("--run", action="append", default=[],
                        help="a gpu-oracle.sh output folder (repeatable)")
    parser.add_argument("--tools", help="tools.tsv of the same GPU run")
    parser.add_argument("--per-program", action="store_true",
                        help="also a row per program")
    parser.add_argument("--doc", help="write into this file between its "
                        "BEGIN and END lines instead of printing")
    args = parser.parse_args()
    if args.run:
        if len(args.files) != 1 or args.tools:
            parser.error("with --run: only VERDICTS.tsv, no --tools")
        labels, tools, summaries = load_runs(args.run)
        verdicts_path = args.files[0]
    else:
        if len(args.files) != 2:
            parser.error("LABELS.tsv and VERDICTS.tsv, or --run")
        labels = {(r["seed"], r["check"]): r
                  for r in read_tsv(args.files[0])}
        tools = collections.defaultdict(dict)
        if args.tools:
            for t in read_tsv(args.tools):
                tools[t["seed"]][t["tool"]] = (t["verdict"], t["detail"])
        summaries = []
        verdicts_path = args.files[1]
    verdicts = {(r["seed"], r["check"]): r for r in read_tsv(verdicts_path)}
    out = report(labels, verdicts, tools, args.per_program)
    for run, summary in summaries:
        out.append("### GPU run `%s`" % os.path.basename(os.path.normpath(
            run)))
        out.append("")
        out.append(summary.replace("# GPU oracle run", "", 1).strip("\n"))
        out.append("")
    text = "\n".join(out).rstrip("\n") + "\n"
    if args.doc:
        write_doc(args.doc, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
