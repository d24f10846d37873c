#include <cuda_runtime.h>
#include <cstdio>
int main() { float x = 2; int a = 3; unsigned u = 4; printf("%f %d %u\n", max(x, 1.0f), min(a, 2), max(u, 1u)); }
