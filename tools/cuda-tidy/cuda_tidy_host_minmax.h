// Host twins of CUDA's min and max overloads, force-included by cuda-tidy.
//
// nvcc declares the integer and floating-point min/max overloads
// __host__ __device__; Clang's CUDA wrapper declares them __device__ only, so
// host code that calls max(x, 1.0f) fails to parse under Clang. These host
// overloads, with the signatures of CUDA's crt/math_functions.hpp, make such
// code parse as nvcc accepts it. Only in CUDA mode, where __CUDA__ is set.
#if defined(__CUDA__) && defined(__cplusplus) && !defined(CUDA_TIDY_HOST_MINMAX)
#define CUDA_TIDY_HOST_MINMAX
// clang-format off
static inline __host__ int min(int a, int b) { return (int)a < (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int min(unsigned int a, unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(int a, unsigned int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int min(unsigned int a, int b) { return (unsigned int)a < (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long min(long a, long b) { return (long)a < (long)b ? (long)a : (long)b; }
static inline __host__ unsigned long min(unsigned long a, unsigned long b) { return (unsigned long)a < (unsigned long)b ? (unsigned long)a : (unsigned long)b; }
static inline __host__ unsigned long min(long a, unsigned long b) { return (unsigned long)a < (unsigned long)b ? (unsigned long)a : (unsigned long)b; }
static inline __host__ unsigned long min(unsigned long a, long b) { return (unsigned long)a < (unsigned long)b ? (unsigned long)a : (unsigned long)b; }
static inline __host__ long long min(long long a, long long b) { return (long long)a < (long long)b ? (long long)a : (long long)b; }
static inline __host__ unsigned long long min(unsigned long long a, unsigned long long b) { return (unsigned long long)a < (unsigned long long)b ? (unsigned long long)a : (unsigned long long)b; }
static inline __host__ unsigned long long min(long long a, unsigned long long b) { return (unsigned long long)a < (unsigned long long)b ? (unsigned long long)a : (unsigned long long)b; }
static inline __host__ unsigned long long min(unsigned long long a, long long b) { return (unsigned long long)a < (unsigned long long)b ? (unsigned long long)a : (unsigned long long)b; }
static inline __host__ float min(float a, float b) { return (float)a < (float)b ? (float)a : (float)b; }
static inline __host__ double min(double a, double b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ double min(float a, double b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ double min(double a, float b) { return (double)a < (double)b ? (double)a : (double)b; }
static inline __host__ int max(int a, int b) { return (int)a > (int)b ? (int)a : (int)b; }
static inline __host__ unsigned int max(unsigned int a, unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(int a, unsigned int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ unsigned int max(unsigned int a, int b) { return (unsigned int)a > (unsigned int)b ? (unsigned int)a : (unsigned int)b; }
static inline __host__ long max(long a, long b) { return (long)a > (long)b ? (long)a : (long)b; }
static inline __host__ unsigned long max(unsigned long a, unsigned long b) { return (unsigned long)a > (unsigned long)b ? (unsigned long)a : (unsigned long)b; }
static inline __host__ unsigned long max(long a, unsigned long b) { return (unsigned long)a > (unsigned long)b ? (unsigned long)a : (unsigned long)b; }
static inline __host__ unsigned long max(unsigned long a, long b) { return (unsigned long)a > (unsigned long)b ? (unsigned long)a : (unsigned long)b; }
static inline __host__ long long max(long long a, long long b) { return (long long)a > (long long)b ? (long long)a : (long long)b; }
static inline __host__ unsigned long long max(unsigned long long a, unsigned long long b) { return (unsigned long long)a > (unsigned long long)b ? (unsigned long long)a : (unsigned long long)b; }
static inline __host__ unsigned long long max(long long a, unsigned long long b) { return (unsigned long long)a > (unsigned long long)b ? (unsigned long long)a : (unsigned long long)b; }
static inline __host__ unsigned long long max(unsigned long long a, long long b) { return (unsigned long long)a > (unsigned long long)b ? (unsigned long long)a : (unsigned long long)b; }
static inline __host__ float max(float a, float b) { return (float)a > (float)b ? (float)a : (float)b; }
static inline __host__ double max(double a, double b) { return (double)a > (double)b ? (double)a : (double)b; }
static inline __host__ double max(float a, double b) { return (double)a > (double)b ? (double)a : (double)b; }
static inline __host__ double max(double a, float b) { return (double)a > (double)b ? (double)a : (double)b; }
// clang-format on
#endif
