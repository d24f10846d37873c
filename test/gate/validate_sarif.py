#!/usr/bin/env python3
"""Checks a SARIF log that cuda-tidy wrote, as code scanning would read it.

    validate_sarif.py SCHEMA RULES_DIR LOG [SHIFTED_LOG]

- LOG is valid against the official SARIF 2.1.0 schema (SCHEMA);
- each cuda-* rule has the summary sentence of RULES_DIR/<rule>.md as its
  shortDescription and helpUri rules/<rule>.md;
- every result has a partialFingerprints entry;
- with SHIFTED_LOG (the same code with lines moved), the fingerprints of the
  two logs are the same while the lines differ.
Prints one line per problem and exits 1 if there is any.
"""

import json
import os
import sys

import jsonschema


def main():
    schema_path, rules_dir, log_path = sys.argv[1:4]
    with open(schema_path) as f:
        schema = json.load(f)
    with open(log_path) as f:
        log = json.load(f)
    problems = [
        "schema: %s at %s" % (e.message, "/".join(map(str, e.absolute_path)))
        for e in jsonschema.Draft4Validator(schema).iter_errors(log)
    ]
    run = log["runs"][0]
    for rule in run["tool"]["driver"]["rules"]:
        rule_id = rule["id"]
        if not rule_id.startswith("cuda-"):
            continue
        with open(os.path.join(rules_dir, rule_id + ".md")) as f:
            summary = f.read().split("\n")[2]
        if rule.get("shortDescription", {}).get("text") != summary:
            problems.append("%s: shortDescription is not the summary of "
                            "rules/%s.md" % (rule_id, rule_id))
        if rule.get("helpUri") != "rules/%s.md" % rule_id:
            problems.append("%s: helpUri is %r" % (rule_id, rule.get("helpUri")))
    for result in run["results"]:
        if not result.get("partialFingerprints"):
            problems.append("a result without partialFingerprints")
    if len(sys.argv) > 4:
        with open(sys.argv[4]) as f:
            shifted = json.load(f)["runs"][0]["results"]

        def where(results):
            return [(r["partialFingerprints"],
                     r["locations"][0]["physicalLocation"]["region"]["startLine"])
                    for r in results]

        before, after = where(run["results"]), where(shifted)
        if [p for p, _ in before] != [p for p, _ in after]:
            problems.append("fingerprints changed when lines moved")
        if [l for _, l in before] == [l for _, l in after]:
            problems.append("the shifted log has the same lines")
    for problem in problems:
        print(problem)
    print("%d results, %d problems" % (len(run["results"]), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
