#!/usr/bin/env python3
"""Count the synchronization constructs of issue 23 in CUDA code bases.

usage: tools/corpus/count-sync-sites.py [--patterns] [--json FILE]
                                        [--exclude GLOB] NAME=PATH ...

PATH is a git directory (a bare mirror: HEAD is read with `git ls-tree` and
`git cat-file`, nothing is checked out) or a folder. NAME labels its column.
Prints a Markdown table: one row a construct, one column a code base, each
cell `files / sites` (the files that hold the construct at least once, and
its occurrences). --patterns adds a row for each pattern of a construct,
under it. --json writes the counts and each code base's commit.

The count is textual: regular expressions over the C, C++ and CUDA sources
(see SOURCE_SUFFIXES), with comments blanked first, so that prose about
`cp.async` or `__syncthreads()` does not count while inline PTX (in string
literals) does. A site is an occurrence: a wrapper's definition counts as
well as its calls, and a macro expanded many times counts once. Code
generated at build time, Python front ends (flash-attention's CuTe DSL) and
git submodules (other projects vendored by commit) are not read.

Where a construct's spelling is too common to count alone (`.arrive(` and
`.wait(` are also CUTLASS's own barrier and pipeline classes), the pattern
is counted only in files that also name the construct's type; the row says
so.
"""

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl",
                   ".inc", ".cpp", ".cc", ".cxx", ".c")

# Comments and the literals that may hold comment markers: literals are kept
# (inline PTX lives in them), comments become spaces and their newlines stay.
TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"'
                    r"|'(?:\\.|[^'\\\n])*'"
                    r"|//[^\n]*"
                    r"|/\*.*?\*/", re.S)

WARP_COLLECTIVES = re.compile(
    r"\b(__shfl(?:_up|_down|_xor)?_sync|__ballot_sync|__any_sync|__all_sync"
    r"|__uni_sync|__match_(?:any|all)_sync|__reduce_\w+_sync|__syncwarp)"
    r"\s*\(")
# All 32 lanes, spelled as a literal or a cast of -1; a named constant
# (FULL_MASK, FINAL_MASK) is counted with the other masks.
FULL_MASK = re.compile(
    r"^\(?\s*(?:0x[fF]{8}[uUlL]*|~0[uUlL]*|-1|4294967295[uUlL]*|UINT32_MAX"
    r"|(?:u?int32_t|unsigned(?:\s+int)?)\s*\(\s*-1\s*\)"
    r"|\(\s*(?:u?int32_t|unsigned(?:\s+int)?)\s*\)\s*-1)\s*\)?$")
ACTIVE_MASK = re.compile(r"^__activemask\s*\(\s*\)$")


def first_argument(text: str, start: int) -> str:
    """The first argument of the call whose '(' is text[start - 1]."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i += 1
    return text[start:i].strip()


def warp_masks(text: str):
    """{kind: count} of the warp collectives by the mask they pass: full (a
    literal 0xffffffff or a cast of -1), active (__activemask()), other (a
    variable, a named constant, a ballot: read per site to tell), none
    (__syncwarp() with no argument)."""
    counts = {"full": 0, "active": 0, "other": 0, "none": 0}
    for m in WARP_COLLECTIVES.finditer(text):
        arg = first_argument(text, m.end())
        if m.group(1) == "__syncwarp" and not arg:
            counts["none"] += 1
        elif FULL_MASK.match(arg):
            counts["full"] += 1
        elif ACTIVE_MASK.match(arg):
            counts["active"] += 1
        else:
            counts["other"] += 1
    return counts


def rx(pattern):
    return re.compile(pattern)


# (construct, [(pattern label, regex, gate)]): gate, when set, is a regex the
# file must match for the pattern to count there.
CUDA_BARRIER_TYPE = rx(r"\bcuda::(?:std::)?barrier\s*<|\bcuda::barrier\b")
CONSTRUCTS = [
    ("`__syncthreads()` (for scale)", [
        ("__syncthreads", rx(r"\b__syncthreads\s*\("), None),
    ]),
    ("`__pipeline_memcpy_async` / `__pipeline_commit` / "
     "`__pipeline_wait_prior`", [
        ("__pipeline_memcpy_async", rx(r"\b__pipeline_memcpy_async\b"), None),
        ("__pipeline_commit", rx(r"\b__pipeline_commit\b"), None),
        ("__pipeline_wait_prior", rx(r"\b__pipeline_wait_prior\b"), None),
        ("__pipeline_arrive_on", rx(r"\b__pipeline_arrive_on\b"), None),
    ]),
    ("`cg::memcpy_async` / `cg::wait`", [
        ("cg::memcpy_async",
         rx(r"\b(?:cg|cooperative_groups)::memcpy_async\b"), None),
        ("cg::wait / cg::wait_prior",
         rx(r"\b(?:cg|cooperative_groups)::wait(?:_prior)?\b"), None),
    ]),
    ("`cg::reduce` / `cg::inclusive_scan` / `cg::exclusive_scan`", [
        ("cg collectives",
         rx(r"\b(?:cg|cooperative_groups)::(?:reduce|inclusive_scan"
            r"|exclusive_scan)\b"), None),
    ]),
    ("`cuda::memcpy_async`", [
        ("cuda::memcpy_async",
         rx(r"\bcuda::(?:device::)?memcpy_async(?:_tx)?\b"), None),
    ]),
    ("`cuda::barrier` / `cuda::std::barrier`", [
        ("the type", CUDA_BARRIER_TYPE, None),
    ]),
    ("`arrive` / `wait` / `arrive_and_wait` (files naming `cuda::barrier`)", [
        (".arrive(", rx(r"\.\s*arrive\s*\("), CUDA_BARRIER_TYPE),
        (".wait(", rx(r"\.\s*wait\s*\("), CUDA_BARRIER_TYPE),
        (".arrive_and_wait(", rx(r"\.\s*arrive_and_wait\s*\("),
         CUDA_BARRIER_TYPE),
    ]),
    ("`cuda::pipeline`", [
        ("cuda::pipeline / pipeline_shared_state / make_pipeline",
         rx(r"\bcuda::(?:pipeline|pipeline_shared_state|make_pipeline)\b"),
         None),
    ]),
    ("CUTLASS pipeline classes (`PipelineTmaAsync`, `PipelineAsync`, ...)", [
        ("Pipeline*Async* / PipelineTmaStore",
         rx(r"\bPipeline\w*Async\w*\b|\bPipelineTmaStore\b"), None),
    ]),
    ("named barriers", [
        ("PTX bar.sync / bar.arrive / barrier.sync with operands",
         rx(r"\bbar(?:rier)?(?:\.cta)?\.(?:sync|arrive|red)(?:\.aligned)?"
            r"(?:\.\w+)*\s+[%\w$]"), None),
        ("__barrier_sync", rx(r"\b__barrier_sync(?:_count)?\b"), None),
        ("NamedBarrier", rx(r"\bNamedBarrier\w*\b"), None),
    ]),
    ("PTX `cp.async` (non-bulk) and its groups", [
        ("cp.async.ca/cg", rx(r"\bcp\.async\.c[ag]\b"), None),
        ("cp.async.commit_group", rx(r"\bcp\.async\.commit_group\b"), None),
        ("cp.async.wait_group / wait_all",
         rx(r"\bcp\.async\.wait_(?:group|all)\b"), None),
        ("cp.async.mbarrier.arrive", rx(r"\bcp\.async\.mbarrier\.arrive\b"),
         None),
    ]),
    ("`cp.async` wrappers (`cp_async*`, `SM80_CP_ASYNC*`)", [
        ("cp_async, cp_async_* functions",
         rx(r"\bcp_async(?:_\w+)?\s*[<(]"), None),
        ("SM80_CP_ASYNC* copy atoms", rx(r"\bSM80_CP_ASYNC\w*"), None),
    ]),
    ("PTX `cp.async.bulk` (TMA)", [
        ("cp.async.bulk*", rx(r"\bcp\.(?:reduce\.)?async\.bulk\b"), None),
        ("SM90_TMA_* / SM100_TMA_* copy atoms",
         rx(r"\bSM(?:90|100)_TMA_\w+"), None),
    ]),
    ("PTX `mbarrier`", [
        ("mbarrier.*", rx(r"\bmbarrier\.\w+"), None),
        ("ClusterBarrier / ClusterTransactionBarrier",
         rx(r"\bCluster(?:Transaction)?Barrier\b"), None),
    ]),
    ("`cub::Block*`", [
        ("cub::Block*", rx(r"\bcub::Block[A-Z]\w*"), None),
        ("TempStorage (files naming cub::Block*)",
         rx(r"\bTempStorage\b"), rx(r"\bcub::Block[A-Z]")),
    ]),
    ("`cub::Warp*`", [
        ("cub::Warp*", rx(r"\bcub::Warp[A-Z]\w*"), None),
    ]),
    ("cluster `map_shared_rank`", [
        ("map_shared_rank", rx(r"\bmap_shared_rank\b"), None),
        ("PTX mapa", rx(r"\bmapa(?:\.shared::cluster)?(?:\.u(?:32|64))?\s"),
         None),
    ]),
    ("cluster barrier", [
        ("cluster.sync()", rx(r"\bcluster\w*\s*\.\s*sync\s*\("), None),
        ("cluster_sync / cluster_arrive* / cluster_wait",
         rx(r"\bcluster_(?:sync|arrive(?:_relaxed)?|wait)\s*\("), None),
        ("PTX barrier.cluster", rx(r"\bbarrier\.cluster\.\w+"), None),
    ]),
]

WARP_ROWS = [
    ("warp collectives, full mask (`0xffffffff`, `uint32_t(-1)`, ...)",
     "full"),
    ("warp collectives, `__activemask()` mask", "active"),
    ("warp collectives, other mask (variable, named constant, ballot)",
     "other"),
    ("`__syncwarp()` with no mask", "none"),
]


def strip_comments(text: str) -> str:
    def blank(m):
        s = m.group(0)
        if s.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", s)
        return s
    return TOKENS.sub(blank, text)


def git_commit(git_dir: str) -> str:
    return subprocess.check_output(
        ["git", "--git-dir", git_dir, "rev-parse", "HEAD"], text=True).strip()


def git_sources(git_dir: str):
    """(path, text) of HEAD's blobs with a source suffix."""
    listing = subprocess.check_output(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", "HEAD"])
    blobs = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        _, kind, sha = meta.split()
        path = path.decode("utf-8", "replace")
        if kind == b"blob" and path.endswith(SOURCE_SUFFIXES):
            blobs.append((path, sha.decode()))
    proc = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file",
                             "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    # One request at a time: writing them all first would fill both pipes.
    for path, sha in blobs:
        proc.stdin.write(sha.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if header[1] == b"missing":  # a large blob the mirror left out
            continue
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)
        yield path, data.decode("utf-8", "replace")
    proc.stdin.close()
    proc.wait()


def folder_sources(root: str):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    yield os.path.relpath(path, root), f.read()


def is_git_dir(path: str) -> bool:
    return subprocess.run(["git", "--git-dir", path, "rev-parse", "HEAD"],
                          capture_output=True).returncode == 0 and \
        os.path.isfile(os.path.join(path, "HEAD"))


def count(path: str, excludes):
    """{row: [files, sites]} for one code base, its commit, its file count."""
    rows = {}

    def add(row, sites):
        cell = rows.setdefault(row, [0, 0])
        if sites:
            cell[0] += 1
            cell[1] += sites

    git = is_git_dir(path)
    sources = git_sources(path) if git else folder_sources(path)
    files = 0
    for name, text in sources:
        if any(fnmatch.fnmatch(name, g) for g in excludes):
            continue
        files += 1
        code = strip_comments(text)
        for construct, patterns in CONSTRUCTS:
            total = 0
            for label, pattern, gate in patterns:
                if gate is not None and not gate.search(code):
                    add((construct, label), 0)
                    continue
                n = len(pattern.findall(code))
                add((construct, label), n)
                total += n
            add((construct, None), total)
        masks = warp_masks(code)
        for row, kind in WARP_ROWS:
            add((row, None), masks[kind])
    return rows, git_commit(path) if git else None, files


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bases", nargs="+", metavar="NAME=PATH")
    parser.add_argument("--patterns", action="store_true",
                        help="a row for each pattern of a construct")
    parser.add_argument("--exclude", action="append", default=[],
                        metavar="GLOB", help="skip paths matching GLOB")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()

    results = []
    for base in args.bases:
        name, sep, path = base.partition("=")
        if not sep:
            name, path = os.path.basename(os.path.normpath(base)), base
        rows, commit, files = count(path, args.exclude)
        results.append({"name": name, "path": path, "commit": commit,
                        "files": files, "rows": rows})

    order = []
    for construct, patterns in CONSTRUCTS:
        order.append((construct, None))
        if args.patterns and len(patterns) > 1:
            order.extend((construct, label) for label, _, _ in patterns)
    order.extend((row, None) for row, _ in WARP_ROWS)

    out = sys.stdout
    out.write("| construct | " + " | ".join(r["name"] for r in results) +
              " |\n|" + " --- |" * (len(results) + 1) + "\n")
    out.write("| source files read | " + " | ".join(
        str(r["files"]) for r in results) + " |\n")
    for key in order:
        construct, label = key
        title = construct if label is None else "&nbsp;&nbsp;" + label
        cells = ("%d / %d" % tuple(r["rows"].get(key, (0, 0)))
                 for r in results)
        out.write("| %s | %s |\n" % (title, " | ".join(cells)))
    out.write("\ncommits: " + "; ".join(
        "%s `%s`" % (r["name"], r["commit"] or "(folder)") for r in results)
        + "\n")

    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"name": r["name"], "commit": r["commit"],
                        "files": r["files"],
                        "rows": [{"construct": c, "pattern": p,
                                  "files": v[0], "sites": v[1]}
                                 for (c, p), v in r["rows"].items()]}
                       for r in results], f, indent=1)


if __name__ == "__main__":
    main()
