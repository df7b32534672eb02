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

// The bit and arithmetic functions of section 6.12.3 on every integer gentype, a scalar at a time (a
// vector lane by lane): clz, ctz (OpenCL C 2.0), popcount, rotate, add_sat, sub_sat, hadd, rhadd,
// mul_hi, mad_hi, mad_sat, abs_diff (the unsigned type), upsample (twice the width). Overflow checks are
// Clang's __builtin_add/sub_overflow; the 64-bit high product is assembled from 32-bit halves.
#define LOOM_BITS(S) (8 * (int)sizeof(S))
#define LOOM_INTEGER_SCALARS(T, S, I, U)                                                           \
  LOOM_BUILTIN S clz(S x) {                                                                       \
    U u = LOOM_AS(U, x);                                                                           \
    return u == 0 ? (S)LOOM_BITS(S)                                                                \
                  : (S)(sizeof(S) == 8 ? __builtin_clzl((ulong)u) : __builtin_clz((uint)u) - (32 - LOOM_BITS(S))); \
  }                                                                                                \
  LOOM_BUILTIN S ctz(S x) {                                                                       \
    U u = LOOM_AS(U, x);                                                                           \
    return u == 0 ? (S)LOOM_BITS(S) : (S)(sizeof(S) == 8 ? __builtin_ctzl((ulong)u) : __builtin_ctz((uint)u)); \
  }                                                                                                \
  LOOM_BUILTIN S popcount(S x) {                                                                  \
    U u = LOOM_AS(U, x);                                                                           \
    return (S)(sizeof(S) == 8 ? __builtin_popcountl((ulong)u) : __builtin_popcount((uint)u));      \
  }                                                                                                \
  LOOM_BUILTIN S rotate(S v, S i) {                                                               \
    U u = LOOM_AS(U, v);                                                                           \
    int n = (int)(LOOM_AS(U, i) & (U)(LOOM_BITS(S) - 1));                                          \
    return n == 0 ? v : LOOM_AS(S, (U)((U)(u << n) | (U)(u >> (LOOM_BITS(S) - n))));               \
  }                                                                                                \
  LOOM_BUILTIN S add_sat(S x, S y) {                                                              \
    S sum;                                                                                         \
    if (!__builtin_add_overflow(x, y, &sum))                                                       \
      return sum;                                                                                  \
    return (S)-1 > 0 ? (S)-1 : x < 0 ? (S)((U)1 << (LOOM_BITS(S) - 1)) : (S)(((U)1 << (LOOM_BITS(S) - 1)) - 1); \
  }                                                                                                \
  LOOM_BUILTIN S sub_sat(S x, S y) {                                                              \
    S difference;                                                                                  \
    if (!__builtin_sub_overflow(x, y, &difference))                                                \
      return difference;                                                                           \
    return (S)-1 > 0 ? (S)0 : x < 0 ? (S)((U)1 << (LOOM_BITS(S) - 1)) : (S)(((U)1 << (LOOM_BITS(S) - 1)) - 1); \
  }                                                                                                \
  LOOM_BUILTIN S hadd(S x, S y) { return (S)((x >> 1) + (y >> 1) + (x & y & 1)); }                \
  LOOM_BUILTIN S rhadd(S x, S y) { return (S)((x >> 1) + (y >> 1) + ((x | y) & 1)); }             \
  LOOM_BUILTIN U abs_diff(S x, S y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); }       \
  LOOM_BUILTIN S mul_hi(S x, S y) { return loom_mul_hi(x, y); }                                   \
  LOOM_BUILTIN S mad_hi(S a, S b, S c) { return (S)(mul_hi(a, b) + c); }                          \
  LOOM_BUILTIN S mad_sat(S a, S b, S c) { return loom_mad_sat(a, b, c); }

// The high half of the full product: through the next wider type, or from 32-bit halves for 64 bits.
#define LOOM_MUL_HI_WIDER(S, W)                                                                    \
  static S __attribute__((overloadable, always_inline)) loom_mul_hi(S x, S y) {                   \
    return (S)(((W)x * (W)y) >> (8 * sizeof(S)));                                                  \
  }
LOOM_MUL_HI_WIDER(char, short)
LOOM_MUL_HI_WIDER(uchar, ushort)
LOOM_MUL_HI_WIDER(short, int)
LOOM_MUL_HI_WIDER(ushort, uint)
LOOM_MUL_HI_WIDER(int, long)
LOOM_MUL_HI_WIDER(uint, ulong)
static ulong __attribute__((overloadable, always_inline)) loom_mul_hi(ulong x, ulong y) {
  ulong xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
  ulong low = xl * yl, middle1 = xh * yl + (low >> 32), middle2 = xl * yh + (middle1 & 0xffffffffu);
  return xh * yh + (middle1 >> 32) + (middle2 >> 32);
}
// Signed: the unsigned high product, less y where x is negative and x where y is.
static long __attribute__((overloadable, always_inline)) loom_mul_hi(long x, long y) {
  ulong high = loom_mul_hi((ulong)x, (ulong)y);
  return (long)(high - (x < 0 ? (ulong)y : 0) - (y < 0 ? (ulong)x : 0));
}

// mad_sat: a * b + c exactly, then clamped: in the next wider type, or for 64 bits from the 128-bit
// product (mul_hi's high half, the wrapped low half) plus c, which fits when its high half is the
// sign extension of its low half.
#define LOOM_MAD_SAT_SIGNED(S, W, LO, HI)                                                          \
  static S __attribute__((overloadable, always_inline)) loom_mad_sat(S a, S b, S c) {             \
    W r = (W)a * (W)b + (W)c;                                                                      \
    return r > (W)HI ? (S)HI : r < (W)LO ? (S)LO : (S)r;                                           \
  }
#define LOOM_MAD_SAT_UNSIGNED(S, W, HI)                                                            \
  static S __attribute__((overloadable, always_inline)) loom_mad_sat(S a, S b, S c) {             \
    W r = (W)a * (W)b + (W)c;                                                                      \
    return r > (W)HI ? (S)HI : (S)r;                                                               \
  }
LOOM_MAD_SAT_SIGNED(char, short, CHAR_MIN, CHAR_MAX)
LOOM_MAD_SAT_UNSIGNED(uchar, ushort, UCHAR_MAX)
LOOM_MAD_SAT_SIGNED(short, int, SHRT_MIN, SHRT_MAX)
LOOM_MAD_SAT_UNSIGNED(ushort, uint, USHRT_MAX)
LOOM_MAD_SAT_SIGNED(int, long, INT_MIN, INT_MAX)
LOOM_MAD_SAT_UNSIGNED(uint, ulong, UINT_MAX)
static ulong __attribute__((overloadable, always_inline)) loom_mad_sat(ulong a, ulong b, ulong c) {
  ulong sum;
  if (loom_mul_hi(a, b) != 0 || __builtin_add_overflow(a * b, c, &sum))
    return ULONG_MAX;
  return sum;
}
static long __attribute__((overloadable, always_inline)) loom_mad_sat(long a, long b, long c) {
  ulong low = (ulong)a * (ulong)b, sumLow = low + (ulong)c;
  long high = loom_mul_hi(a, b) + (c < 0 ? -1 : 0) + (sumLow < low ? 1 : 0);
  if (high == ((long)sumLow < 0 ? -1 : 0))
    return (long)sumLow;
  return high < 0 ? LONG_MIN : LONG_MAX;
}
LOOM_INTEGERS(LOOM_INTEGER_SCALARS, LOOM_SCALAR_ONLY)

#define LOOM_LANES_2(N, R, F, T) LOOM_BUILTIN R##N F(T##N x, T##N y) { R##N r; for (int k = 0; k < N; ++k) r[k] = F(x[k], y[k]); return r; }
#define LOOM_LANES_1(N, R, F, T) LOOM_BUILTIN R##N F(T##N x) { R##N r; for (int k = 0; k < N; ++k) r[k] = F(x[k]); return r; }
#define LOOM_LANES_3(N, R, F, T) LOOM_BUILTIN R##N F(T##N x, T##N y, T##N z) { R##N r; for (int k = 0; k < N; ++k) r[k] = F(x[k], y[k], z[k]); return r; }
#define LOOM_INTEGER_VECTORS_N(N, S, U)                                                            \
  LOOM_LANES_1(N, S, clz, S) LOOM_LANES_1(N, S, ctz, S) LOOM_LANES_1(N, S, popcount, S)            \
  LOOM_LANES_2(N, S, rotate, S) LOOM_LANES_2(N, S, add_sat, S) LOOM_LANES_2(N, S, sub_sat, S)      \
  LOOM_LANES_2(N, S, hadd, S) LOOM_LANES_2(N, S, rhadd, S) LOOM_LANES_2(N, U, abs_diff, S)         \
  LOOM_LANES_2(N, S, mul_hi, S) LOOM_LANES_3(N, S, mad_hi, S) LOOM_LANES_3(N, S, mad_sat, S)
#define LOOM_INTEGER_VECTORS(T, S, I, U)                                                           \
  LOOM_INTEGER_VECTORS_N(2, S, U) LOOM_INTEGER_VECTORS_N(3, S, U) LOOM_INTEGER_VECTORS_N(4, S, U) \
  LOOM_INTEGER_VECTORS_N(8, S, U) LOOM_INTEGER_VECTORS_N(16, S, U)
LOOM_INTEGERS(LOOM_INTEGER_VECTORS, LOOM_SCALAR_ONLY)

// upsample(hi, lo): hi in the upper half of the twice-as-wide result, lo (unsigned) in the lower.
#define LOOM_UPSAMPLE(H, L, W, UW)                                                                 \
  LOOM_BUILTIN W upsample(H hi, L lo) { return (W)(((UW)hi << (8 * sizeof(L))) | (UW)lo); }       \
  LOOM_UPSAMPLE_N(2, H, L, W) LOOM_UPSAMPLE_N(3, H, L, W) LOOM_UPSAMPLE_N(4, H, L, W)               \
  LOOM_UPSAMPLE_N(8, H, L, W) LOOM_UPSAMPLE_N(16, H, L, W)
#define LOOM_UPSAMPLE_N(N, H, L, W)                                                                \
  LOOM_BUILTIN W##N upsample(H##N hi, L##N lo) { W##N r; for (int k = 0; k < N; ++k) r[k] = upsample(hi[k], lo[k]); return r; }
LOOM_UPSAMPLE(char, uchar, short, ushort)
LOOM_UPSAMPLE(uchar, uchar, ushort, ushort)
LOOM_UPSAMPLE(short, ushort, int, uint)
LOOM_UPSAMPLE(ushort, ushort, uint, uint)
LOOM_UPSAMPLE(int, uint, long, ulong)
LOOM_UPSAMPLE(uint, uint, ulong, ulong)
