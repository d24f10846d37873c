#!/usr/bin/env python3
"""Score cuda-tidy on the oracle of real bugs (docs/real-bugs/manifest.tsv).

For each bug, the project's tree is written out twice, at the commit before the
fix (the bug) and at the fix, from a bare mirror (default
/work/.mirror/<owner>+<name>/repo, as the search tool's fetch leaves it) or,
with --clone, from a clone of GitHub. A compile_commands.json is made for the
bug's translation unit on each side with tools/corpus/make-compile-db.py, the
checker runs on that unit, and:

  found        the bug side warns with the expected check on a bug line
               (within --slack lines);
  fix silent   the fix side gives no such warning on those lines (mapped to
               the fixed file through its diff).

A side whose unit does not parse (a clang-diagnostic-error) is "unparsed";
found is counted over the bugs whose bug side parses, fix silent over the bugs
whose fix side parses. Prints a table and the totals, and writes one TSV row
per bug (--out).
"""

import argparse
import csv
import difflib
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIELDS = ["id", "project", "fix_commit", "parent_commit", "file", "kernel",
          "bug_lines", "kind", "check", "bug", "fix", "unit", "tree",
          "includes", "defines", "note"]
# Optional columns: submodules ('path=owner/name ...': the gitlink commit the
# tree records at path, written into the tree there) and fixups (names from
# FIXUPS, applied to the written trees and dependencies, never to `file`).
# flags: compiler arguments ('-std=c++20' sets the standard).
OPTIONAL = ["submodules", "fixups", "flags"]
UNITS = Path(__file__).resolve().parent / "units"
KINDS = {"race", "divergent-barrier", "bank-conflict", "dynamic-shared"}
CHECKS = {"cuda-divergent-barrier", "cuda-shared-memory-race",
          "cuda-bank-conflict", "cuda-dynamic-shared-bounds"}
# Snapshots lack blobs of 4 MiB and more; such files are left out.
MAX_BLOB = 4 * 1024 * 1024
WARNING = re.compile(r"^(.+?):(\d+):(\d+): warning: .* \[([a-z0-9.,-]+)\]$")
# The notes of a warning that name one of its two accesses (the other
# thread's access, or the access inside a helper): a warning that names a
# bug's line there located that bug's race, though it is told at the other
# access or at the call of a helper.
ACCESS_NOTE = re.compile(r"^(.+?):(\d+):(\d+): note: (the other thread's .* is here|"
                         r"the other thread's .* is made by this call|"
                         r"the \w+( \w+)? is made here, inside .*)$")


# Clang-compatibility edits of a project's (or dependency's) headers, by name:
# (path globs relative to the written tree, a string the file must hold,
# regex, replacement), applied line by line; none changes the number of lines.
FIXUPS = {
    # nvcc passes '%laneid' in an inline-asm string through, Clang's GCC-style
    # asm parser needs '%%laneid' ("invalid % escape in inline assembly string").
    "asm-percent": (("*.h", "*.cuh", "*.hpp", "*.cu"), "asm",
                    re.compile(r'(?<![%\w])%(laneid|warpid|nwarpid|smid|nsmid|lanemask_\w+|clock64|clock'
                               r'|globaltimer\w*|dynamic_smem_size|total_smem_size|gridid|ntid\.\w|tid\.\w'
                               r'|ctaid\.\w|nctaid\.\w)\b(?=[^"]*")'),
                    r"%%\1"),
    # CCCL 3.1-3.3 (2025-10 to 2026-03) declares __host__-only deduction
    # guides of cuda::std::basic_string_view, which Clang rejects in CUDA;
    # CCCL removed the annotation in 510cc9de1e.
    "cccl-string-view-guides": (("*/string_view",), "_CCCL_HOST basic_string_view(",
                                re.compile(r"^_CCCL_HOST (basic_string_view\()"), r"\1"),
    # cudf's CUDF_TYPE_MAPPING specialises a __host__ __device__ template
    # without the attributes (nvcc takes it, Clang: "target attributes do not
    # match").
    "cudf-type-mapping": (("*/type_dispatcher.hpp",), "base_type_to_id",
                          re.compile(r"^(\s*)constexpr inline type_id base_type_to_id<(\w+)>\(\)"),
                          r"\1CUDF_HOST_DEVICE constexpr inline type_id base_type_to_id<\2>()"),
    # cuCollections before 2024-11 uses thrust::identity, which CCCL 3 removed;
    # the snapshot of cuCollections ends in 2024-10, older than the RAPIDS
    # releases of 2025-26 that pin it.
    "cuco-thrust-identity": (("*/cuco/*",), "thrust::identity",
                             re.compile(r"thrust::identity(<\w+>)?"), "cuda::std::identity"),
    # Clang 19+ requires 'template' before a member template of a dependent
    # type ('Traits::rebind_alloc<T>'), nvcc and older Clang did not.
    "template-rebind-alloc": (("*.cuh", "*.hpp", "*.h", "*.inl"), "::rebind_alloc<",
                              re.compile(r"(?<!template )(\b\w+(?:<[^<>]*>)?)::rebind_alloc<"),
                              r"\1::template rebind_alloc<"),
    # 'if constexpr (this->flag)' in a member called on a runtime object:
    # Clang does not take 'this' in the constant expression, nvcc does.
    "if-constexpr-this": (("*.cuh", "*.hpp", "*.h", "*.inl"), "if constexpr (this->",
                          re.compile(r"if constexpr \(this->(\w+)\)"),
                          r"if constexpr (std::decay_t<decltype(*this)>::\1)"),
    # cuCollections 2023 defines static_{set,map}_ref::with out of line
    # without the __host__ __device__ of its declaration (nvcc merges them).
    "cuco-with-hd": (("*/cuco/detail/*.inl",), "::with(",
                     re.compile(r"^auto (static_\w+_ref<[^>]*>::with\()"), r"__host__ __device__ auto \1"),
    # xgboost's Span and BitFieldContainer give their members default
    # initialisers ('size_ {0}'), so gputreeshap's '__shared__ DatasetT s_X'
    # has a non-empty constructor for Clang (see cudf-shared-state-init).
    "xgboost-shared-init": (("include/xgboost/span.h", "src/common/bitfield.h"), "_",
                            re.compile(r"^(\s+[\w:<>*, ]+?\s\**\w+_)\s*\{\s*(0|nullptr)\s*\};"),
                            r"\1;"),
    # b40c-style ModifiedLoad/ModifiedStore specialisations are declared
    # without the __device__ of the primary template (nvcc takes it).
    "b40c-modified-io": (("*/modified_load.cuh", "*/modified_store.cuh"), "template<> template<>",
                         re.compile(r"template<> template<> void (Modified(Load|Store)<)"),
                         r"template<> template<> __device__ __forceinline__ void \1"),
    # A member class template declared with a default argument and defined
    # later in the class: Clang forgets the default ("too few template
    # arguments"); the default moves to the definition.
    "b40c-iterate-default": (("*/util/io/load_tile.cuh",), "struct Iterate",
                             [(re.compile(r"template <int LOAD, int VEC, int dummy = 0> struct Iterate;"),
                               "template <int LOAD, int VEC, int dummy> struct Iterate;"),
                              (re.compile(r"^(\s*)template <int LOAD, int VEC, int dummy>\s*$"),
                               r"\1template <int LOAD, int VEC, int dummy = 0>")]),
    # CUTLASS 2.x matrix.h calls a set_slice3x3 that does not exist (the
    # member is set_slice_3x3); Clang checks it in the uninstantiated template.
    "cutlass-set-slice": (("*/cutlass/matrix.h",), "set_slice3x3",
                          re.compile(r"\.set_slice3x3\("), ".set_slice_3x3("),
    # flash-attention's fmha gemm static_asserts read a static member through
    # a reference parameter ('a[0].NUM_REGS'), which Clang does not take as a
    # constant expression; the member is named through its type instead.
    "fmha-static-member": (("*/fmha/gemm.h",), "NUM_REGS",
                           re.compile(r"\b(\w+)((?:\[0\])+)\.NUM_REGS\b"),
                           r"std::remove_reference_t<decltype(\1\2)>::NUM_REGS"),
    # The fmha kernels do byte arithmetic on params.dqkv_ptr, a void* (a GNU
    # extension nvcc takes); the field becomes a char*.
    "fmha-dqkv-char": (("*/fmha.h",), "dqkv_ptr",
                       re.compile(r"void \* __restrict__ dqkv_ptr;"), "char * __restrict__ dqkv_ptr;"),
    # cuML FIL (2020-21) calls a member template and names a dependent type
    # without 'template'/'typename' (nvcc infers them, Clang does not).
    "fil-dependent-names": (("cpp/src/fil/*.cu",), "base_node::",
                            [(re.compile(r"\.base_node::output<"), ".base_node::template output<"),
                             (re.compile(r"(?<!typename )\bleaf_output_t<(\w+)>::T\b"),
                              r"typename leaf_output_t<\1>::T")]),
    # HIP's CUDA backend of 2021 (HOOMD's extern/HIP) calls the CUDA 12 form
    # of cuCtxCreate and the texture-reference API CUDA 12 removed; both are
    # host code no kernel reaches.
    "hip-cuda13": (("*/hip/nvcc_detail/hip_runtime_api.h",), "cuCtxCreate",
                   [(re.compile(r"cuCtxCreate\(ctx, flags, device\)"), "cuCtxCreate(ctx, nullptr, flags, device)"),
                    (re.compile(r"cudaGetTextureAlignmentOffset\(offset,\s*texref\)"), "cudaErrorNotSupported")]),
    # HOOMD 2021 includes its own cub 1.x submodule by path; under CUDA 13 the
    # toolkit's thrust brings CCCL's cub as well and the two clash ('Debug' is
    # ambiguous), so HOOMD's includes go to the toolkit's cub. Its managed
    # memory hint uses the pre-CUDA-13 cudaMemAdvise (host code).
    "hoomd-cccl": (("hoomd/*.cuh", "hoomd/*.h"), "",
                   [(re.compile(r'#include "hoomd/extern/cub/(cub/[\w/.]+)"'), r"#include <\1>"),
                    (re.compile(r"cudaMemAdvise\(ptr, sizeof\(T\) \* N, cudaMemAdviseSetReadMostly, 0\)"),
                     "cudaMemAdvise(ptr, sizeof(T) * N, cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeDevice, 0})")]),
    # HOOMD 0.8's SaruGPU defines its __device__ members out of line without
    # __device__ (nvcc matches them; Clang: "does not match any declaration").
    "saru-device": (("*/saruprngCUDA.h",), "SaruGPU::",
                    [(re.compile(r"^SaruGPU::SaruGPU\("), "__device__ SaruGPU::SaruGPU("),
                     (re.compile(r"^inline (\w[\w ]*) SaruGPU::"), r"inline __device__ \1 SaruGPU::")]),
    # A launch spelled '<< <' ... '>> >(' (clang-format of 2019 cudf): nvcc
    # takes it, Clang only takes '<<<' and '>>>'. Same launch, same line.
    "launch-spaces": (("*.cu", "*.cuh"), "<< <",
                      [(re.compile(r"<< <"), "<<<"), (re.compile(r">> >\("), ">>>(")]),
    # cudf's ORC encoder (2021) calls thrust::optional::value(), host-only,
    # in a kernel (nvcc warns, Clang refuses); '*opt' reads the same engaged
    # value. The line is the pushdown-mask lookup, away from the bug's lines.
    "cudf-optional-value": (("cpp/src/io/orc/stripe_enc.cu",), "parent_index.value()",
                            re.compile(r"chunks\[parent_index\.value\(\)\]"), "chunks[*parent_index]"),
    # cuCollections of 2021 calls members of a dependent base unqualified
    # (Clang: "explicit qualification required").
    "cuco-2021-this": (("*/cuco/detail/static_map.inl",), "_slot(",
                       re.compile(r"(?<![\w>.:])(initial_slot|next_slot)\("), r"this->\1("),
    # cudf 21.08: host code builds bounds_checker, whose constructor is
    # __device__ only, and a __device__ member reads thrust::optional::value()
    # (host-only in CCCL 2.8) of a const optional; '*opt' reads the same value.
    "cudf-2021-hd": (("cpp/include/cudf/detail/gather.cuh", "cpp/include/cudf/ast/detail/transform.cuh"), "",
                     [(re.compile(r"^(\s*)__device__ bounds_checker\("), r"\1__host__ __device__ bounds_checker("),
                      (re.compile(r"return _obj\.value\(\);"), "return *_obj;")]),
    # cudf 24.02: a constexpr operator whose device branch ends in
    # CUDF_UNREACHABLE has no return for Clang; a lambda captures 'end' and
    # takes a parameter 'end' (ill-formed, GCC and nvcc let the parameter
    # win, so the capture goes).
    "cudf-2024-misc": (("cpp/include/cudf/detail/normalizing_iterator.cuh", "cpp/src/io/parquet/page_decode.cuh"), "",
                       [(re.compile(r'^(\s*CUDF_UNREACHABLE\("only integral types are supported"\);)$'), r"\1 return 0;"),
                        (re.compile(r"\[s, lvl, end, level_bits\]\(uint8_t const\* cur, uint8_t const\* end\)"),
                         "[s, lvl, level_bits](uint8_t const* cur, uint8_t const* end)")]),
    # Kokkos 4.2's CUDA wrappers call three runtime functions whose signatures
    # CUDA 13 changed (an edge-data array, a cudaMemLocation, prefetch flags);
    # host code, called with the CUDA 12 meaning.
    "kokkos-cuda13": (("core/src/Cuda/Kokkos_Cuda_Instance.hpp",), "cudaMemAdvise",
                      [(re.compile(r"cudaGraphAddDependencies\(graph, from, to, numDependencies\)"),
                        "cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies)"),
                       (re.compile(r"cudaMemAdvise\(devPtr, count, advice, device\)"),
                        "cudaMemAdvise(devPtr, count, advice, cudaMemLocation{cudaMemLocationTypeDevice, device})"),
                       (re.compile(r"cudaMemPrefetchAsync\(devPtr, count, dstDevice,"),
                        "cudaMemPrefetchAsync(devPtr, count, cudaMemLocation{cudaMemLocationTypeDevice, dstDevice}, 0,")]),
    # cudf's parquet page state structs give their members default
    # initialisers ('int32_t x{};'); nvcc lets such a struct be __shared__,
    # Clang allows only empty constructors ("initialization is not supported
    # for __shared__ variables"). The initialisers go (device code never relies
    # on them: the kernels fill the state).
    "cudf-shared-state-init": (("cpp/src/io/parquet/*.cuh", "cpp/src/io/parquet/*.hpp"), "struct",
                               [(re.compile(r"^(\s+(?!static|constexpr|return|using)[^=(){};]*[\w\]])\{\};"),
                                 r"\1;"),
                                # (then the empty constructors cannot be constexpr in C++17)
                                # (constexpr made them __host__ __device__ implicitly)
                                (re.compile(r"^(\s*(?:CUDF_HOST_DEVICE )?)constexpr (\w+\(\) noexcept \{\};?)\s*$"),
                                 r"\1__host__ __device__ \2")]),
}


class InputError(Exception):
    pass


def parse_lines(spec):
    """'12,15-18' -> [(12, 12), (15, 18)]."""
    ranges = []
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise InputError(f"bad bug_lines item {part!r}")
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        if hi < lo:
            raise InputError(f"bad bug_lines range {part!r}")
        ranges.append((lo, hi))
    return ranges


def read_manifest(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
    except OSError as e:
        raise InputError(f"cannot read manifest {path}: {e.strerror}")
    if not rows:
        raise InputError(f"manifest {path} has no bugs")
    missing = [k for k in FIELDS if k not in rows[0]]
    if missing:
        raise InputError(f"manifest {path} lacks columns: {', '.join(missing)}")
    seen = set()
    for n, r in enumerate(rows, start=2):
        where = f"{path}:{n}"
        if r["id"] in seen:
            raise InputError(f"{where}: duplicate id {r['id']!r}")
        seen.add(r["id"])
        if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", r["project"] or ""):
            raise InputError(f"{where}: project must be owner/name")
        for k in ("fix_commit", "parent_commit"):
            if not re.fullmatch(r"[0-9a-f]{40}", r[k] or ""):
                raise InputError(f"{where}: {k} must be 40 hex digits")
        if r["kind"] not in KINDS:
            raise InputError(f"{where}: kind must be one of {sorted(KINDS)}")
        if r["check"] not in CHECKS:
            raise InputError(f"{where}: check must be one of {sorted(CHECKS)}")
        if not r["file"] or not r["unit"]:
            raise InputError(f"{where}: file and unit are required")
        for k in OPTIONAL:
            r[k] = r.get(k) or ""
        for name in r["fixups"].split():
            name = name.rstrip("!")
            if name not in FIXUPS:
                raise InputError(f"{where}: unknown fixup {name!r} (known: {', '.join(FIXUPS)})")
        for sub in r["submodules"].split():
            if not re.fullmatch(r"[^=\s]+=[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", sub):
                raise InputError(f"{where}: submodule must be path=owner/name, not {sub!r}")
        if r["unit"].startswith("units/") and not (UNITS / r["unit"][len("units/"):].partition("@")[0]).is_file():
            raise InputError(f"{where}: stand-in unit {r['unit']} is not in {UNITS}")
        try:
            r["ranges"] = parse_lines(r["bug_lines"] or "")
        except InputError as e:
            raise InputError(f"{where}: {e}")
    return rows


class Sources:
    """Git directories of the projects: mirrors, or clones made on request."""

    def __init__(self, mirror_root, clone, clone_dir):
        self.mirror_root = Path(mirror_root)
        self.clone = clone
        self.clone_dir = Path(clone_dir)

    def gitdir(self, project):
        name = project.replace("/", "+")
        for cand in (self.mirror_root / name / "repo" / ".git",
                     self.mirror_root / name / "repo",
                     self.clone_dir / name):
            if (cand / "objects").is_dir():
                return cand
        if not self.clone:
            raise InputError(f"no mirror of {project} under {self.mirror_root}"
                             " (fetch it, or pass --clone)")
        dest = self.clone_dir / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        url = f"https://github.com/{project}.git"
        print(f"cloning {url} ...", file=sys.stderr)
        if subprocess.run(["git", "clone", "--bare", "--quiet", url, str(dest)]).returncode:
            raise InputError(f"git clone of {url} failed")
        return dest


def git(gitdir, *args, **kw):
    return subprocess.run(["git", "--git-dir", str(gitdir), *args],
                          capture_output=True, check=False, **kw)


def materialize(gitdir, commit, subtrees, dest):
    """Write the files of COMMIT under SUBTREES (all if empty) into DEST.
    Returns the number of files left out (blobs missing or too large)."""
    if (dest / ".complete").exists():
        return int((dest / ".complete").read_text() or 0)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if git(gitdir, "cat-file", "-e", f"{commit}^{{commit}}").returncode:
        raise InputError(f"commit {commit} is not in {gitdir}")
    ls = git(gitdir, "ls-tree", "-r", "-l", "-z", commit, "--", *subtrees)
    if ls.returncode:
        raise InputError(f"cannot list {commit} in {gitdir}: {ls.stderr.decode().strip()}")
    wanted = []
    left_out = 0
    for entry in ls.stdout.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha, size = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        if not size.isdigit() or int(size) >= MAX_BLOB:
            left_out += 1
            continue
        wanted.append((sha.decode(), path.decode()))
    proc = subprocess.Popen(["git", "--git-dir", str(gitdir), "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    # Feed the names from a thread: a large tree fills git's output pipe
    # before all names are written.
    def feed():
        proc.stdin.write("".join(f"{sha}\n" for sha, _ in wanted).encode())
        proc.stdin.close()
    feeder = threading.Thread(target=feed)
    feeder.start()
    for sha, path in wanted:
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            left_out += 1  # "<sha> missing": the snapshot lacks it
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        out = dest / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    feeder.join()
    proc.wait()
    (dest / ".complete").write_text(str(left_out))
    return left_out


def fixup_edits(name):
    """The (regex, replacement) pairs of a fixup."""
    entry = FIXUPS[name.rstrip("!")]
    return entry[2] if isinstance(entry[2], list) else [(entry[2], entry[3])]


def fixup_stamp(names):
    """What a tree's fixups were: their names and definitions."""
    return repr([(n, FIXUPS[n.rstrip("!")][:2], [(p.pattern, r) for p, r in fixup_edits(n)])
                 for n in names.split()])


def fresh_tree(root, names):
    """Remove a written tree whose fixups differ from NAMES' (edits are not
    undone in place: the tree is written again)."""
    if (root / ".complete").exists():
        marker = root / ".fixups"
        done = marker.read_text() if marker.exists() else fixup_stamp("")
        if done != fixup_stamp(names):
            shutil.rmtree(root)


def apply_fixups(root, names, keep):
    """Apply the named FIXUPS to the files under ROOT (once: a marker file
    records it), except KEEP (the bug's own file stays the project's) unless
    the name ends in '!': a keyword Clang requires and nvcc infers, on lines
    away from the shared-memory accesses and barriers of the bug."""
    marker = root / ".fixups"
    stamp = fixup_stamp(names)
    if marker.exists() and marker.read_text() == stamp:
        return
    for name in names.split():
        globs, needle = FIXUPS[name.rstrip("!")][:2]
        edits = fixup_edits(name)
        for path in root.rglob("*"):
            if not path.is_file() or (path == keep and not name.endswith("!")):
                continue
            rel = str(path.relative_to(root))
            if not any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch("/" + rel, g) for g in globs):
                continue
            text = path.read_text(errors="surrogateescape")
            if needle not in text:
                continue
            lines = text.split("\n")
            new = lines
            for pattern, repl in edits:
                new = [pattern.sub(repl, line) for line in new]
            if new != lines:
                path.write_text("\n".join(new), errors="surrogateescape")
    marker.write_text(stamp)


def dependency_commit(gitdir, date):
    """The dependency's newest commit on its default branch no later than
    DATE (the bug's commit date), so that its headers match the project's."""
    rev = git(gitdir, "rev-list", "-1", "--first-parent", f"--before={date}", "HEAD")
    rev = rev.stdout.decode().strip()
    if not rev:
        rev = git(gitdir, "rev-list", "--max-parents=0", "HEAD").stdout.decode().split()[-1]
    return rev


def include_args(bug, root, sources, deps_dir, date):
    """-I arguments: tree-relative dirs, '@owner+name:dir[|dir2]' (a dependency's
    mirror at its commit of DATE), '*dirs:dir' (every folder below dir that
    holds a header: for old codebases that include by bare file name)."""
    args = []
    for tok in (bug["includes"] or "").split():
        if tok.startswith("@"):
            name, _, sub = tok[1:].partition(":")
            # '@owner+name@<commit>:dir' pins the dependency to a commit.
            name, _, pin = name.partition("@")
            project = name.replace("+", "/", 1)
            depgit = sources.gitdir(project)
            rev = pin or dependency_commit(depgit, date)
            if pin:
                full = git(depgit, "rev-parse", "--verify", f"{pin}^{{commit}}")
                if full.returncode:
                    raise InputError(f"{bug['id']}: {project} has no commit {pin}")
                rev = full.stdout.decode().strip()
            # 'a|b': the first folder that exists at that commit (projects
            # move their include folder).
            subs = sub.split("|") if sub else [""]
            sub = next((c for c in subs if not c or git(
                depgit, "cat-file", "-e", f"{rev}:{c}").returncode == 0), subs[0])
            # One folder per (dependency, commit, subfolder): a dependency
            # named twice with two subfolders gets both.
            # A dependency edited by fixups gets a folder of its own per set of
            # fixups (bugs sharing it may name different ones).
            fx = bug["fixups"].split()
            tag = "" if not fx else "-fx" + hashlib.sha1(fixup_stamp(bug["fixups"]).encode()).hexdigest()[:8]
            dep = deps_dir / f"{name}@{rev[:12]}" / ((sub.replace("/", "+") or "_all") + tag)
            materialize(depgit, rev, [sub] if sub else [], dep)
            apply_fixups(dep, bug["fixups"], None)
            args += ["-I", str(dep / sub)]
        elif tok.startswith("units:"):
            # A folder of stand-in headers written for the oracle
            # (tools/real-bugs/units/...), e.g. a few declarations of a
            # framework the kernels barely use.
            d = UNITS / tok[len("units:"):]
            if not d.is_dir():
                raise InputError(f"{bug['id']}: no folder {d}")
            args += ["-I", str(d)]
        elif tok.startswith("*dirs:"):
            base = root / tok[len("*dirs:"):]
            dirs = sorted({p.parent for p in base.rglob("*")
                           if p.suffix in (".h", ".cuh", ".hpp", ".hh")})
            for d in dirs:
                args += ["-I", str(d)]
        else:
            args += ["-I", str(root / tok)]
    return args


def run_side(bug, side, commit, args, sources):
    work = Path(args.work) / bug["id"]
    root = work / side
    subtrees = (bug["tree"] or "").split()
    projgit = sources.gitdir(bug["project"])
    fresh_tree(root, bug["fixups"])
    left_out = materialize(projgit, commit, subtrees, root)
    for sub in bug["submodules"].split():
        path, _, project = sub.partition("=")
        ls = git(projgit, "ls-tree", commit, "--", path).stdout.decode().split()
        if len(ls) < 3 or ls[1] != "commit":
            raise InputError(f"{bug['id']}: {commit[:12]} records no submodule at {path}")
        subgit = sources.gitdir(project)
        if git(subgit, "cat-file", "-e", f"{ls[2]}^{{commit}}").returncode:
            raise InputError(f"{bug['id']}: {project} lacks the submodule commit {ls[2]}")
        left_out += materialize(subgit, ls[2], [], root / path)
    apply_fixups(root, bug["fixups"], root / bug["file"])
    unit_rel = bug["unit"]
    if unit_rel.startswith("units/"):
        # A stand-in unit written here: placed beside the bug's file, so that
        # it includes that file by its bare name, or in the folder named after
        # '@' ('units/x.cu@oracle'): make-compile-db.py gives the nearest
        # folder with a CMakeLists.txt as -idirafter, and Clang then drops
        # the same folder's -I (a project whose include root holds its
        # CMakeLists.txt, like CCCL's cub/); copied afresh every run.
        name, _, where = unit_rel[len("units/"):].partition("@")
        src = UNITS / name
        unit_rel = str(Path(where or Path(bug["file"]).parent) / f"oracle-{src.name}")
        (root / unit_rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, root / unit_rel)
    unit = root / unit_rel
    result = {"status": "", "warnings": [], "left_out": left_out, "text": None}
    target = root / bug["file"]
    if target.exists():
        result["text"] = target.read_text(errors="replace").splitlines()
    if not unit.exists():
        result["status"] = "no-unit"
        return result
    db = work / f"db-{side}"
    db.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(REPO / "tools/corpus/make-compile-db.py"), "-o", str(db),
           "--unit", unit_rel, "--under", str(Path(unit_rel).parent)]
    date = git(sources.gitdir(bug["project"]), "log", "-1", "--format=%cI",
               bug["parent_commit"]).stdout.decode().strip()
    cmd += include_args(bug, root, sources, Path(args.work) / "_deps", date)
    for d in (bug["defines"] or "").split():
        cmd += ["-D", d]
    for f in bug["flags"].split():
        cmd += ["--std", f[len("-std="):]] if f.startswith("-std=") else [f"--extra-arg={f}"]
    cmd.append(str(root))
    made = subprocess.run(cmd, capture_output=True, text=True)
    if made.returncode:
        raise InputError(f"{bug['id']}: make-compile-db.py failed: {made.stderr.strip()}")
    dbfile = db / "compile_commands.json"
    entries = [e for e in json.loads(dbfile.read_text())
               if Path(e["file"]).resolve() == unit.resolve()]
    if not entries:
        result["status"] = "no-unit"
        return result
    dbfile.write_text(json.dumps(entries, indent=1))
    # --config, not --checks: the projects' own .clang-tidy files would be
    # merged in (and some no longer parse under Clang 22).
    config = json.dumps({"Checks": f"-*,{args.checks}", "HeaderFilterRegex": ".*"})
    tidy = ["nice", args.tidy, "-p", str(db), f"--config={config}", str(unit)]
    try:
        proc = subprocess.run(tidy, capture_output=True, text=True, errors="replace",
                              timeout=args.timeout)
        log = proc.stdout + proc.stderr
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        result["status"] = "timeout"
        return result
    (work / f"{side}.log").write_text(log)
    # cuda-tidy's own errors (a plugin it cannot find, an unreadable
    # database) end the run before any unit is analysed.
    if ("USAGE: clang-tidy" in log or "Error: no checks enabled" in log
            or re.search(r"^cuda-tidy: error: ", log, re.M)):
        raise InputError(f"{bug['id']}: the checker did not run (see {work / (side + '.log')})")
    # Any error-level diagnostic (also a warning that defaults to an error,
    # tagged with its own clang-diagnostic-<name>) means the AST is not the
    # program's.
    if re.search(r"^\S.*?:\d+:\d+: error: ", log, re.M) or "[clang-diagnostic-error]" in log:
        result["status"] = "unparsed"
    elif rc >= 128 or "Stack dump:" in log:
        result["status"] = "crashed"
    else:
        result["status"] = "ok"
    current = None
    for line in log.splitlines():
        m = WARNING.match(line)
        if m:
            current = None
            if not m.group(4).startswith("clang-diagnostic"):
                current = (m.group(1), int(m.group(2)), m.group(4).split(","), [])
                result["warnings"].append(current)
            continue
        n = ACCESS_NOTE.match(line)
        if n and current is not None:
            current[3].append((n.group(1), int(n.group(2))))
    return result


def map_ranges(old, new, ranges):
    """Map line ranges of OLD onto NEW through their diff; a changed line maps
    to the span its replacement occupies."""
    if old is None or new is None:
        return ranges
    mapping = {}
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for i in range(i1, i2):
            if tag == "equal":
                mapping[i + 1] = (j1 + i - i1 + 1, j1 + i - i1 + 1)
            else:
                mapping[i + 1] = (j1 + 1, max(j1 + 1, j2))
    out = []
    for lo, hi in ranges:
        spans = [mapping.get(i, (i, i)) for i in range(lo, hi + 1)]
        out.append((min(s[0] for s in spans), max(s[1] for s in spans)))
    return out


def hits(result, bug, ranges, slack, notes=False):
    """Lines of warnings of the bug's check near a bug line; with notes, also
    warnings one of whose access notes is near one (the warning's line is
    then the one listed)."""
    target = os.path.normpath(bug["file"])

    def near(path, line):
        return (os.path.normpath(path).endswith(target) and
                any(lo - slack <= line <= hi + slack for lo, hi in ranges))

    found = []
    for path, line, checks, access_notes in result["warnings"]:
        if bug["check"] not in checks:
            continue
        if near(path, line) or (notes and any(near(p, l) for p, l in access_notes)):
            found.append(line)
    return sorted(set(found))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", default=str(REPO / "docs/real-bugs/manifest.tsv"))
    ap.add_argument("--mirror-root", default="/work/.mirror",
                    help="folder of <owner>+<name>/repo bare mirrors (default: %(default)s)")
    ap.add_argument("--clone", action="store_true",
                    help="git clone a project from GitHub when no mirror holds it")
    ap.add_argument("--tidy", default=str(REPO / "build/bin/cuda-tidy"),
                    help="the checker (default: build/bin/cuda-tidy)")
    ap.add_argument("--checks", default="cuda-*", help="checks to enable (default: cuda-*)")
    ap.add_argument("--work", default="/tmp/real-bugs-work",
                    help="where the trees, databases and logs go (kept between runs)")
    ap.add_argument("--only", action="append", default=[], metavar="ID",
                    help="score only this bug (repeatable)")
    ap.add_argument("--slack", type=int, default=3,
                    help="lines a warning may sit from a bug line (default: 3)")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds one checker run may take (default: 600)")
    ap.add_argument("--out", default="real-bugs-results.tsv", help="per-bug outcomes TSV")
    args = ap.parse_args()

    try:
        bugs = read_manifest(args.manifest)
        if args.only:
            unknown = set(args.only) - {b["id"] for b in bugs}
            if unknown:
                raise InputError(f"unknown bug ids: {', '.join(sorted(unknown))}")
            bugs = [b for b in bugs if b["id"] in args.only]
        if not (os.path.isfile(args.tidy) and os.access(args.tidy, os.X_OK)):
            raise InputError(f"checker not found or not executable: {args.tidy}")
        if not args.clone and not Path(args.mirror_root).is_dir():
            raise InputError(f"mirror root {args.mirror_root} is not a folder (or pass --clone)")
        sources = Sources(args.mirror_root, args.clone, Path(args.work) / "_clones")
        rows = []
        for bug in bugs:
            print(f"{bug['id']} ...", file=sys.stderr, flush=True)
            par = run_side(bug, "parent", bug["parent_commit"], args, sources)
            fix = run_side(bug, "fix", bug["fix_commit"], args, sources)
            fix_ranges = map_ranges(par["text"], fix["text"], bug["ranges"])
            par_hits = hits(par, bug, bug["ranges"], args.slack)
            fix_hits = hits(fix, bug, fix_ranges, args.slack)
            par_named = hits(par, bug, bug["ranges"], args.slack, notes=True)
            fix_named = hits(fix, bug, fix_ranges, args.slack, notes=True)
            rows.append({
                "id": bug["id"], "project": bug["project"], "kind": bug["kind"],
                "check": bug["check"],
                "bug_status": par["status"], "fix_status": fix["status"],
                "found": ("yes" if par_hits else "no") if par["status"] == "ok" else "-",
                "fix_silent": ("no" if fix_hits else "yes") if fix["status"] == "ok" else "-",
                "found_named": ("yes" if par_named else "no") if par["status"] == "ok" else "-",
                "fix_silent_named": ("no" if fix_named else "yes") if fix["status"] == "ok" else "-",
                "bug_hits": ",".join(map(str, par_hits)),
                "fix_hits": ",".join(map(str, fix_hits)),
                "bug_warnings": len(par["warnings"]), "fix_warnings": len(fix["warnings"]),
                "files_left_out": par["left_out"] + fix["left_out"],
            })
    except InputError as e:
        print(f"score.py: error: {e}", file=sys.stderr)
        return 2

    cols = list(rows[0].keys()) if rows else []
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    fmt = "{:<32} {:<18} {:<9} {:<9} {:<6} {:<6} {:<6} {:<6}"
    print(fmt.format("bug", "kind", "bug side", "fix side", "found", "silent",
                     "named", "silent"))
    for r in rows:
        print(fmt.format(r["id"], r["kind"], r["bug_status"], r["fix_status"],
                         r["found"], r["fix_silent"], r["found_named"],
                         r["fix_silent_named"]))
    parsed = [r for r in rows if r["bug_status"] == "ok"]
    parsed_fix = [r for r in rows if r["fix_status"] == "ok"]
    print(f"bugs: {len(rows)}; bug side parses: {len(parsed)}; fix side parses: {len(parsed_fix)}")
    print(f"found: {sum(r['found'] == 'yes' for r in parsed)} / {len(parsed)}")
    print(f"fix silent: {sum(r['fix_silent'] == 'yes' for r in parsed_fix)} / {len(parsed_fix)}")
    print(f"found, a note naming the line: {sum(r['found_named'] == 'yes' for r in parsed)} / {len(parsed)}")
    print(f"fix silent, notes too: "
          f"{sum(r['fix_silent_named'] == 'yes' for r in parsed_fix)} / {len(parsed_fix)}")
    print(f"per-bug outcomes: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
