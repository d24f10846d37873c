#!/usr/bin/env python3
"""Writes a CUDA file of about SIZE megabytes: a kernel with a divergent
barrier at the top, then filler (comment lines, and an embedded byte table
of the kind that build systems generate), then a second such kernel at the
very end, so that a test can check that both are still found and placed.

  make-large-file.py OUTPUT SIZE_MB
"""

import sys

KERNEL = """__global__ void %s(float *out) {
  if (threadIdx.x < 16)
    __syncthreads();
  out[threadIdx.x] = 1.0f;
}
"""


def main():
    output, size_mb = sys.argv[1], int(sys.argv[2])
    target = size_mb * 1024 * 1024
    comment = "// " + "padding " * 12 + "\n"
    row = "  " + "0x5a, " * 16 + "\n"
    with open(output, "w") as out:
        out.write("#include <cuda_runtime.h>\n")
        out.write(KERNEL % "first")
        written = 0
        # One table of about a megabyte: a large initializer, not one so
        # large that the test measures Clang's memory rather than ours.
        out.write("static const unsigned char blob[] = {\n")
        while written < 1024 * 1024:
            out.write(row)
            written += len(row)
        out.write("};\n")
        while written < target:
            out.write(comment)
            written += len(comment)
        out.write(KERNEL % "last")


if __name__ == "__main__":
    main()
