// Stand-in unit for cuml-umap-bank, written for the oracle (not cuML code).
// cuML's unit (umap.cu) also pulls the spectral init and distance code, which
// need CUTLASS 1.x and APIs CUDA 12 removed; this one includes the header under
// test and instantiates optimize_layout with umap.cu's block size (TPB_X = 256),
// which launches optimize_batch_kernel with shared memory of
// TPB_X * n_components (* 2 when fitting) values.
#include "algo.h"

void oracle_optimize(float* head_embedding, int head_n, float* tail_embedding, int tail_n,
                     const int* head, const int* tail, int nnz, float* epochs_per_sample,
                     int n_vertices, float gamma, ML::UMAPParams* params, int n_epochs,
                     std::shared_ptr<MLCommon::deviceAllocator> d_alloc, cudaStream_t stream)
{
  UMAPAlgo::SimplSetEmbed::Algo::optimize_layout<256, float>(
    head_embedding, head_n, tail_embedding, tail_n, head, tail, nnz, epochs_per_sample, n_vertices,
    gamma, params, n_epochs, true, d_alloc, stream);
}
