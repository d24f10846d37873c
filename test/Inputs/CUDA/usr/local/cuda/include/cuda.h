// Placeholder for clang's CUDA installation detection: the driver reads
// CUDA_VERSION from here and passes -target-sdk-version=12.8 to the host pass,
// which selects the __cudaPushCallConfiguration launch protocol. The stub
// headers that tests include live in test/Inputs/include.

#define CUDA_VERSION 12080
