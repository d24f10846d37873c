// A kernel in a header: its race is reproduced through the unit that
// includes it.
__global__ void reverseBlock(const int *in, int *out) {
  __shared__ int slot[256];
  int t = threadIdx.x;
  slot[t] = in[t];
  out[t] = slot[255 - t];
}
