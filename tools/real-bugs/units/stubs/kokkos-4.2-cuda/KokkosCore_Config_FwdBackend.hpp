// Stand-in written for the oracle: Kokkos' CMake writes this from cmake/KokkosCore_Config_HeaderSet.in.
#ifndef KOKKOS_FWD_HPP_
#define KOKKOS_FWD_HPP_
#include <fwd/Kokkos_Fwd_CUDA.hpp>
#include <fwd/Kokkos_Fwd_SERIAL.hpp>
#endif
