// Stand-in written for the oracle: what Kokkos' CMake writes from
// cmake/KokkosCore_config.h.in for a CUDA + Serial build of Kokkos 4.2
// (develop, 4.2.99) for sm_90 with C++17, no optional TPL.
#if !defined(KOKKOS_MACROS_HPP) || defined(KOKKOS_CORE_CONFIG_H)
#error "Do not include KokkosCore_config.h directly; include Kokkos_Macros.hpp instead."
#else
#define KOKKOS_CORE_CONFIG_H
#endif
#define KOKKOS_VERSION 40299
#define KOKKOS_VERSION_MAJOR 4
#define KOKKOS_VERSION_MINOR 2
#define KOKKOS_VERSION_PATCH 99
#define KOKKOS_ENABLE_SERIAL
#define KOKKOS_ENABLE_CUDA
#define KOKKOS_ENABLE_CXX17
#define KOKKOS_ENABLE_CUDA_LAMBDA
#define KOKKOS_ENABLE_CUDA_CONSTEXPR
#define KOKKOS_ENABLE_DEPRECATED_CODE_4
#define KOKKOS_ENABLE_IMPL_MDSPAN
#define KOKKOS_ARCH_HOPPER
#define KOKKOS_ARCH_HOPPER90
#define KOKKOS_IMPL_ARCH_NVIDIA_GPU 90
