// SPDX-License-Identifier: Apache-2.0
// Math functions (OpenCL C 1.2 section 6.12.2) on float, float2 ... float16: sqrt, fabs, copysign,
// fmin, fmax (also with a scalar second operand) and mad. Scalars are Clang builtins that are LLVM
// intrinsics (llvm.sqrt.f32: correctly rounded; llvm.fabs, llvm.copysign, llvm.minnum,
// llvm.maxnum); a vector applies the scalar function to each lane, so the hardware flow sees one
// scalar intrinsic per lane.

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
