// Stand-in written for the oracle: Kokkos' CMake writes this from cmake/KokkosCore_Config_HeaderSet.in.
#ifndef KOKKOS_POST_INCLUDE_HPP_
#define KOKKOS_POST_INCLUDE_HPP_
#endif
