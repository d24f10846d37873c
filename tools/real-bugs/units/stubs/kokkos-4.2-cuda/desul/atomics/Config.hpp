// Stand-in written for the oracle: desul's CMake writes this from
// tpls/desul/Config.hpp.cmake.in; a CUDA build of Kokkos enables CUDA only.
#ifndef DESUL_ATOMICS_CONFIG_HPP_
#define DESUL_ATOMICS_CONFIG_HPP_
#define DESUL_ATOMICS_ENABLE_CUDA
#endif
