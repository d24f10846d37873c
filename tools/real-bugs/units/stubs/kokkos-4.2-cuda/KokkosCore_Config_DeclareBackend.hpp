// Stand-in written for the oracle: Kokkos' CMake writes this from cmake/KokkosCore_Config_HeaderSet.in.
#ifndef KOKKOS_DECLARE_HPP_
#define KOKKOS_DECLARE_HPP_
#include <decl/Kokkos_Declare_CUDA.hpp>
#include <decl/Kokkos_Declare_SERIAL.hpp>
#endif
