#!/usr/bin/env python3
"""Runs ci/github/cuda-tidy-matrix.yml's cuda-tidy steps, as Actions would.

    run_matrix.py WORKFLOW [--refresh-baseline]

In the current directory: the cuda-tidy step of every part of the matrix,
with the matrix's variables filled in, then what the artifacts carry to the
merge job (each part's cuda-tidy-K.* into parts/), then the merge step.
Prints each part's status; exits with 1 when a part failed, as the workflow
does. Also checks what the steps need around them: the per-part cache and
the artifacts' names.
"""

import glob
import os
import shutil
import subprocess
import sys

import yaml


def run(command, env):
    return subprocess.call(["bash", "-eo", "pipefail", "-c", command], env=env)


def main():
    path = sys.argv[1]
    refresh = "true" if "--refresh-baseline" in sys.argv[2:] else ""
    with open(path) as f:
        workflow = yaml.safe_load(f)
    env = dict(os.environ, **{k: str(v) for k, v in workflow["env"].items()})
    analyse = workflow["jobs"]["analyse"]
    parts = analyse["strategy"]["matrix"]["shard"]
    assert len(parts) == int(env["PARTS"]), "the matrix lists every part"
    steps = analyse["steps"]
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache"))
    assert cache["with"]["path"] == ".cuda-tidy-cache"
    assert "matrix.shard" in cache["with"]["key"], "one cache per part"
    command = next(s["run"] for s in steps if "cuda-tidy -p" in s.get("run", ""))
    upload = next(s for s in steps
                  if s.get("uses", "").startswith("actions/upload-artifact"))
    assert "always()" in upload["if"], "a failing part's findings are merged"
    failed = False
    for part in parts:
        status = run(command.replace("${{ matrix.shard }}", str(part))
                     .replace("${{ inputs.refresh-baseline }}", refresh), env)
        print("part %s: status %d" % (part, status), flush=True)
        failed |= status != 0
    merge = workflow["jobs"]["merge"]
    download = next(s for s in merge["steps"]
                    if s.get("uses", "").startswith("actions/download-artifact"))
    folder = download["with"]["path"]
    os.makedirs(folder, exist_ok=True)
    for produced in glob.glob("cuda-tidy-[0-9]*.*"):
        shutil.move(produced, os.path.join(folder, produced))
    merge_command = next(s["run"] for s in merge["steps"]
                         if "--merge-sarif" in s.get("run", ""))
    status = run(merge_command, env)
    print("merge: status %d" % status, flush=True)
    return 1 if failed or status else 0


if __name__ == "__main__":
    sys.exit(main())
