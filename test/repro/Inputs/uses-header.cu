#include <cuda_runtime.h>
#include "reverse.cuh"

void launch(const int *in, int *out) { reverseBlock<<<1, 256>>>(in, out); }
