// Stand-in unit for cuml-dt-sdone-alias, written for the oracle (not cuML code).
// cuML's unit (decisiontree.cu) needs treelite; this one includes the header
// under test and launches computeSplitRegressionKernel the way the project's
// builder_base.cuh does: 256 threads, 7 * nbins * sizeof(DataT) +
// nbins * sizeof(IdxT) + sizeof(int) bytes of dynamic shared memory.
// builder_base.cuh includes cub and the tree parameters (CRITERION) before
// this header, which relies on them.
#include <cub/cub.cuh>
#include <cuml/tree/algo_helper.h>
#include "kernels.cuh"

namespace ML {
namespace DecisionTree {

void oracle_launch(float* pred, float* pred2, float* pred2P, int* count, int nbins, int max_depth,
                   int min_rows_per_node, int max_leaves, Input<float, float, int> input,
                   const Node<float, float, int>* nodes, int col, int* done_count, int* mutex,
                   const int* n_leaves, Split<float, int>* splits, void* workspace,
                   CRITERION splitType, dim3 grid, cudaStream_t s)
{
  constexpr int TPB_DEFAULT = 256;
  size_t smemSize = 7 * nbins * sizeof(float) + nbins * sizeof(int);
  smemSize += sizeof(int);
  computeSplitRegressionKernel<float, float, int, TPB_DEFAULT><<<grid, TPB_DEFAULT, smemSize, s>>>(
    pred, pred2, pred2P, count, nbins, max_depth, min_rows_per_node, max_leaves, input, nodes, col,
    done_count, mutex, n_leaves, splits, workspace, splitType);
}

}  // namespace DecisionTree
}  // namespace ML
