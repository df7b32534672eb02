// SPDX-License-Identifier: Apache-2.0
// Common functions (OpenCL C 1.2 section 6.12.4) on float gentypes: min, max and clamp, also with
// scalar second and third operands. The spec leaves NaN operands undefined; these are fmin and fmax
// (llvm.minnum / llvm.maxnum) and clamp is fmin(fmax(x, lo), hi), its definition. degrees, radians,
// mix, step, smoothstep (with scalar edges too) and sign, each the spec's formula.

#define LOOM_FLOAT_MIN_MAX(T, S, I, U)                                                             \
  LOOM_BUILTIN T min(T x, T y) { return fmin(x, y); }                                             \
  LOOM_BUILTIN T max(T x, T y) { return fmax(x, y); }
LOOM_FLOATS(LOOM_FLOAT_MIN_MAX, LOOM_SHAPES)
LOOM_FLOATS(LOOM_CLAMP, LOOM_SHAPES)
LOOM_FLOATS(LOOM_SCALAR_BOUNDS, LOOM_VECTOR_SHAPES)

#define LOOM_COMMON(T, S, I, U)                                                                    \
  LOOM_BUILTIN T degrees(T radians) { return (180.0f / M_PI_F) * radians; }                       \
  LOOM_BUILTIN T radians(T degrees) { return (M_PI_F / 180.0f) * degrees; }                       \
  LOOM_BUILTIN T mix(T x, T y, T a) { return x + (y - x) * a; }                                   \
  LOOM_BUILTIN T step(T edge, T x) { return x < edge ? (T)0.0f : (T)1.0f; }                       \
  LOOM_BUILTIN T smoothstep(T edge0, T edge1, T x) {                                               \
    T t = clamp((x - edge0) / (edge1 - edge0), (T)0.0f, (T)1.0f);                                  \
    return t * t * ((T)3.0f - (T)2.0f * t);                                                        \
  }                                                                                                \
  /* 1, -1, +-0 or 0 (NaN) with x's sign: copysign keeps the zero's. */                           \
  LOOM_BUILTIN T sign(T x) {                                                                      \
    return x > (T)0.0f ? (T)1.0f : x < (T)0.0f ? (T)-1.0f : x == x ? copysign((T)0.0f, x) : (T)0.0f; \
  }
LOOM_FLOATS(LOOM_COMMON, LOOM_SCALAR_ONLY)
#define LOOM_COMMON_SCALAR(T, S, I, U)                                                             \
  LOOM_BUILTIN T mix(T x, T y, S a) { return mix(x, y, (T)a); }                                   \
  LOOM_BUILTIN T step(S edge, T x) { return step((T)edge, x); }                                   \
  LOOM_BUILTIN T smoothstep(S edge0, S edge1, T x) { return smoothstep((T)edge0, (T)edge1, x); }
#define LOOM_COMMON_VECTOR(T, S, I, U) LOOM_COMMON(T, S, I, U) LOOM_COMMON_SCALAR(T, S, I, U)
LOOM_FLOATS(LOOM_COMMON_VECTOR, LOOM_VECTOR_SHAPES)
