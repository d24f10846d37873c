// Stand-in written for the oracle: Kokkos' CMake writes this from cmake/KokkosCore_Config_HeaderSet.in.
#ifndef KOKKOS_SETUP_HPP_
#define KOKKOS_SETUP_HPP_
#include <setup/Kokkos_Setup_Cuda.hpp>
#endif
