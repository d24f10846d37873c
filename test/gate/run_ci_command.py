#!/usr/bin/env python3
"""Runs the cuda-tidy step of a ready-made CI file, as the CI would.

    run_ci_command.py github|gitlab CI_FILE BASE_REF

Finds the step that runs cuda-tidy in the GitHub Actions workflow or the
GitLab CI job, fills in the CI's variables for a pull request against
BASE_REF, runs it with bash in the current directory and exits with its
status. Also checks what the step needs around it: the base branch in the
checkout, and the SARIF upload.
"""

import subprocess
import sys

import yaml


def github(path, base):
    with open(path) as f:
        workflow = yaml.safe_load(f)
    steps = workflow["jobs"]["cuda-tidy"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0, "the diff needs the base branch"
    upload = next(s for s in steps
                  if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["with"]["sarif_file"] == "cuda-tidy.sarif"
    assert "always()" in upload["if"], "upload the findings of a failing run"
    assert workflow["permissions"]["security-events"] == "write"
    command = next(s["run"] for s in steps if "cuda-tidy -p" in s.get("run", ""))
    return command.replace("${{ github.base_ref }}", base), {}


def gitlab(path, base):
    with open(path) as f:
        job = yaml.safe_load(f)["cuda-tidy"]
    assert "cuda-tidy.sarif" in job["artifacts"]["paths"]
    assert job["artifacts"]["when"] == "always"
    command = next(line for line in job["script"] if "cuda-tidy -p" in line)
    sha = subprocess.check_output(["git", "rev-parse", "origin/" + base],
                                  text=True).strip()
    return command, {"CI_MERGE_REQUEST_DIFF_BASE_SHA": sha}


def main():
    kind, path, base = sys.argv[1:4]
    command, variables = (github if kind == "github" else gitlab)(path, base)
    print("running:", command.strip(), flush=True)
    import os
    env = dict(os.environ, **variables)
    return subprocess.call(["bash", "-eo", "pipefail", "-c", command], env=env)


if __name__ == "__main__":
    sys.exit(main())
