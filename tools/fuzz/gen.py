#!/usr/bin/env python3
"""Seeded generator of small, complete CUDA programs for cuda-tidy's checks.

Each seed gives one program: a kernel in a realistic shape (block reduction,
scan, stencil with halo, tiled transpose, tiled matrix product, histogram),
its host `main` with fixed inputs and a CPU reference, and at most one
planted defect of a kind one of the four checks claims. The first line of
the program is a machine-readable header:

    // FUZZ: {"seed": 7, "shape": "reduce", "plant": "race-raw-missing-barrier", ...}

with the expected verdict of each check (what the plant should make it say)
and the hardware oracle of each check (the tools whose findings label the
program on a GPU; see README.md). The generator is pure Python 3 (standard
library only) so that it runs wherever lit runs, here and on the GPU machine,
and a seed gives byte-identical output everywhere (random.Random(seed) is
specified to be stable across platforms and Python versions for the calls
used here: randrange, choice, random).

    gen.py --seeds 0:300 --out DIR        writes DIR/fz<seed>.cu
    gen.py --seed 7                       prints one program
"""

import argparse
import json
import os
import random
import sys

CHECKS = ("cuda-divergent-barrier", "cuda-shared-memory-race",
          "cuda-bank-conflict", "cuda-dynamic-shared-bounds")

# Which check each planted defect is for.
PLANT_CHECK = {
    "barrier-split-inside-warp": "cuda-divergent-barrier",
    "barrier-split-warp-boundary": "cuda-divergent-barrier",
    "barrier-thread-trip-count": "cuda-divergent-barrier",
    "barrier-helper-early-return": "cuda-divergent-barrier",
    "race-raw-missing-barrier": "cuda-shared-memory-race",
    "race-war-missing-barrier": "cuda-shared-memory-race",
    "race-waw-missing-barrier": "cuda-shared-memory-race",
    "race-missing-loop-barrier": "cuda-shared-memory-race",
    "bank-unpadded-column": "cuda-bank-conflict",
    "dynshared-bytes-too-small": "cuda-dynamic-shared-bounds",
}

PLANT_MARK = "// FUZZ-PLANT"

HOST_PRELUDE = r"""#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: CUDA error: %s returned %s\n", __FILE__,    \
                   __LINE__, #call, cudaGetErrorString(err_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
"""


class Program:
    """What a shape builder fills in; render() turns it into source."""

    def __init__(self, seed, shape):
        self.seed = seed
        self.shape = shape
        self.meta = {}
        self.plant = None
        self.plant_detail = ""
        self.kernel_name = ""
        self.file_scope = []      # declarations before the kernel
        self.helpers = []         # __device__ functions
        self.kernel = ""          # the __global__ function
        self.elem = "int"         # element type of in/out
        self.n_in = 0
        self.n_out = 0
        self.input_expr = "(i * 37 + 11) % 101"
        self.reference = ""       # body of void reference(const T*, T*)
        self.launch = ""          # statements that launch the kernel
        self.ncu = None           # {"kernel", "op", "ideal"} for bank oracle
        self.extra_host = ""      # host declarations before main
        self.force_dynamic = False  # the plant needs launch bytes

    def set_plant(self, kind, detail=""):
        assert kind in PLANT_CHECK, kind
        self.plant = kind
        self.plant_detail = detail

    def render(self):
        expect = {c: "silent" for c in CHECKS}
        if self.plant:
            expect[PLANT_CHECK[self.plant]] = "warn"
        oracle = {
            "cuda-divergent-barrier": ["synccheck", "hang"],
            "cuda-shared-memory-race": ["racecheck"],
            "cuda-bank-conflict": ["ncu"] if self.ncu else [],
            "cuda-dynamic-shared-bounds": ["memcheck"],
        }
        if self.plant and self.plant.startswith("barrier-"):
            # synccheck is blind to a split between whole warps
            # (GPU-FACTS.md): the data the barrier should have ordered shows
            # the defect instead, and that race is the barrier's, not a race
            # the race check should report on its own.
            oracle["cuda-divergent-barrier"] += ["racecheck", "result"]
            oracle["cuda-shared-memory-race"] = []
            # Threads past a skipped barrier do touch the data unordered:
            # the race check may name that too.
            expect["cuda-shared-memory-race"] = "either"
        if self.plant == "dynshared-bytes-too-small":
            # The first access past the pool ends the kernel with an
            # illegal-address error: outside memcheck the run says nothing
            # about barriers, races or banks.
            for check in CHECKS[:3]:
                oracle[check] = []
        body = []
        body.append(HOST_PRELUDE)
        body.extend(self.file_scope)
        body.extend(self.helpers)
        body.append(self.kernel)
        t = self.elem
        if self.extra_host:
            body.append(self.extra_host)
        body.append("void reference(const %s *in, %s *expected) {\n%s}\n" %
                    (t, t, self.reference))
        body.append(MAIN_TEMPLATE % {
            "t": t, "n_in": self.n_in, "n_out": self.n_out,
            "input": self.input_expr, "launch": self.launch})
        text = "\n".join(body)
        lines = text.split("\n")
        plant_lines = [i + 3 for i, line in enumerate(lines)
                       if PLANT_MARK in line]
        header = {
            "seed": self.seed,
            "shape": self.shape,
            **self.meta,
            "plant": self.plant or "none",
            "plant_detail": self.plant_detail,
            "plant_lines": plant_lines,
            "kernel": self.kernel_name,
            "expect": expect,
            "oracle": oracle,
        }
        if self.ncu:
            header["ncu"] = self.ncu
        first = "// FUZZ: " + json.dumps(header, sort_keys=True)
        second = ("// Generated by tools/fuzz/gen.py --seed %d; the header "
                  "above is machine-readable." % self.seed)
        return first + "\n" + second + "\n" + text


MAIN_TEMPLATE = r"""int main() {
  static %(t)s hostIn[%(n_in)d], hostOut[%(n_out)d], expected[%(n_out)d];
  for (int i = 0; i < %(n_in)d; ++i)
    hostIn[i] = (%(t)s)(%(input)s);
  reference(hostIn, expected);

  %(t)s *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
%(launch)s  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < %(n_out)d; ++i)
    if (hostOut[i] != expected[i])
      ++wrong;
  if (wrong) {
    std::printf("%%d of %%d values differ from the CPU reference\n", wrong,
                %(n_out)d);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
"""


def split_kind(cut):
    """The barrier plant a cut at linear thread `cut` makes: the threads
    below it take the barrier, the others do not."""
    if cut % 32:
        return "barrier-split-inside-warp"
    return "barrier-split-warp-boundary"


def shared_array(p, rng, name, elem, dims):
    """Declares a shared array `name` of `dims` in one of the three storage
    forms (p.meta["smem"]) and returns (declaration inside the kernel,
    indexer, element count of a dynamic pool whose dims are all numbers,
    else None). Dynamic arrays are flat pools indexed by hand."""
    form = rng.choice(["static", "filescope", "dynamic"])
    if p.force_dynamic:
        form = "dynamic"
    p.meta["smem"] = form
    dims_text = "".join("[%s]" % d for d in dims)
    if form == "static":
        return ("  __shared__ %s %s%s;\n" % (elem, name, dims_text),
                lambda *ix: name + "".join("[%s]" % i for i in ix), None)
    if form == "filescope":
        p.file_scope.append("__shared__ %s %s%s;\n" % (elem, name, dims_text))
        return ("", lambda *ix: name + "".join("[%s]" % i for i in ix), None)
    pool_in_kernel = rng.random() < 0.5
    decl = "extern __shared__ %s %s[];\n" % (elem, name)
    if pool_in_kernel:
        inner = "  " + decl
    else:
        p.file_scope.append(decl)
        inner = ""

    def flat(*ix):
        if len(ix) == 1:
            return "%s[%s]" % (name, ix[0])
        return "%s[(%s) * (%s) + %s]" % (name, ix[0], dims[1], ix[1])

    count = 1
    for d in dims:
        if not isinstance(d, int):
            return inner, flat, None
        count *= d
    return inner, flat, count


# --------------------------------------------------------------------------
# Shapes. Each takes (p, rng, plant) where plant is the defect chosen for
# this seed (or None) among the ones the shape supports, and fills p.


def shape_reduce(p, rng, plant):
    threads = rng.choice([64, 128, 256, 512, 1024])
    blocks = rng.choice([1, 2, 4])
    two_d = threads >= 64 and rng.random() < 0.3
    use_const = rng.random() < 0.5
    helper = rng.random() < 0.5 or plant == "barrier-helper-early-return"
    cut = None
    n = threads * blocks
    if plant in ("barrier-split-inside-warp", "barrier-split-warp-boundary",
                 "barrier-helper-early-return"):
        inside = plant == "barrier-split-inside-warp" or (
            plant == "barrier-helper-early-return" and rng.random() < 0.5)
        cut = rng.choice([3, 17, 45]) if inside else 32 * rng.choice([1, 2])
        cut = min(cut, threads - 1)
        n = threads * blocks - threads + cut
        if plant != "barrier-helper-early-return":
            plant = split_kind(cut)
    elif rng.random() < 0.4:
        n = threads * blocks - rng.choice([1, 7, 40])
    p.meta.update(block=[32, threads // 32] if two_d else [threads, 1],
                  grid=[blocks, 1], helper=helper, guard=True, n=n)
    p.kernel_name = "blockReduce"
    decl, at, count = shared_array(p, rng, "partial", "int", [threads])
    bdim = "kBlock" if use_const else (
        "(blockDim.x * blockDim.y)" if two_d else "blockDim.x")
    if use_const:
        p.file_scope.insert(0, "constexpr int kBlock = %d;\n" % threads)
    tid = ("threadIdx.x + threadIdx.y * blockDim.x" if two_d else
           "threadIdx.x")
    k = []
    k.append("__global__ void blockReduce(const int *in, int *out, int n) {\n")
    k.append(decl)
    k.append("  int t = %s;\n" % tid)
    k.append("  int i = blockIdx.x * %s + t;\n" % bdim)
    if plant == "barrier-helper-early-return":
        p.helpers.append(
            "// Stages this thread's input in shared memory for the block.\n"
            "__device__ void stageInput(int *slot, const int *in, int i, int n) {\n"
            "  *slot = 0;\n"
            "  if (i >= n)\n"
            "    return; %s\n"
            "  *slot = in[i];\n"
            "  __syncthreads();\n"
            "}\n" % PLANT_MARK)
        k.append("  stageInput(&%s, in, i, n);\n" % at("t"))
        k.append("  __syncthreads();\n")
    else:
        if helper:
            p.helpers.append(
                "__device__ int loadOrZero(const int *in, int i, int n) {\n"
                "  return i < n ? in[i] : 0;\n"
                "}\n")
            k.append("  %s = loadOrZero(in, i, n);\n" % at("t"))
        else:
            k.append("  %s = (i < n) ? in[i] : 0;\n" % at("t"))
        if plant == "race-raw-missing-barrier":
            k.append("  %s\n" % PLANT_MARK)
        elif plant and plant.startswith("barrier-split"):
            k.append("  if (i < n)\n    __syncthreads(); %s\n" % PLANT_MARK)
        else:
            k.append("  __syncthreads();\n")
    if plant == "barrier-thread-trip-count":
        k.append("  for (int s = %s / 2; s > t; s >>= 1) { %s\n" %
                 (bdim, PLANT_MARK))
        k.append("    %s += %s;\n" % (at("t"), at("t + s")))
        k.append("    __syncthreads();\n  }\n")
    else:
        # The modern tail: the last warp finishes with shuffles, reading the
        # two halves the last barrier published.
        warp_tail = threads >= 128 and rng.random() < 0.4
        p.meta["warp_tail"] = warp_tail
        k.append("  for (int s = %s / 2; s > %d; s >>= 1) {\n" %
                 (bdim, 32 if warp_tail else 0))
        k.append("    if (t < s)\n      %s += %s;\n" % (at("t"), at("t + s")))
        if plant == "race-missing-loop-barrier":
            k.append("    %s\n" % PLANT_MARK)
        else:
            k.append("    __syncthreads();\n")
        k.append("  }\n")
        if warp_tail:
            k.append("  if (t < 32) {\n")
            k.append("    int v = %s + %s;\n" % (at("t"), at("t + 32")))
            k.append("    for (int offset = 16; offset > 0; offset >>= 1)\n")
            k.append("      v += __shfl_down_sync(0xffffffffu, v, offset);\n")
            k.append("    if (t == 0)\n      out[blockIdx.x] = v;\n  }\n}\n")
    if not p.meta.get("warp_tail"):
        k.append("  if (t == 0)\n    out[blockIdx.x] = %s;\n}\n" % at("0"))
    p.kernel = "".join(k)
    p.n_in = threads * blocks
    p.n_out = blocks
    p.reference = (
        "  for (int b = 0; b < %d; ++b) {\n"
        "    int sum = 0;\n"
        "    for (int j = 0; j < %d; ++j)\n"
        "      if (b * %d + j < %d)\n"
        "        sum += in[b * %d + j];\n"
        "    expected[b] = sum;\n"
        "  }\n" % (blocks, threads, threads, n, threads))
    block = "dim3(32, %d)" % (threads // 32) if two_d else str(threads)
    p.launch = launch_line(p, rng, plant, "blockReduce", str(blocks), block,
                           count, "int", "in, out, %d" % n,
                           GENERIC_OVERFLOWS)
    return plant


GENERIC_OVERFLOWS = {"bytes-without-sizeof": None, "half": None,
                     "no-bytes": None}


def launch_line(p, rng, plant, kernel, grid, block, count, elem, args,
                overflow_kinds, bytes_expr=None):
    """The launch statement; for a dynamic pool, its byte count (too small
    when the plant is dynshared-bytes-too-small: one of overflow_kinds, a
    generic kind or a name with the shape's own byte count)."""
    if count is None:
        return "  %s<<<%s, %s>>>(%s);\n" % (kernel, grid, block, args)
    if bytes_expr is None:
        bytes_expr = "%d * sizeof(%s)" % (count, elem)
    mark = ""
    if plant == "dynshared-bytes-too-small":
        kind = rng.choice(list(overflow_kinds))
        p.plant_detail = kind
        mark = " " + PLANT_MARK
        if kind == "bytes-without-sizeof":
            bytes_expr = "%d" % count
        elif kind == "half":
            bytes_expr = "%d * sizeof(%s)" % (count // 2, elem)
        elif kind == "no-bytes":
            return "  %s<<<%s, %s>>>(%s);%s\n" % (kernel, grid, block, args,
                                                  mark)
        else:
            bytes_expr = overflow_kinds[kind]
    if rng.random() < 0.5:
        return ("  size_t sharedBytes = %s;\n"
                "  %s<<<%s, %s, sharedBytes>>>(%s);%s\n" %
                (bytes_expr, kernel, grid, block, args, mark))
    return "  %s<<<%s, %s, %s>>>(%s);%s\n" % (kernel, grid, block, bytes_expr,
                                              args, mark)


def shape_scan(p, rng, plant):
    threads = rng.choice([64, 128, 256, 512, 1024])
    blocks = rng.choice([1, 2, 4])
    helper = rng.random() < 0.5
    # Threads past n leave the kernel before its barriers: correct on sm_70
    # and later (exited threads no longer take part), and the scan reads
    # only lower slots, which the threads that stay wrote.
    early_exit = rng.random() < 0.4
    cut = rng.choice([0, 3, 64]) if early_exit else 0
    # Cutting all 64 threads of a one-block grid would leave no thread in
    # the kernel and a planted defect unreachable (seed 83 of the second
    # H200 run): one warp stays. No other program changes.
    n = threads * blocks - min(cut, threads * blocks - 32)
    p.meta.update(block=[threads, 1], grid=[blocks, 1], helper=helper,
                  guard=early_exit, n=n)
    p.kernel_name = "blockScan"
    decl, at, count = shared_array(p, rng, "prefix", "int", [threads])
    k = ["__global__ void blockScan(const int *in, int *out, int n) {\n",
         decl,
         "  int t = threadIdx.x;\n",
         "  int i = blockIdx.x * blockDim.x + t;\n"]
    if early_exit:
        k.append("  if (i >= n)\n    return;\n")
    k += ["  %s = in[i];\n" % at("t")]
    k.append("  %s\n" % PLANT_MARK if plant == "race-raw-missing-barrier"
             else "  __syncthreads();\n")
    k.append("  for (int offset = 1; offset < blockDim.x; offset <<= 1) {\n")
    if plant == "barrier-split-inside-warp":
        k.append("    if (t >= offset) {\n")
        k.append("      int carry = %s;\n" % at("t - offset"))
        k.append("      __syncthreads(); %s\n" % PLANT_MARK)
        k.append("      %s += carry;\n    }\n" % at("t"))
    else:
        if helper:
            p.helpers.append(
                "// The value this thread adds in a step of the scan.\n"
                "__device__ int carryFrom(const int *prefix, int t, int offset) {\n"
                "  return t >= offset ? prefix[t - offset] : 0;\n"
                "}\n")
            k.append("    int carry = carryFrom(%s, t, offset);\n" %
                     "prefix")
        else:
            k.append("    int carry = (t >= offset) ? %s : 0;\n" %
                     at("t - offset"))
        k.append("    %s\n" % PLANT_MARK if plant == "race-war-missing-barrier"
                 else "    __syncthreads();\n")
        k.append("    %s += carry;\n" % at("t"))
    k.append("    %s\n" % PLANT_MARK if plant == "race-missing-loop-barrier"
             else "    __syncthreads();\n")
    k.append("  }\n")
    k.append("  out[i] = %s;\n}\n" % at("t"))
    p.kernel = "".join(k)
    p.n_in = p.n_out = threads * blocks
    p.reference = (
        "  for (int b = 0; b < %d; ++b) {\n"
        "    int sum = 0;\n"
        "    for (int j = 0; j < %d; ++j) {\n"
        "      sum += in[b * %d + j];\n"
        "      expected[b * %d + j] = b * %d + j < %d ? sum : 0;\n"
        "    }\n"
        "  }\n" % (blocks, threads, threads, threads, threads, n))
    p.input_expr = "(i * 7 + 3) % 13"
    p.launch = launch_line(p, rng, plant, "blockScan", str(blocks),
                           str(threads), count, "int", "in, out, %d" % n,
                           GENERIC_OVERFLOWS)
    return plant


def shape_stencil(p, rng, plant):
    threads = rng.choice([64, 128, 256])
    blocks = rng.choice([1, 2, 3, 4])
    radius = rng.choice([1, 2, 3, 4])
    helper = rng.random() < 0.5 or plant == "barrier-helper-early-return"
    n = threads * blocks
    if plant == "barrier-helper-early-return":
        n -= rng.choice([5, 32, 64])
    p.meta.update(block=[threads, 1], grid=[blocks, 1], helper=helper,
                  guard=True, n=n, radius=radius)
    p.kernel_name = "stencil1d"
    p.file_scope.insert(0, "constexpr int kRadius = %d;\n"
                        "constexpr int kBlock = %d;\n" % (radius, threads))
    decl, at, count = shared_array(p, rng, "window", "int",
                                   ["kBlock + 2 * kRadius"])
    count = threads + 2 * radius
    weights = [rng.choice([1, 2, 3]) for _ in range(2 * radius + 1)]
    p.helpers.append(
        "// Reads in[g] with the ends of the array repeated outward.\n"
        "__device__ int clampedLoad(const int *in, int g, int n) {\n"
        "  return in[g < 0 ? 0 : (g >= n ? n - 1 : g)];\n"
        "}\n")
    k = ["__global__ void stencil1d(const int *in, int *out, int n) {\n",
         decl, "  int t = threadIdx.x;\n",
         "  int g = blockIdx.x * kBlock + t;\n"]
    if plant == "barrier-helper-early-return":
        p.helpers.append(
            "// Loads this thread's element and its block's halo.\n"
            "__device__ void loadWindow(int *window, const int *in, int g, int n) {\n"
            "  int t = threadIdx.x;\n"
            "  if (g >= n)\n    return; %s\n"
            "  window[t + kRadius] = in[g];\n"
            "  if (t < kRadius) {\n"
            "    window[t] = clampedLoad(in, g - kRadius, n);\n"
            "    window[t + kBlock + kRadius] = clampedLoad(in, g + kBlock, n);\n"
            "  }\n"
            "  __syncthreads();\n"
            "}\n" % PLANT_MARK)
        k.append("  loadWindow(window, in, g, n);\n")
    else:
        k.append("  %s = clampedLoad(in, g, n);\n" % at("t + kRadius"))
        k.append("  if (t < kRadius) {\n")
        k.append("    %s = clampedLoad(in, g - kRadius, n);\n" % at("t"))
        k.append("    %s = clampedLoad(in, g + kBlock, n);\n" %
                 at("t + kBlock + kRadius"))
        if plant == "barrier-split-inside-warp":
            k.append("    __syncthreads(); %s\n  }\n" % PLANT_MARK)
        else:
            k.append("  }\n")
            k.append("  %s\n" % PLANT_MARK
                     if plant == "race-raw-missing-barrier"
                     else "  __syncthreads();\n")
    k.append("  int sum = 0;\n")
    k.append("  for (int j = -kRadius; j <= kRadius; ++j)\n")
    k.append("    sum += kWeights[j + kRadius] * %s;\n" % at("t + kRadius + j"))
    if plant == "barrier-helper-early-return":
        k.append("  __syncthreads();\n")
    k.append("  if (g < n)\n    out[g] = sum;\n}\n")
    p.file_scope.insert(1, "__constant__ int kWeights[2 * kRadius + 1] = {%s};\n"
                        % ", ".join(map(str, weights)))
    p.kernel = "".join(k)
    p.n_in = p.n_out = threads * blocks
    p.extra_host = "static const int hostWeights[] = {%s};\n" % ", ".join(
        map(str, weights))
    p.reference = (
        "  for (int g = 0; g < %d; ++g) {\n"
        "    int sum = 0;\n"
        "    for (int j = -%d; j <= %d; ++j) {\n"
        "      int s = g + j < 0 ? 0 : (g + j >= %d ? %d : g + j);\n"
        "      sum += hostWeights[j + %d] * in[s];\n"
        "    }\n"
        "    expected[g] = g < %d ? sum : 0;\n"
        "  }\n" % (threads * blocks, radius, radius, n, n - 1, radius, n))
    bytes_expr = "(kBlock + 2 * kRadius) * sizeof(int)"
    p.launch = launch_line(p, rng, plant, "stencil1d", str(blocks), "kBlock",
                           count if p.meta["smem"] == "dynamic" else None,
                           "int", "in, out, %d" % n,
                           {"forgot-halo": "kBlock * sizeof(int)", "no-bytes": None}, bytes_expr=bytes_expr)
    return plant


def shape_stencil2d(p, rng, plant):
    bx = rng.choice([16, 32])
    by = rng.choice([4, 8, 16])
    gx, gy = rng.choice([(1, 1), (2, 1), (1, 2), (2, 2)])
    radius = rng.choice([1, 2])
    width, height = gx * bx, gy * by
    helper = True
    split_on_y = False
    if plant in ("barrier-split-inside-warp", "barrier-split-warp-boundary"):
        # The halo branch on x splits every warp; the one on y cuts the
        # block after radius rows, on a warp boundary when a row is a warp.
        split_on_y = plant == "barrier-split-warp-boundary" or \
            rng.random() < 0.5
        if split_on_y and bx == 16 and radius == 1:
            plant = "barrier-split-inside-warp"
        elif split_on_y:
            plant = split_kind(radius * bx)
        else:
            plant = "barrier-split-inside-warp"
    p.meta.update(block=[bx, by], grid=[gx, gy], helper=helper, guard=False,
                  radius=radius)
    p.kernel_name = "stencil2d"
    p.file_scope.insert(0, "constexpr int kRadius = %d;\nconstexpr int kBlockX = %d;\n"
                        "constexpr int kBlockY = %d;\nconstexpr int kWidth = %d;\n"
                        "constexpr int kHeight = %d;\n" % (radius, bx, by, width,
                                                          height))
    decl, at, count = shared_array(p, rng, "tile", "int",
                                   ["kBlockY + 2 * kRadius",
                                    "kBlockX + 2 * kRadius"])
    count = (by + 2 * radius) * (bx + 2 * radius)
    p.helpers.append(
        "// Reads in[y][x] with the borders of the image repeated outward.\n"
        "__device__ int clampedAt(const int *in, int x, int y) {\n"
        "  x = x < 0 ? 0 : (x >= kWidth ? kWidth - 1 : x);\n"
        "  y = y < 0 ? 0 : (y >= kHeight ? kHeight - 1 : y);\n"
        "  return in[y * kWidth + x];\n"
        "}\n")
    k = ["__global__ void stencil2d(const int *in, int *out) {\n", decl,
         "  int x = blockIdx.x * kBlockX + threadIdx.x;\n",
         "  int y = blockIdx.y * kBlockY + threadIdx.y;\n",
         "  int tx = threadIdx.x + kRadius;\n",
         "  int ty = threadIdx.y + kRadius;\n",
         "  %s = clampedAt(in, x, y);\n" % at("ty", "tx"),
         "  if (threadIdx.x < kRadius) {\n",
         "    %s = clampedAt(in, x - kRadius, y);\n" % at("ty", "tx - kRadius"),
         "    %s = clampedAt(in, x + kBlockX, y);\n" % at("ty", "tx + kBlockX")]
    split = plant and plant.startswith("barrier-split")
    if split and not split_on_y:
        k.append("    __syncthreads(); %s\n" % PLANT_MARK)
    k += ["  }\n",
          "  if (threadIdx.y < kRadius) {\n",
          "    %s = clampedAt(in, x, y - kRadius);\n" % at("ty - kRadius", "tx"),
          "    %s = clampedAt(in, x, y + kBlockY);\n" % at("ty + kBlockY", "tx")]
    if split and split_on_y:
        k.append("    __syncthreads(); %s\n" % PLANT_MARK)
    k.append("  }\n")
    if not split:
        k.append("  %s\n" % PLANT_MARK if plant == "race-raw-missing-barrier"
                 else "  __syncthreads();\n")
    k += ["  int sum = 0;\n",
          "  for (int j = -kRadius; j <= kRadius; ++j)\n",
          "    sum += %s + %s;\n" % (at("ty", "tx + j"), at("ty + j", "tx")),
          "  out[y * kWidth + x] = sum;\n}\n"]
    p.kernel = "".join(k)
    p.n_in = p.n_out = width * height
    p.input_expr = "(i * 29 + 7) % 50"
    p.reference = (
        "  for (int y = 0; y < %d; ++y)\n"
        "    for (int x = 0; x < %d; ++x) {\n"
        "      int sum = 0;\n"
        "      for (int j = -%d; j <= %d; ++j) {\n"
        "        int cx = x + j < 0 ? 0 : (x + j >= %d ? %d : x + j);\n"
        "        int cy = y + j < 0 ? 0 : (y + j >= %d ? %d : y + j);\n"
        "        sum += in[y * %d + cx] + in[cy * %d + x];\n"
        "      }\n"
        "      expected[y * %d + x] = sum;\n"
        "    }\n" % (height, width, radius, radius, width, width - 1, height,
                     height - 1, width, width, width))
    p.launch = launch_line(p, rng, plant, "stencil2d",
                           "dim3(%d, %d)" % (gx, gy), "dim3(kBlockX, kBlockY)",
                           count if p.meta["smem"] == "dynamic" else None,
                           "int", "in, out", {"forgot-halo-2d": "kBlockX * kBlockY * sizeof(int)",
                            "half": None},
                           bytes_expr="(kBlockY + 2 * kRadius) * "
                           "(kBlockX + 2 * kRadius) * sizeof(int)")
    return plant


def shape_transpose(p, rng, plant):
    tile = rng.choice([16, 32])
    rows = rng.choice([tile, 8]) if tile == 32 else rng.choice([16, 8])
    gx, gy = rng.choice([(1, 1), (2, 1), (1, 2), (2, 2)])
    elem = rng.choice(["float", "int", "double"])
    width, height = gx * tile, gy * tile
    pad = 0 if plant == "bank-unpadded-column" else 1
    swizzle = plant is None and rng.random() < 0.2
    if swizzle:
        pad = 0
    p.elem = elem
    p.meta.update(block=[tile, rows], grid=[gx, gy], helper=False,
                  guard=False, tile=tile, pad=pad, swizzle=swizzle)
    p.kernel_name = "transposeTile"
    p.file_scope.insert(0, "constexpr int kTile = %d;\nconstexpr int kRows = %d;\n"
                        "constexpr int kWidth = %d;\nconstexpr int kHeight = %d;\n"
                        % (tile, rows, width, height))
    cols = "kTile + 1" if pad else "kTile"
    decl, at, count = shared_array(p, rng, "tile", elem, ["kTile", cols])
    count = tile * (tile + pad)
    if swizzle:
        store = at("threadIdx.y + j", "threadIdx.x ^ (threadIdx.y + j)")
        load = at("threadIdx.x", "(threadIdx.y + j) ^ threadIdx.x")
    else:
        store = at("threadIdx.y + j", "threadIdx.x")
        load = at("threadIdx.x", "threadIdx.y + j")
    mark = " " + PLANT_MARK if plant == "bank-unpadded-column" else ""
    k = ["__global__ void transposeTile(const %s *in, %s *out) {\n" %
         (elem, elem), decl,
         "  int x = blockIdx.x * kTile + threadIdx.x;\n",
         "  int y = blockIdx.y * kTile + threadIdx.y;\n",
         "  for (int j = 0; j < kTile; j += kRows)\n",
         "    %s = in[(y + j) * kWidth + x];\n" % store]
    k.append("  %s\n" % PLANT_MARK if plant == "race-raw-missing-barrier"
             else "  __syncthreads();\n")
    k += ["  x = blockIdx.y * kTile + threadIdx.x;\n",
          "  y = blockIdx.x * kTile + threadIdx.y;\n",
          "  for (int j = 0; j < kTile; j += kRows)\n",
          "    out[(y + j) * kHeight + x] = %s;%s\n" % (load, mark), "}\n"]
    p.kernel = "".join(k)
    p.n_in = p.n_out = width * height
    p.input_expr = "(i * 13 + 5) % 1000"
    p.reference = ("  for (int y = 0; y < %d; ++y)\n"
                   "    for (int x = 0; x < %d; ++x)\n"
                   "      expected[x * %d + y] = in[y * %d + x];\n" %
                   (height, width, height, width))
    ideal = {"float": 1, "int": 1, "double": 2}[elem]
    p.ncu = {"kernel": "transposeTile", "op": "ld", "ideal": ideal}
    overflow = {"bytes-without-sizeof": None, "half": None}
    if pad:
        overflow["forgot-padding"] = "kTile * kTile * sizeof(%s)" % elem
    p.launch = launch_line(p, rng, plant, "transposeTile",
                           "dim3(%d, %d)" % (gx, gy), "dim3(kTile, kRows)",
                           count if p.meta["smem"] == "dynamic" else None,
                           elem, "in, out", overflow,
                           bytes_expr="kTile * (%s) * sizeof(%s)" % (cols, elem))
    return plant


def shape_matmul(p, rng, plant):
    tile = rng.choice([8, 16, 32])
    if plant == "bank-unpadded-column" and tile == 8:
        tile = 16
    gx, gy = rng.choice([(1, 1), (2, 1), (1, 2), (2, 2)])
    ktiles = rng.choice([2, 3, 4])
    n_cols, inner = gx * tile, ktiles * tile
    rows_total = gy * tile
    m = rows_total
    if plant in ("barrier-split-inside-warp", "barrier-split-warp-boundary"):
        # Rows past m skip the loop and its barriers. A warp holds 32 / tile
        # rows of the block: the cut falls inside a warp unless it is on a
        # multiple of that.
        per_warp = 32 // tile
        if plant == "barrier-split-inside-warp" and per_warp == 1:
            plant = "barrier-split-warp-boundary"
        if plant == "barrier-split-warp-boundary":
            cut_row = per_warp * rng.randrange(1, tile // per_warp)
        else:
            cut_row = rng.choice([r for r in range(1, tile) if r % per_warp])
        m = rows_total - tile + cut_row
    # Transposed and padded, a tile of 8 still has 2-way conflicts: below
    # the check's MinimumDegree and above what the ncu label calls clean.
    transposed_a = plant == "bank-unpadded-column" or (
        tile >= 16 and rng.random() < 0.3)
    pad = 0 if plant == "bank-unpadded-column" else (1 if transposed_a else 0)
    p.meta.update(block=[tile, tile], grid=[gx, gy], helper=False,
                  guard=m != rows_total, tile=tile, m=m, transposed_a=transposed_a,
                  pad=pad)
    p.kernel_name = "tiledMatmul"
    p.file_scope.insert(0, "constexpr int kTile = %d;\nconstexpr int kN = %d;\n"
                        "constexpr int kK = %d;\n" % (tile, n_cols, inner))
    p.meta["smem"] = rng.choice(["static", "filescope"])
    a_cols = "kTile + 1" if pad else "kTile"
    decls = ("__shared__ int tileA[kTile][%s];\n"
             "__shared__ int tileB[kTile][kTile];\n" % a_cols)
    if p.meta["smem"] == "filescope":
        p.file_scope.append(decls)
        decl = ""
    else:
        decl = "".join("  " + d + "\n" for d in decls.strip().split("\n"))
    a_store = "tileA[threadIdx.x][threadIdx.y]" if transposed_a else \
        "tileA[threadIdx.y][threadIdx.x]"
    a_read = "tileA[k][threadIdx.y]" if transposed_a else \
        "tileA[threadIdx.y][k]"
    bank_mark = " " + PLANT_MARK if plant == "bank-unpadded-column" else ""
    k = ["__global__ void tiledMatmul(const int *a, const int *b, int *c, int m) {\n",
         decl,
         "  int row = blockIdx.y * kTile + threadIdx.y;\n",
         "  int col = blockIdx.x * kTile + threadIdx.x;\n",
         "  int acc = 0;\n"]
    guard_split = plant in ("barrier-split-inside-warp",
                            "barrier-split-warp-boundary")
    ind = "  "
    if guard_split:
        k.append("  if (row < m) { %s\n" % PLANT_MARK)
        ind = "    "
    k.append(ind + "for (int t = 0; t < kK / kTile; ++t) {\n")
    k.append(ind + "  %s = %sa[row * kK + t * kTile + threadIdx.x]%s;%s\n" %
             (a_store, "" if guard_split or m == rows_total else "row < m ? ",
              "" if guard_split or m == rows_total else " : 0", bank_mark))
    k.append(ind + "  tileB[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * kN + col];\n")
    k.append(ind + "  %s\n" % PLANT_MARK if plant == "race-raw-missing-barrier"
             else ind + "  __syncthreads();\n")
    k.append(ind + "  for (int k = 0; k < kTile; ++k)\n")
    k.append(ind + "    acc += %s * tileB[k][threadIdx.x];\n" % a_read)
    k.append(ind + "  %s\n" % PLANT_MARK if plant == "race-missing-loop-barrier"
             else ind + "  __syncthreads();\n")
    k.append(ind + "}\n")
    if guard_split:
        k.append("  }\n")
    k.append("  if (row < m)\n    c[row * kN + col] = acc;\n}\n")
    p.kernel = "".join(k)
    # in holds A (rows_total x inner) then B (inner x n_cols).
    a_size, b_size = rows_total * inner, inner * n_cols
    p.n_in = a_size + b_size
    p.n_out = rows_total * n_cols
    p.input_expr = "(i * 5 + 1) % 7 - 3"
    p.reference = (
        "  const int *a = in, *b = in + %d;\n"
        "  for (int r = 0; r < %d; ++r)\n"
        "    for (int c = 0; c < %d; ++c) {\n"
        "      int sum = 0;\n"
        "      for (int k = 0; k < %d; ++k)\n"
        "        sum += a[r * %d + k] * b[k * %d + c];\n"
        "      expected[r * %d + c] = r < %d ? sum : 0;\n"
        "    }\n" % (a_size, rows_total, n_cols, inner, inner, n_cols, n_cols,
                    m))
    p.ncu = {"kernel": "tiledMatmul", "op": "st", "ideal": 1}
    p.launch = ("  tiledMatmul<<<dim3(%d, %d), dim3(kTile, kTile)>>>(in, in + %d, "
                "out, %d);\n" % (gx, gy, a_size, m))
    return plant


def shape_histogram(p, rng, plant):
    threads = rng.choice([128, 256, 512])
    blocks = rng.choice([1, 2, 4])
    bins = rng.choice([16, 32, 64, 256])
    if plant in ("barrier-split-inside-warp", "barrier-split-warp-boundary"):
        bins = rng.choice([16, 48]) if plant.endswith("inside-warp") else 64
        if bins >= threads:
            threads = 256
    n = threads * blocks * rng.choice([1, 2, 3]) - rng.choice([0, 5])
    two_d = rng.random() < 0.3
    p.meta.update(block=[32, threads // 32] if two_d else [threads, 1],
                  grid=[blocks, 1], helper=False, guard=True, n=n, bins=bins)
    p.kernel_name = "histogram"
    p.file_scope.insert(0, "constexpr int kBins = %d;\n" % bins)
    decl, at, count = shared_array(p, rng, "counts", "unsigned int", ["kBins"])
    count = bins
    p.elem = "unsigned int"
    tid = ("threadIdx.x + threadIdx.y * blockDim.x" if two_d else
           "threadIdx.x")
    threads_expr = "(blockDim.x * blockDim.y)" if two_d else "blockDim.x"
    k = ["__global__ void histogram(const unsigned int *in, unsigned int *out, int n) {\n",
         decl, "  int t = %s;\n" % tid]
    if plant and plant.startswith("barrier-split"):
        k.append("  if (t < kBins) {\n    %s = 0;\n" % at("t"))
        k.append("    __syncthreads(); %s\n  }\n" % PLANT_MARK)
    else:
        k.append("  for (int b = t; b < kBins; b += %s)\n" % threads_expr)
        k.append("    %s = 0;\n" % at("b"))
        k.append("  %s\n" % PLANT_MARK if plant == "race-waw-missing-barrier"
                 else "  __syncthreads();\n")
    k.append("  for (int i = blockIdx.x * %s + t; i < n; i += %s * gridDim.x)\n"
             % (threads_expr, threads_expr))
    k.append("    atomicAdd(&%s, 1u);\n" % at("in[i] % kBins"))
    k.append("  %s\n" % PLANT_MARK if plant == "race-raw-missing-barrier"
             else "  __syncthreads();\n")
    k.append("  for (int b = t; b < kBins; b += %s)\n" % threads_expr)
    k.append("    atomicAdd(&out[b], %s);\n}\n" % at("b"))
    p.kernel = "".join(k)
    p.n_in = n
    p.n_out = bins
    p.input_expr = "(i * 2654435761u) >> 7"
    p.reference = ("  for (int b = 0; b < %d; ++b)\n    expected[b] = 0;\n"
                   "  for (int i = 0; i < %d; ++i)\n"
                   "    ++expected[in[i] %% %d];\n" % (bins, n, bins))
    block = "dim3(32, %d)" % (threads // 32) if two_d else str(threads)
    p.launch = launch_line(p, rng, plant, "histogram", str(blocks), block,
                           count if p.meta["smem"] == "dynamic" else None,
                           "unsigned int", "in, out, %d" % n,
                           {"forgot-sizeof-bins": "kBins", "no-bytes": None},
                           bytes_expr="kBins * sizeof(unsigned int)")
    return plant


SHAPES = {
    "reduce": (shape_reduce, ["race-raw-missing-barrier",
                              "race-missing-loop-barrier",
                              "barrier-split-inside-warp",
                              "barrier-split-warp-boundary",
                              "barrier-thread-trip-count",
                              "barrier-helper-early-return",
                              "dynshared-bytes-too-small"]),
    "scan": (shape_scan, ["race-raw-missing-barrier",
                          "race-war-missing-barrier",
                          "race-missing-loop-barrier",
                          "barrier-split-inside-warp",
                          "dynshared-bytes-too-small"]),
    "stencil": (shape_stencil, ["race-raw-missing-barrier",
                                "barrier-split-inside-warp",
                                "barrier-helper-early-return",
                                "dynshared-bytes-too-small"]),
    "stencil2d": (shape_stencil2d, ["race-raw-missing-barrier",
                                    "barrier-split-inside-warp",
                                    "barrier-split-warp-boundary",
                                    "dynshared-bytes-too-small"]),
    "transpose": (shape_transpose, ["bank-unpadded-column",
                                    "race-raw-missing-barrier",
                                    "dynshared-bytes-too-small"]),
    "matmul": (shape_matmul, ["race-raw-missing-barrier",
                              "race-missing-loop-barrier",
                              "bank-unpadded-column",
                              "barrier-split-inside-warp",
                              "barrier-split-warp-boundary"]),
    "histogram": (shape_histogram, ["race-waw-missing-barrier",
                                    "race-raw-missing-barrier",
                                    "barrier-split-inside-warp",
                                    "barrier-split-warp-boundary",
                                    "dynshared-bytes-too-small"]),
}

# Share of programs with no defect: the clean ones measure false warnings.
CLEAN_SHARE = 0.35


def generate(seed):
    rng = random.Random(seed)
    shape = sorted(SHAPES)[rng.randrange(len(SHAPES))]
    builder, plants = SHAPES[shape]
    plant = None if rng.random() < CLEAN_SHARE else rng.choice(plants)
    p = Program(seed, shape)
    p.force_dynamic = plant == "dynshared-bytes-too-small"
    wanted = plant
    plant = builder(p, rng, plant)
    if plant == "dynshared-bytes-too-small" and p.meta.get("smem") != "dynamic":
        # The shape drew a static array: no launch bytes to get wrong.
        plant = None
    if plant:
        p.set_plant(plant, p.plant_detail)
    p.meta["asked"] = wanted or "none"
    return p.render()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--seeds", help="A:B, the seeds A to B-1")
    parser.add_argument("--out", help="folder for fz<seed>.cu")
    args = parser.parse_args()
    if args.seed is not None:
        sys.stdout.write(generate(args.seed))
        return 0
    if not args.seeds or not args.out:
        parser.error("give --seed N, or --seeds A:B and --out DIR")
    first, last = (int(x) for x in args.seeds.split(":"))
    os.makedirs(args.out, exist_ok=True)
    for seed in range(first, last):
        with open(os.path.join(args.out, "fz%d.cu" % seed), "w") as f:
            f.write(generate(seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
