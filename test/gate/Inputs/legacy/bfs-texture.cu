// Breadth-first search in the style of benchmark suites written for CUDA
// 2.x-10.x: the graph is read through texture references bound with
// cudaBindTexture, and the host synchronises with cudaThreadSynchronize.
#include <cstdio>
#include <cuda_runtime.h>

texture<int, 1, cudaReadModeElementType> edgeTex;
texture<int2, 1> nodeTex;

__global__ void expandFrontier(const bool *frontier, bool *next, int *cost,
                               int nodes) {
  __shared__ int level[256];
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= nodes)
    return;
  level[threadIdx.x] = cost[id];
  if (frontier[id]) {
    int2 node = tex1Dfetch(nodeTex, id);
    for (int e = node.x; e < node.x + node.y; ++e) {
      int neighbour = tex1Dfetch(edgeTex, e);
      if (cost[neighbour] < 0) {
        cost[neighbour] = level[threadIdx.x] + 1;
        next[neighbour] = true;
      }
    }
    __syncthreads();
  }
  __syncthreads();
}

int main() {
  const int nodes = 1 << 12, edges = 1 << 14;
  int *edgeList, *cost;
  int2 *nodeList;
  bool *frontier, *next;
  cudaMalloc(&edgeList, edges * sizeof(int));
  cudaMalloc(&nodeList, nodes * sizeof(int2));
  cudaMalloc(&cost, nodes * sizeof(int));
  cudaMalloc(&frontier, nodes);
  cudaMalloc(&next, nodes);
  cudaBindTexture(0, edgeTex, edgeList, edges * sizeof(int));
  cudaBindTexture(0, nodeTex, nodeList, nodes * sizeof(int2));
  expandFrontier<<<nodes / 256, 256>>>(frontier, next, cost, nodes);
  cudaThreadSynchronize();
  cudaUnbindTexture(edgeTex);
  cudaUnbindTexture(nodeTex);
  cudaThreadExit();
  return 0;
}
