// SPDX-License-Identifier: Apache-2.0
// Math functions (OpenCL C 1.2 section 6.12.2) on float, float2 ... float16. sqrt, fabs, copysign,
// fmin, fmax (also with a scalar second operand) and mad are Clang builtins that are LLVM
// intrinsics (llvm.sqrt.f32: correctly rounded; llvm.fabs, llvm.copysign, llvm.minnum,
// llvm.maxnum) on both targets. The other scalar functions are each target's own: in hardware the
// float-arithmetic library (math/all.cl), synthesised like user code; on the CPU device the C
// library, but for log, log1p and cbrt, the float-arithmetic library's too (below). A vector applies
// the scalar function to each lane, so the hardware flow sees scalars.

LOOM_BUILTIN float sqrt(float x) { return __builtin_sqrtf(x); }
LOOM_BUILTIN float fabs(float x) { return __builtin_fabsf(x); }
LOOM_BUILTIN float copysign(float x, float y) { return __builtin_copysignf(x, y); }
// NaN operands: fmin(NaN, y) = y, as the spec asks (llvm.minnum).
LOOM_BUILTIN float fmin(float x, float y) { return __builtin_fminf(x, y); }
LOOM_BUILTIN float fmax(float x, float y) { return __builtin_fmaxf(x, y); }

// F on a vector from F on its halves (float3: lanes 0-1 and lane 2), down to the scalar.
#define LOOM_HALVES_UNARY(T, F) LOOM_BUILTIN T F(T x) { return (T)(F(x.lo), F(x.hi)); }
#define LOOM_HALVES_BINARY(T, F) LOOM_BUILTIN T F(T x, T y) { return (T)(F(x.lo, y.lo), F(x.hi, y.hi)); }
#define LOOM_LANEWISE_UNARY(F)                                                                     \
  LOOM_HALVES_UNARY(float2, F)                                                                    \
  LOOM_BUILTIN float3 F(float3 x) { return (float3)(F(x.s01), F(x.s2)); }                         \
  LOOM_HALVES_UNARY(float4, F) LOOM_HALVES_UNARY(float8, F) LOOM_HALVES_UNARY(float16, F)
#define LOOM_LANEWISE_BINARY(F)                                                                    \
  LOOM_HALVES_BINARY(float2, F)                                                                   \
  LOOM_BUILTIN float3 F(float3 x, float3 y) { return (float3)(F(x.s01, y.s01), F(x.s2, y.s2)); }  \
  LOOM_HALVES_BINARY(float4, F) LOOM_HALVES_BINARY(float8, F) LOOM_HALVES_BINARY(float16, F)

LOOM_LANEWISE_UNARY(sqrt)
LOOM_LANEWISE_UNARY(fabs)
LOOM_LANEWISE_BINARY(copysign)
LOOM_LANEWISE_BINARY(fmin)
LOOM_LANEWISE_BINARY(fmax)

#define LOOM_FMIN_FMAX_SCALAR(T, S, I, U) LOOM_SCALAR_OPERAND(T, S, fmin) LOOM_SCALAR_OPERAND(T, S, fmax)
LOOM_FLOATS(LOOM_FMIN_FMAX_SCALAR, LOOM_VECTOR_SHAPES)

// mad(a, b, c) = a * b + c rounded twice (the library is built with -ffp-contract=off): the spec
// allows any accuracy, and the board's units round each operation.
#define LOOM_MAD(T, S, I, U) LOOM_BUILTIN T mad(T a, T b, T c) { return a * b + c; }
LOOM_FLOATS(LOOM_MAD, LOOM_SHAPES)

#ifdef __SPIR__
#include "math/all.cl"
#define LOOM_SCALAR_UNARY(F, C) LOOM_BUILTIN float F(float x) { return loom_##F(x); }
#define LOOM_SCALAR_BINARY(F, C) LOOM_BUILTIN float F(float x, float y) { return loom_##F(x, y); }
LOOM_SCALAR_UNARY(lgamma, )
LOOM_SCALAR_UNARY(sinpi, )
LOOM_SCALAR_UNARY(cospi, )
LOOM_SCALAR_UNARY(tanpi, )
LOOM_SCALAR_UNARY(asinpi, )
LOOM_SCALAR_UNARY(acospi, )
LOOM_SCALAR_UNARY(atanpi, )
LOOM_SCALAR_BINARY(atan2pi, )
LOOM_SCALAR_UNARY(rsqrt, )
LOOM_BUILTIN float fma(float a, float b, float c) { return loom_fma(a, b, c); }
LOOM_BUILTIN float pown(float x, int n) { return loom_pown(x, n); }
LOOM_BUILTIN float rootn(float x, int n) { return loom_rootn(x, n); }
LOOM_BUILTIN float ldexp(float x, int n) { return loom_ldexp(x, n); }
LOOM_BUILTIN int ilogb(float x) { return loom_ilogb(x); }
#define LOOM_FREXP loom_frexp
#define LOOM_REMQUO loom_remquo
#define LOOM_LGAMMA_R loom_lgamma_r
#else
// On the CPU device: the C library's single-precision functions (glibc 2.36, which the CPU device's
// process has loaded; within the spec's ulp bounds), and where it has none (the *pi functions,
// rsqrt, rootn) the double-precision function rounded once. But log, log1p and cbrt are the
// float-arithmetic library's (math/all.cl), as in hardware but computing denormals (the device's
// threads keep them: no FTZ or DAZ), with the C library's special values: glibc's logf, log1pf and
// cbrtf have no vector versions within the spec's bounds (libmvec's: 3.97 of 3, 2.11 of 2, 2.85 of
// 2 ULP), and a call to the scalar function keeps the loop over work-items scalar (or makes the
// vectorised loop call it lane by lane), where these selects and float arithmetic vectorise.
// bench_math_ulp, over every float: 0.84, 0.87 and 0.50 ULP.
// No errno in OpenCL C: the functions without a pointer operand are pure (`const`), so that LLVM may
// move, merge and vectorise their calls (with libmvec's versions, runtime/devices/cpu/CpuProgram.cpp),
// instead of treating each as a write of errno.
#define LOOM_PURE __attribute__((const))
float acosf(float) LOOM_PURE;
float acoshf(float) LOOM_PURE;
float asinf(float) LOOM_PURE;
float asinhf(float) LOOM_PURE;
float atanf(float) LOOM_PURE;
float atanhf(float) LOOM_PURE;
float ceilf(float) LOOM_PURE;
float cosf(float) LOOM_PURE;
float coshf(float) LOOM_PURE;
float erfcf(float) LOOM_PURE;
float erff(float) LOOM_PURE;
float expf(float) LOOM_PURE;
float exp2f(float) LOOM_PURE;
float exp10f(float) LOOM_PURE;
float expm1f(float) LOOM_PURE;
float floorf(float) LOOM_PURE;
float lgammaf_r(float, int *);
float log2f(float) LOOM_PURE;
float log10f(float) LOOM_PURE;
float logbf(float) LOOM_PURE;
float rintf(float) LOOM_PURE;
float roundf(float) LOOM_PURE;
float sinf(float) LOOM_PURE;
float sinhf(float) LOOM_PURE;
float tanf(float) LOOM_PURE;
float tanhf(float) LOOM_PURE;
float tgammaf(float) LOOM_PURE;
float truncf(float) LOOM_PURE;
float atan2f(float, float) LOOM_PURE;
float fdimf(float, float) LOOM_PURE;
float fmodf(float, float) LOOM_PURE;
float hypotf(float, float) LOOM_PURE;
float nextafterf(float, float) LOOM_PURE;
float powf(float, float) LOOM_PURE;
float remainderf(float, float) LOOM_PURE;
float frexpf(float, int *);
float ldexpf(float, int) LOOM_PURE;
int ilogbf(float) LOOM_PURE;

#define LOOM_SCALAR_UNARY(F, C) LOOM_BUILTIN float F(float x) { return C(x); }
#define LOOM_SCALAR_BINARY(F, C) LOOM_BUILTIN float F(float x, float y) { return C(x, y); }

// lgamma without the sign (lgammaf itself writes the global signgam).
LOOM_BUILTIN float lgamma(float x) {
  int sign;
  return lgammaf_r(x, &sign);
}

// x reduced to r in [-1, 1] with the same sine and cosine of pi * x (x - 2 rint(x / 2) is exact in
// float), then pi * r in double. Where the result is an exact zero or infinity the spec gives it
// and its sign (sin(pi) in double is 1.2e-16, not 0): sinpi(+-n) = +-0, cospi(n + 0.5) = +0,
// tanpi(n) = +-0 with the sign of x for even n and against it for odd n, tanpi(n + 0.5) = +inf for
// even n, -inf for odd n.
#define LOOM_PI 3.14159265358979323846
static float __attribute__((overloadable, always_inline)) loom_half_turns(float x) {
  return x - 2.0f * rintf(0.5f * x);
}
LOOM_BUILTIN float sinpi(float x) {
  const float r = loom_half_turns(x);
  return r == rintf(r) ? copysign(0.0f, x) : (float)__builtin_sin(LOOM_PI * (double)r);
}
LOOM_BUILTIN float cospi(float x) {
  const float r = loom_half_turns(x);
  return fabs(r) == 0.5f ? 0.0f : (float)__builtin_cos(LOOM_PI * (double)r);
}
LOOM_BUILTIN float tanpi(float x) {
  const float r = loom_half_turns(x);
  if (r == rintf(r))
    return copysign(0.0f, r == 0.0f ? x : -x);
  if (fabs(r) == 0.5f)
    return copysign(INFINITY, r);
  return (float)__builtin_tan(LOOM_PI * (double)r);
}
LOOM_BUILTIN float asinpi(float x) { return (float)(__builtin_asin((double)x) / LOOM_PI); }
LOOM_BUILTIN float acospi(float x) { return (float)(__builtin_acos((double)x) / LOOM_PI); }
LOOM_BUILTIN float atanpi(float x) { return (float)(__builtin_atan((double)x) / LOOM_PI); }
LOOM_BUILTIN float atan2pi(float y, float x) { return (float)(__builtin_atan2((double)y, (double)x) / LOOM_PI); }
LOOM_BUILTIN float rsqrt(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }
LOOM_BUILTIN float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
// The sign of an odd power or root is the base's, -0's included; n is exact in double (a float
// would round an odd n above 2^24 to an even one).
LOOM_BUILTIN float pown(float x, int n) {
  const float magnitude = (float)__builtin_pow(__builtin_fabs((double)x), (double)n);
  return (n & 1) ? copysign(magnitude, x) : magnitude;
}
LOOM_BUILTIN float rootn(float x, int n) {
  if (n == 0 || (x < 0.0f && (n & 1) == 0))
    return NAN;
  const float root = (float)__builtin_pow(__builtin_fabs((double)x), 1.0 / n);
  return (n & 1) ? copysign(root, x) : root;
}
LOOM_BUILTIN float ldexp(float x, int n) { return ldexpf(x, n); }
// OpenCL's FP_ILOGBNAN is INT_MAX; glibc's is INT_MIN (its FP_ILOGB0, OpenCL's too).
LOOM_BUILTIN int ilogb(float x) { return isnan(x) ? INT_MAX : ilogbf(x); }
// remquo: the remainder of remainder(x, y) and the quotient's sign with its 7 low bits, as OpenCL
// asks (the C library's remquof gives 3). fmod by 128 y keeps the quotient's low 7 bits; 64 y, 32 y,
// ... y then take them off one by one, each subtraction exact (Sterbenz: the operands are within a
// factor of 2), and the last step rounds the quotient to nearest, ties to even, as remainder does.
static float __attribute__((overloadable, always_inline)) loom_libm_remquo(float x, float y, int *q) {
  *q = 0;
  if (isnan(x) || isnan(y) || isinf(x) || y == 0.0f)
    return NAN;
  if (isinf(y) || x == 0.0f)
    return x;
  const float ay = fabs(y);
  float ax = ay < 0x1p121f ? fmodf(fabs(x), 128.0f * ay) : fabs(x);
  int bits = 0;
  for (int bit = 64; bit > 0; bit >>= 1) {
    const float multiple = (float)bit * ay; // infinite when it exceeds every float: then above ax
    if (ax >= multiple) {
      ax -= multiple;
      bits += bit;
    }
  }
  if (2.0f * ax > ay || (2.0f * ax == ay && (bits & 1))) {
    ax -= ay;
    bits += 1;
  }
  *q = (signbit(x) != signbit(y) ? -1 : 1) * (bits & 0x7f);
  return signbit(x) ? -ax : ax; // a zero keeps x's sign
}

#define LOOM_FREXP frexpf
#define LOOM_REMQUO loom_libm_remquo
#define LOOM_LGAMMA_R lgammaf_r

#include "math/all.cl"
static float __attribute__((overloadable, always_inline)) loom_cpu_log(float x) { return loom_log_of(x, true); }
static float __attribute__((overloadable, always_inline)) loom_cpu_cbrt(float x) { return loom_cbrt_of(x, true); }
#endif

// Each function's scalar (the target's, above: in hardware loom_<name>, on the CPU device the second
// operand) and its vector forms.
#define LOOM_MATH_UNARY(F, C) LOOM_SCALAR_UNARY(F, C) LOOM_LANEWISE_UNARY(F)
#define LOOM_MATH_BINARY(F, C) LOOM_SCALAR_BINARY(F, C) LOOM_LANEWISE_BINARY(F)
LOOM_MATH_UNARY(acos, acosf)
LOOM_MATH_UNARY(acosh, acoshf)
LOOM_MATH_UNARY(asin, asinf)
LOOM_MATH_UNARY(asinh, asinhf)
LOOM_MATH_UNARY(atan, atanf)
LOOM_MATH_UNARY(atanh, atanhf)
LOOM_MATH_UNARY(cbrt, loom_cpu_cbrt)
LOOM_MATH_UNARY(ceil, ceilf)
LOOM_MATH_UNARY(cos, cosf)
LOOM_MATH_UNARY(cosh, coshf)
LOOM_MATH_UNARY(erfc, erfcf)
LOOM_MATH_UNARY(erf, erff)
LOOM_MATH_UNARY(exp, expf)
LOOM_MATH_UNARY(exp2, exp2f)
LOOM_MATH_UNARY(exp10, exp10f)
LOOM_MATH_UNARY(expm1, expm1f)
LOOM_MATH_UNARY(floor, floorf)
LOOM_MATH_UNARY(log, loom_cpu_log)
LOOM_MATH_UNARY(log2, log2f)
LOOM_MATH_UNARY(log10, log10f)
LOOM_MATH_UNARY(log1p, loom_log1p)
LOOM_MATH_UNARY(logb, logbf)
LOOM_MATH_UNARY(rint, rintf)
LOOM_MATH_UNARY(round, roundf)
LOOM_MATH_UNARY(sin, sinf)
LOOM_MATH_UNARY(sinh, sinhf)
LOOM_MATH_UNARY(tan, tanf)
LOOM_MATH_UNARY(tanh, tanhf)
LOOM_MATH_UNARY(tgamma, tgammaf)
LOOM_MATH_UNARY(trunc, truncf)
LOOM_MATH_BINARY(atan2, atan2f)
LOOM_MATH_BINARY(fdim, fdimf)
LOOM_MATH_BINARY(fmod, fmodf)
LOOM_MATH_BINARY(hypot, hypotf)
LOOM_MATH_BINARY(nextafter, nextafterf)
LOOM_MATH_BINARY(pow, powf)
LOOM_MATH_BINARY(remainder, remainderf)
LOOM_LANEWISE_UNARY(lgamma)
LOOM_LANEWISE_UNARY(sinpi)
LOOM_LANEWISE_UNARY(cospi)
LOOM_LANEWISE_UNARY(tanpi)
LOOM_LANEWISE_UNARY(asinpi)
LOOM_LANEWISE_UNARY(acospi)
LOOM_LANEWISE_UNARY(atanpi)
LOOM_LANEWISE_BINARY(atan2pi)
LOOM_LANEWISE_UNARY(rsqrt)

LOOM_BUILTIN float maxmag(float x, float y) {
  return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y);
}
LOOM_BUILTIN float minmag(float x, float y) {
  return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y);
}
// powr is pow for x >= 0, and NaN where the spec says: x < 0, 0^0, inf^0, 1^inf.
LOOM_BUILTIN float powr(float x, float y) {
  if (x < 0.0f || isnan(x) || isnan(y) || (x == 0.0f && y == 0.0f) || (isinf(x) && y == 0.0f) ||
      (x == 1.0f && isinf(y)))
    return NAN;
  if (x == 0.0f) // -0 too: powr has no odd powers of a negative base
    return y < 0.0f ? INFINITY : 0.0f;
  return pow(x, y);
}
LOOM_LANEWISE_BINARY(maxmag)
LOOM_LANEWISE_BINARY(minmag)
LOOM_LANEWISE_BINARY(powr)
#define LOOM_FMA_VECTOR(T, S, I, U) LOOM_BUILTIN T fma(T a, T b, T c) { return (T)(fma(a.lo, b.lo, c.lo), fma(a.hi, b.hi, c.hi)); }
LOOM_FMA_VECTOR(float2, float, int, uint)
LOOM_BUILTIN float3 fma(float3 a, float3 b, float3 c) { return (float3)(fma(a.s01, b.s01, c.s01), fma(a.s2, b.s2, c.s2)); }
LOOM_FMA_VECTOR(float4, float, int, uint)
LOOM_FMA_VECTOR(float8, float, int, uint)
LOOM_FMA_VECTOR(float16, float, int, uint)

// With an int (vector) second operand: pown, rootn, ldexp (also with a scalar n).
LOOM_BUILTIN float nan(uint code) { return LOOM_AS(float, 0x7fc00000u | code); }
#define LOOM_INT_OPERAND(F, T, IT)                                                                 \
  LOOM_BUILTIN T F(T x, IT n) { return (T)(F(x.lo, n.lo), F(x.hi, n.hi)); }
#define LOOM_INT_OPERAND_SHAPES(F)                                                                 \
  LOOM_INT_OPERAND(F, float2, int2)                                                               \
  LOOM_BUILTIN float3 F(float3 x, int3 n) { return (float3)(F(x.s01, n.s01), F(x.s2, n.s2)); }    \
  LOOM_INT_OPERAND(F, float4, int4) LOOM_INT_OPERAND(F, float8, int8) LOOM_INT_OPERAND(F, float16, int16)
LOOM_INT_OPERAND_SHAPES(pown)
LOOM_INT_OPERAND_SHAPES(rootn)
LOOM_INT_OPERAND_SHAPES(ldexp)
#define LOOM_LDEXP_SCALAR(T, S, I, U) LOOM_BUILTIN T ldexp(T x, int n) { return ldexp(x, (I)n); }
LOOM_FLOATS(LOOM_LDEXP_SCALAR, LOOM_VECTOR_SHAPES)
#define LOOM_ILOGB(T, IT) LOOM_BUILTIN IT ilogb(T x) { return (IT)(ilogb(x.lo), ilogb(x.hi)); }
LOOM_ILOGB(float2, int2)
LOOM_BUILTIN int3 ilogb(float3 x) { return (int3)(ilogb(x.s01), ilogb(x.s2)); }
LOOM_ILOGB(float4, int4)
LOOM_ILOGB(float8, int8)
LOOM_ILOGB(float16, int16)
#define LOOM_NAN(T, U) LOOM_BUILTIN T nan(U code) { return LOOM_AS(T, (U)0x7fc00000u | code); }
LOOM_NAN(float2, uint2)
LOOM_NAN(float3, uint3)
LOOM_NAN(float4, uint4)
LOOM_NAN(float8, uint8)
LOOM_NAN(float16, uint16)

// The native_ and half_ variants: the spec leaves their accuracy to the implementation (half_: 8192
// ulp); they are the full-precision functions.
#define LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, F) LOOM_BUILTIN T PREFIX##F(T x) { return F(x); }
#define LOOM_ALIAS_BINARY(T, S, I, U, PREFIX, F) LOOM_BUILTIN T PREFIX##F(T x, T y) { return F(x, y); }
#define LOOM_VARIANTS(T, S, I, U, PREFIX)                                                          \
  LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, cos) LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, exp)              \
  LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, exp2) LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, exp10)           \
  LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, log) LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, log2)             \
  LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, log10) LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, rsqrt)          \
  LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, sin) LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, sqrt)             \
  LOOM_ALIAS_UNARY(T, S, I, U, PREFIX, tan) LOOM_ALIAS_BINARY(T, S, I, U, PREFIX, powr)            \
  LOOM_BUILTIN T PREFIX##divide(T x, T y) { return x / y; }                                       \
  LOOM_BUILTIN T PREFIX##recip(T x) { return 1.0f / x; }
#define LOOM_NATIVE(T, S, I, U) LOOM_VARIANTS(T, S, I, U, native_)
#define LOOM_HALF(T, S, I, U) LOOM_VARIANTS(T, S, I, U, half_)
LOOM_FLOATS(LOOM_NATIVE, LOOM_SHAPES)
LOOM_FLOATS(LOOM_HALF, LOOM_SHAPES)

// The functions with a pointer operand, for every address space a pointer may have (OpenCL C 1.2's
// three, and 2.0's generic): the scalar through the target's function with a private temporary, a
// vector lane by lane.
#define LOOM_POINTER_SCALARS(AS)                                                                   \
  LOOM_BUILTIN float frexp(float x, AS int *e) { int t; float r = LOOM_FREXP(x, &t); *e = t; return r; } \
  LOOM_BUILTIN float modf(float x, AS float *i) { float t; float whole = trunc(x); *i = whole; return isinf(x) ? copysign(0.0f, x) : copysign(x - whole, x); } \
  LOOM_BUILTIN float sincos(float x, AS float *c) { *c = cos(x); return sin(x); }                  \
  LOOM_BUILTIN float remquo(float x, float y, AS int *q) { int t; float r = LOOM_REMQUO(x, y, &t); *q = t; return r; } \
  LOOM_BUILTIN float fract(float x, AS float *i) {                                                 \
    float whole = floor(x);                                                                       \
    *i = whole;                                                                                    \
    return isnan(x) ? x : isinf(x) || x == 0.0f ? copysign(0.0f, x) : fmin(x - whole, 0x1.fffffep-1f); \
  }                                                                                                \
  LOOM_BUILTIN float lgamma_r(float x, AS int *s) { int t; float r = LOOM_LGAMMA_R(x, &t); *s = t; return r; }
#define LOOM_LANES(N) for (int lane = 0; lane < (N); ++lane)
#define LOOM_POINTER_VECTOR(N, AS)                                                                 \
  LOOM_BUILTIN float##N frexp(float##N x, AS int##N *e) {                                          \
    float##N r; int##N o; LOOM_LANES(N) { int t; r[lane] = frexp(x[lane], &t); o[lane] = t; } *e = o; return r; } \
  LOOM_BUILTIN float##N modf(float##N x, AS float##N *i) {                                         \
    float##N r, o; LOOM_LANES(N) { float t; r[lane] = modf(x[lane], &t); o[lane] = t; } *i = o; return r; } \
  LOOM_BUILTIN float##N sincos(float##N x, AS float##N *c) { *c = cos(x); return sin(x); }         \
  LOOM_BUILTIN float##N remquo(float##N x, float##N y, AS int##N *q) {                             \
    float##N r; int##N o; LOOM_LANES(N) { int t; r[lane] = remquo(x[lane], y[lane], &t); o[lane] = t; } *q = o; return r; } \
  LOOM_BUILTIN float##N fract(float##N x, AS float##N *i) {                                        \
    float##N r, o; LOOM_LANES(N) { float t; r[lane] = fract(x[lane], &t); o[lane] = t; } *i = o; return r; } \
  LOOM_BUILTIN float##N lgamma_r(float##N x, AS int##N *s) {                                       \
    float##N r; int##N o; LOOM_LANES(N) { int t; r[lane] = lgamma_r(x[lane], &t); o[lane] = t; } *s = o; return r; }
#define LOOM_POINTER_FUNCTIONS(AS)                                                                 \
  LOOM_POINTER_SCALARS(AS) LOOM_POINTER_VECTOR(2, AS) LOOM_POINTER_VECTOR(3, AS)                   \
  LOOM_POINTER_VECTOR(4, AS) LOOM_POINTER_VECTOR(8, AS) LOOM_POINTER_VECTOR(16, AS)
LOOM_POINTER_FUNCTIONS(__private) // First: the vector forms' lanes call these.
LOOM_POINTER_FUNCTIONS(__global)
LOOM_POINTER_FUNCTIONS(__local)
LOOM_POINTER_FUNCTIONS()
