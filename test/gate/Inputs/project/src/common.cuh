// Included by both translation units: its finding is reported once.
#pragma once

__global__ void scaleTile(float *data) {
  __shared__ float tile[64];
  tile[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = tile[63 - threadIdx.x];
}
