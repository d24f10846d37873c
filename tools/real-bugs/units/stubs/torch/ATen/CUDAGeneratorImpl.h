// Stand-in (see cuda/CUDAGeneratorImpl.h).
#pragma once
#include <ATen/cuda/CUDAGeneratorImpl.h>
