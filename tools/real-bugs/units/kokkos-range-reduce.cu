// Stand-in unit for kokkos-range-reduce-syncwarp, written for the oracle (not
// Kokkos code): a parallel_reduce over a RangePolicy on the Cuda space with a
// double sum (two 4-byte words per value, so the final copy loop runs over
// word_count = 2 <= the warp size, the case the fix adds a __syncwarp for),
// as in the report (kokkos issue #6217).
#include <Kokkos_Core.hpp>

struct OracleSum {
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& v) const { v += i; }
};

double oracle_reduce(int n)
{
  double r = 0;
  Kokkos::parallel_reduce("oracle", Kokkos::RangePolicy<Kokkos::Cuda>(0, n), OracleSum{}, r);
  return r;
}
