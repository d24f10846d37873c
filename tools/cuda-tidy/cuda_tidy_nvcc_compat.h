// What nvcc's headers give that Clang's CUDA headers do not, force-included
// by cuda-tidy so that code written for nvcc parses as it is.
//
// - Host twins of CUDA's min and max overloads: nvcc declares them
//   __host__ __device__, Clang's wrapper __device__ only, so host code that
//   calls max(x, 1.0f) does not parse.
// - <math.h> and <time.h> on the host: nvcc's cuda_runtime.h brings in
//   ::isfinite, clock() and CLOCKS_PER_SEC; Clang's does not.
// - The cache-hinted stores __stcs, __stcg, __stwb and loads __ldca,
//   __ldlu, declared for the types of Clang's __stwt and __ldcs (only
//   declared: analysis needs no bodies).
// - With CUDA 13 or newer, the APIs CUDA 13 removed, so that code written for
//   older toolkits parses and its kernels are analysed (cuda-tidy notes each
//   file that uses them; see LegacyCuda.h): cudaThreadSynchronize and the
//   other cudaThread* calls, texture references (texture<T, N, mode>, their
//   tex1Dfetch/tex1D/tex2D/tex3D fetches, cudaBindTexture and the like) and
//   the cudaDeviceProp fields clockRate, deviceOverlap and the rest, through
//   a type derived from cudaDeviceProp. A texture reference uses Clang's
//   device_builtin_texture_type, which makes it a device variable as nvcc
//   did. Surface references are not declared.
//
// - nvcc's version macros __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__ and
//   __CUDACC_VER_BUILD__, from the toolkit's version that cuda-tidy passes as
//   __CUDA_TIDY_CUDACC_VER_*__ (CudaToolchain.h), unless the command line
//   defines them itself: code that branches on them (llm.c's common.h
//   declares its own __ldcs below CUDA 12) takes the toolkit's branch.
//
// - _CG_CLUSTER_INTRINSICS_AVAILABLE: cooperative groups declare
//   cluster_group, this_cluster() and map_shared_rank only under nvcc
//   (__NVCC__) or with this macro; Clang has the intrinsics they are made
//   of, so that code using clusters parses as nvcc compiles it.
//
// All but the version and cluster macros only in CUDA mode, where __CUDA__ is
// set, and once Clang's CUDA runtime wrapper has defined __host__: with
// -nocudainc (a stub toolkit, as in cuda-clangd's tests) there is nothing to be
// compatible with.
#if defined(__CUDA_TIDY_CUDACC_VER_MAJOR__) && !defined(__CUDACC_VER_MAJOR__)
#define __CUDACC_VER_MAJOR__ __CUDA_TIDY_CUDACC_VER_MAJOR__
#define __CUDACC_VER_MINOR__ __CUDA_TIDY_CUDACC_VER_MINOR__
#define __CUDACC_VER_BUILD__ __CUDA_TIDY_CUDACC_VER_BUILD__
#endif
#ifndef _CG_CLUSTER_INTRINSICS_AVAILABLE
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#endif

#if defined(__CUDA__) && defined(__cplusplus) && defined(__host__) &&         \
    !defined(CUDA_TIDY_NVCC_COMPAT)
#define CUDA_TIDY_NVCC_COMPAT
#include <math.h>
#include <time.h>
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
__device__ void __stcs(char *__ptr, char __value);
__device__ void __stcs(char2 *__ptr, char2 __value);
__device__ void __stcs(char4 *__ptr, char4 __value);
__device__ void __stcs(double *__ptr, double __value);
__device__ void __stcs(double2 *__ptr, double2 __value);
__device__ void __stcs(float *__ptr, float __value);
__device__ void __stcs(float2 *__ptr, float2 __value);
__device__ void __stcs(float4 *__ptr, float4 __value);
__device__ void __stcs(int *__ptr, int __value);
__device__ void __stcs(int2 *__ptr, int2 __value);
__device__ void __stcs(int4 *__ptr, int4 __value);
__device__ void __stcs(long long *__ptr, long long __value);
__device__ void __stcs(longlong2 *__ptr, longlong2 __value);
__device__ void __stcs(short *__ptr, short __value);
__device__ void __stcs(short2 *__ptr, short2 __value);
__device__ void __stcs(short4 *__ptr, short4 __value);
__device__ void __stcs(signed char *__ptr, signed char __value);
__device__ void __stcs(uchar2 *__ptr, uchar2 __value);
__device__ void __stcs(uchar4 *__ptr, uchar4 __value);
__device__ void __stcs(uint2 *__ptr, uint2 __value);
__device__ void __stcs(uint4 *__ptr, uint4 __value);
__device__ void __stcs(ulonglong2 *__ptr, ulonglong2 __value);
__device__ void __stcs(unsigned char *__ptr, unsigned char __value);
__device__ void __stcs(unsigned int *__ptr, unsigned int __value);
__device__ void __stcs(unsigned long long *__ptr, unsigned long long __value);
__device__ void __stcs(unsigned short *__ptr, unsigned short __value);
__device__ void __stcs(ushort2 *__ptr, ushort2 __value);
__device__ void __stcs(ushort4 *__ptr, ushort4 __value);
__device__ void __stcg(char *__ptr, char __value);
__device__ void __stcg(char2 *__ptr, char2 __value);
__device__ void __stcg(char4 *__ptr, char4 __value);
__device__ void __stcg(double *__ptr, double __value);
__device__ void __stcg(double2 *__ptr, double2 __value);
__device__ void __stcg(float *__ptr, float __value);
__device__ void __stcg(float2 *__ptr, float2 __value);
__device__ void __stcg(float4 *__ptr, float4 __value);
__device__ void __stcg(int *__ptr, int __value);
__device__ void __stcg(int2 *__ptr, int2 __value);
__device__ void __stcg(int4 *__ptr, int4 __value);
__device__ void __stcg(long long *__ptr, long long __value);
__device__ void __stcg(longlong2 *__ptr, longlong2 __value);
__device__ void __stcg(short *__ptr, short __value);
__device__ void __stcg(short2 *__ptr, short2 __value);
__device__ void __stcg(short4 *__ptr, short4 __value);
__device__ void __stcg(signed char *__ptr, signed char __value);
__device__ void __stcg(uchar2 *__ptr, uchar2 __value);
__device__ void __stcg(uchar4 *__ptr, uchar4 __value);
__device__ void __stcg(uint2 *__ptr, uint2 __value);
__device__ void __stcg(uint4 *__ptr, uint4 __value);
__device__ void __stcg(ulonglong2 *__ptr, ulonglong2 __value);
__device__ void __stcg(unsigned char *__ptr, unsigned char __value);
__device__ void __stcg(unsigned int *__ptr, unsigned int __value);
__device__ void __stcg(unsigned long long *__ptr, unsigned long long __value);
__device__ void __stcg(unsigned short *__ptr, unsigned short __value);
__device__ void __stcg(ushort2 *__ptr, ushort2 __value);
__device__ void __stcg(ushort4 *__ptr, ushort4 __value);
__device__ void __stwb(char *__ptr, char __value);
__device__ void __stwb(char2 *__ptr, char2 __value);
__device__ void __stwb(char4 *__ptr, char4 __value);
__device__ void __stwb(double *__ptr, double __value);
__device__ void __stwb(double2 *__ptr, double2 __value);
__device__ void __stwb(float *__ptr, float __value);
__device__ void __stwb(float2 *__ptr, float2 __value);
__device__ void __stwb(float4 *__ptr, float4 __value);
__device__ void __stwb(int *__ptr, int __value);
__device__ void __stwb(int2 *__ptr, int2 __value);
__device__ void __stwb(int4 *__ptr, int4 __value);
__device__ void __stwb(long long *__ptr, long long __value);
__device__ void __stwb(longlong2 *__ptr, longlong2 __value);
__device__ void __stwb(short *__ptr, short __value);
__device__ void __stwb(short2 *__ptr, short2 __value);
__device__ void __stwb(short4 *__ptr, short4 __value);
__device__ void __stwb(signed char *__ptr, signed char __value);
__device__ void __stwb(uchar2 *__ptr, uchar2 __value);
__device__ void __stwb(uchar4 *__ptr, uchar4 __value);
__device__ void __stwb(uint2 *__ptr, uint2 __value);
__device__ void __stwb(uint4 *__ptr, uint4 __value);
__device__ void __stwb(ulonglong2 *__ptr, ulonglong2 __value);
__device__ void __stwb(unsigned char *__ptr, unsigned char __value);
__device__ void __stwb(unsigned int *__ptr, unsigned int __value);
__device__ void __stwb(unsigned long long *__ptr, unsigned long long __value);
__device__ void __stwb(unsigned short *__ptr, unsigned short __value);
__device__ void __stwb(ushort2 *__ptr, ushort2 __value);
__device__ void __stwb(ushort4 *__ptr, ushort4 __value);
__device__ char __ldca(const char *__ptr);
__device__ char2 __ldca(const char2 *__ptr);
__device__ char4 __ldca(const char4 *__ptr);
__device__ double __ldca(const double *__ptr);
__device__ double2 __ldca(const double2 *__ptr);
__device__ float __ldca(const float *__ptr);
__device__ float2 __ldca(const float2 *__ptr);
__device__ float4 __ldca(const float4 *__ptr);
__device__ int __ldca(const int *__ptr);
__device__ int2 __ldca(const int2 *__ptr);
__device__ int4 __ldca(const int4 *__ptr);
__device__ long long __ldca(const long long *__ptr);
__device__ longlong2 __ldca(const longlong2 *__ptr);
__device__ short __ldca(const short *__ptr);
__device__ short2 __ldca(const short2 *__ptr);
__device__ short4 __ldca(const short4 *__ptr);
__device__ signed char __ldca(const signed char *__ptr);
__device__ uchar2 __ldca(const uchar2 *__ptr);
__device__ uchar4 __ldca(const uchar4 *__ptr);
__device__ uint2 __ldca(const uint2 *__ptr);
__device__ uint4 __ldca(const uint4 *__ptr);
__device__ ulonglong2 __ldca(const ulonglong2 *__ptr);
__device__ unsigned char __ldca(const unsigned char *__ptr);
__device__ unsigned int __ldca(const unsigned int *__ptr);
__device__ unsigned long long __ldca(const unsigned long long *__ptr);
__device__ unsigned short __ldca(const unsigned short *__ptr);
__device__ ushort2 __ldca(const ushort2 *__ptr);
__device__ ushort4 __ldca(const ushort4 *__ptr);
__device__ char __ldlu(const char *__ptr);
__device__ char2 __ldlu(const char2 *__ptr);
__device__ char4 __ldlu(const char4 *__ptr);
__device__ double __ldlu(const double *__ptr);
__device__ double2 __ldlu(const double2 *__ptr);
__device__ float __ldlu(const float *__ptr);
__device__ float2 __ldlu(const float2 *__ptr);
__device__ float4 __ldlu(const float4 *__ptr);
__device__ int __ldlu(const int *__ptr);
__device__ int2 __ldlu(const int2 *__ptr);
__device__ int4 __ldlu(const int4 *__ptr);
__device__ long long __ldlu(const long long *__ptr);
__device__ longlong2 __ldlu(const longlong2 *__ptr);
__device__ short __ldlu(const short *__ptr);
__device__ short2 __ldlu(const short2 *__ptr);
__device__ short4 __ldlu(const short4 *__ptr);
__device__ signed char __ldlu(const signed char *__ptr);
__device__ uchar2 __ldlu(const uchar2 *__ptr);
__device__ uchar4 __ldlu(const uchar4 *__ptr);
__device__ uint2 __ldlu(const uint2 *__ptr);
__device__ uint4 __ldlu(const uint4 *__ptr);
__device__ ulonglong2 __ldlu(const ulonglong2 *__ptr);
__device__ unsigned char __ldlu(const unsigned char *__ptr);
__device__ unsigned int __ldlu(const unsigned int *__ptr);
__device__ unsigned long long __ldlu(const unsigned long long *__ptr);
__device__ unsigned short __ldlu(const unsigned short *__ptr);
__device__ ushort2 __ldlu(const ushort2 *__ptr);
__device__ ushort4 __ldlu(const ushort4 *__ptr);
// clang-format on

#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
};
template <class T, int dim = 1,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp);
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc);
};
// What a fetch returns: the element type, or float for normalised reads.
template <class T, enum cudaTextureReadMode mode>
struct cuda_tidy_texture_value {
  typedef T type;
};
template <class T>
struct cuda_tidy_texture_value<T, cudaReadModeNormalizedFloat> {
  typedef float type;
};
template <class T, enum cudaTextureReadMode mode>
__device__ typename cuda_tidy_texture_value<T, mode>::type
tex1Dfetch(texture<T, 1, mode> t, int x);
template <class T, enum cudaTextureReadMode mode>
__device__ typename cuda_tidy_texture_value<T, mode>::type
tex1D(texture<T, 1, mode> t, float x);
template <class T, enum cudaTextureReadMode mode>
__device__ typename cuda_tidy_texture_value<T, mode>::type
tex2D(texture<T, 2, mode> t, float x, float y);
template <class T, enum cudaTextureReadMode mode>
__device__ typename cuda_tidy_texture_value<T, mode>::type
tex3D(texture<T, 3, mode> t, float x, float y, float z);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const texture<T, dim, mode> &tex,
                                     const void *devPtr,
                                     size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const texture<T, dim, mode> &tex,
                                     const void *devPtr,
                                     const struct cudaChannelFormatDesc &desc,
                                     size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const texture<T, dim, mode> &tex,
                                       const void *devPtr, size_t width,
                                       size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const texture<T, dim, mode> &tex,
                                       const void *devPtr,
                                       const struct cudaChannelFormatDesc &desc,
                                       size_t width, size_t height,
                                       size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex,
                                            cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTextureToArray(
    const texture<T, dim, mode> &tex, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaUnbindTexture(const texture<T, dim, mode> &tex);
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const struct textureReference *texref,
                                     const void *devPtr,
                                     const struct cudaChannelFormatDesc *desc,
                                     size_t size = ~(size_t)0);
__host__ cudaError_t cudaUnbindTexture(const struct textureReference *texref);
__host__ cudaError_t cudaGetTextureReference(
    const struct textureReference **texref, const void *symbol);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaThreadExit(void);
__host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);
__host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
__host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config);
// Not an aggregate, so that the old `cudaDeviceProp prop = {0};` still
// parses.
struct cuda_tidy_legacy_device_prop : cudaDeviceProp {
  int clockRate;
  int memoryClockRate;
  int deviceOverlap;
  int kernelExecTimeoutEnabled;
  int computeMode;
  int maxTexture1DLinear;
  int singleToDoublePrecisionPerfRatio;
  int cooperativeMultiDeviceLaunch;
  cuda_tidy_legacy_device_prop() = default;
  __host__ cuda_tidy_legacy_device_prop(int) {}
};
#define cudaDeviceProp cuda_tidy_legacy_device_prop
#endif
#endif
