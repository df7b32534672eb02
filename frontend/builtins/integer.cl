// SPDX-License-Identifier: Apache-2.0
// Integer functions (OpenCL C 1.2 section 6.12.3) on char, uchar, short, ushort, int, uint, long,
// ulong and their vectors: abs, min, max, clamp (also with scalar second and third operands), and on
// int and uint gentypes mul24 and mad24. The same OpenCL C expression serves scalars and vectors.

// abs returns the unsigned type: abs(INT_MIN) = 2^31. (x ^ s) - s with s = x >> (bits - 1), in
// unsigned arithmetic, is llvm.abs(x, false) (defined for INT_MIN).
#define LOOM_ABS_SIGNED(T, S, I, U)                                                                \
  LOOM_BUILTIN U abs(T x) {                                                                       \
    T sign = x >> (8 * sizeof(S) - 1);                                                            \
    U mask = LOOM_AS(U, sign);                                                                    \
    return (LOOM_AS(U, x) ^ mask) - mask;                                                         \
  }
#define LOOM_ABS_UNSIGNED(T, S, I, U) LOOM_BUILTIN T abs(T x) { return x; }
LOOM_SIGNED_INTEGERS(LOOM_ABS_SIGNED, LOOM_SHAPES)
LOOM_UNSIGNED_INTEGERS(LOOM_ABS_UNSIGNED, LOOM_SHAPES)

// A compare and a select: llvm.smin / smax / umin / umax. (A vector comparison gives -1 per true lane,
// and the vector ?: picks by each lane's most significant bit.)
#define LOOM_INTEGER_MIN_MAX(T, S, I, U)                                                           \
  LOOM_BUILTIN T min(T x, T y) { return y < x ? y : x; }                                          \
  LOOM_BUILTIN T max(T x, T y) { return x < y ? y : x; }
LOOM_INTEGERS(LOOM_INTEGER_MIN_MAX, LOOM_SHAPES)
LOOM_INTEGERS(LOOM_CLAMP, LOOM_SHAPES)
LOOM_INTEGERS(LOOM_SCALAR_BOUNDS, LOOM_VECTOR_SHAPES)

// mul24 and mad24 are defined for 24-bit operands only (signed [-2^23, 2^23), unsigned [0, 2^24));
// they are the full 32-bit multiply (and add), computed unsigned so overflow outside that range wraps
// instead of being undefined.
#define LOOM_MUL24_MAD24(T, S, I, U)                                                               \
  LOOM_BUILTIN T mul24(T x, T y) { return LOOM_AS(T, LOOM_AS(U, x) * LOOM_AS(U, y)); }            \
  LOOM_BUILTIN T mad24(T x, T y, T z) { return LOOM_AS(T, LOOM_AS(U, mul24(x, y)) + LOOM_AS(U, z)); }
LOOM_SHAPES(LOOM_MUL24_MAD24, int, int, uint)
LOOM_SHAPES(LOOM_MUL24_MAD24, uint, int, uint)
