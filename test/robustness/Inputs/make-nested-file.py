#!/usr/bin/env python3
"""Writes a CUDA file nested DEPTH deep in one of several ways, each inside a
kernel whose analyses have to walk it:

  make-nested-file.py OUTPUT KIND DEPTH

  ifs        if (threadIdx.x > 0) { if (...) { ... __syncthreads(); } }
  loops      for loops, one in another, around a shared store and a barrier
  blocks     { { { ... } } } around a race on a __shared__ element
  macros     #define M1(x) M0(M0(x)) ... : one expression, expanded 2^DEPTH
             times over a chain of DEPTH macros
  ternaries  a ? (b ? (...) : 0) : 0 inside a shared-memory index
  templates  template<int N> struct S { ... S<N-1> ... }: instantiated DEPTH
             deep, beyond Clang's limit when DEPTH > 1024
"""

import sys


def main():
    output, kind, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    lines = ["#include <cuda_runtime.h>"]
    if kind == "ifs":
        lines.append("__global__ void k(int *out) {")
        lines += ["if (threadIdx.x > %d) {" % i for i in range(depth)]
        lines.append("__syncthreads();")
        lines += ["}"] * depth
        # A barrier after the nest: without it the guards wrap the rest of
        # the kernel and are early exits, which sm_70 allows.
        lines.append("__syncthreads();")
        lines.append("}")
    elif kind == "loops":
        lines.append("__global__ void k(int *out, int n) {")
        lines.append("__shared__ int s[256];")
        lines += ["for (int i%d = 0; i%d < n; ++i%d) {" % (i, i, i)
                  for i in range(depth)]
        lines.append("s[threadIdx.x] = out[threadIdx.x];")
        lines.append("__syncthreads();")
        lines.append("out[threadIdx.x] = s[(threadIdx.x + 1) % 256];")
        lines += ["}"] * depth
        lines.append("}")
    elif kind == "blocks":
        lines.append("__global__ void k(int *out) {")
        lines.append("__shared__ int s[256];")
        lines += ["{"] * depth
        lines.append("s[threadIdx.x] = 1;")
        lines.append("out[threadIdx.x] = s[(threadIdx.x + 1) % 256];")
        lines += ["}"] * depth
        lines.append("}")
    elif kind == "macros":
        lines.append("#define M0(x) ((x) + 1)")
        lines += ["#define M%d(x) M%d(M%d(x))" % (i, i - 1, i - 1)
                  for i in range(1, depth)]
        lines.append("__global__ void k(int *out) {")
        lines.append("__shared__ int s[256];")
        lines.append("s[threadIdx.x] = M%d(0);" % (depth - 1))
        lines.append("out[threadIdx.x] = s[(threadIdx.x + 1) % 256];")
        lines.append("}")
    elif kind == "ternaries":
        expr = "threadIdx.x"
        for i in range(depth):
            expr = "(threadIdx.x > %d ? %s : 0)" % (i, expr)
        lines.append("__global__ void k(int *out) {")
        lines.append("__shared__ int s[256];")
        lines.append("s[%s %% 256] = 1;" % expr)
        lines.append("out[threadIdx.x] = s[(threadIdx.x + 1) % 256];")
        lines.append("}")
    elif kind == "templates":
        lines.append("template <int N> struct S {")
        lines.append("  __device__ static int f(int x) { return S<N - 1>::f(x) + 1; }")
        lines.append("};")
        lines.append("template <> struct S<0> {")
        lines.append("  __device__ static int f(int x) { return x; }")
        lines.append("};")
        lines.append("__global__ void k(int *out) {")
        lines.append("__shared__ int s[256];")
        lines.append("s[threadIdx.x] = S<%d>::f(threadIdx.x);" % depth)
        lines.append("out[threadIdx.x] = s[(threadIdx.x + 1) % 256];")
        lines.append("}")
    else:
        sys.exit("unknown kind '%s'" % kind)
    with open(output, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
