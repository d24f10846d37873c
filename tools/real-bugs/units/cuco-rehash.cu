// Stand-in unit for cuco-rehash-buffer (written for the oracle, not cuCollections
// code): the body of the project's tests/static_set/rehash_test.cu without Catch2.
// static_set::rehash() launches detail::rehash<default_block_size()> (128 threads),
// the kernel of include/cuco/detail/common_kernels.cuh.
#include <cuco/static_set.cuh>

#include <thrust/device_vector.h>
#include <thrust/sequence.h>

int oracle_rehash()
{
  constexpr std::size_t num_keys{400};
  cuco::experimental::static_set<int> set{num_keys, cuco::empty_key{-1}};
  thrust::device_vector<int> d_keys(num_keys);
  thrust::sequence(d_keys.begin(), d_keys.end());
  set.insert(d_keys.begin(), d_keys.end());
  set.rehash();
  set.rehash(num_keys * 2);
  return static_cast<int>(set.size());
}
