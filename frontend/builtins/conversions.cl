// SPDX-License-Identifier: Apache-2.0
// Explicit conversions (OpenCL C 1.2 section 6.2.3): convert_T(x), convert_T_sat(x) and the rounding
// modes _rte, _rtz, _rtp, _rtn, between char, uchar, short, ushort, int, uint, long, ulong and float,
// scalars and vectors of the same width.
//
// The default rounding is the spec's: toward zero to an integer, to nearest even to float, which is
// what C's conversions (and __builtin_convertvector) do. _sat clamps to the destination's range
// (NaN to 0); there is no _sat to float. A rounding mode that is the default (or means nothing, as
// between integers) is the plain conversion; float to integer with _rte, _rtp or _rtn rounds first
// (rint, ceil, floor: the CPU device's C library, the board's math library). Integer to float
// with _rtz, _rtp or _rtn corrects the nearest float by one step where it lies on the wrong side of
// the integer (integer arithmetic only, so on both devices).

#define LOOM_MIN_char CHAR_MIN
#define LOOM_MAX_char CHAR_MAX
#define LOOM_MIN_uchar 0
#define LOOM_MAX_uchar UCHAR_MAX
#define LOOM_MIN_short SHRT_MIN
#define LOOM_MAX_short SHRT_MAX
#define LOOM_MIN_ushort 0
#define LOOM_MAX_ushort USHRT_MAX
#define LOOM_MIN_int INT_MIN
#define LOOM_MAX_int INT_MAX
#define LOOM_MIN_uint 0
#define LOOM_MAX_uint UINT_MAX
#define LOOM_MIN_long LONG_MIN
#define LOOM_MAX_long LONG_MAX
#define LOOM_MIN_ulong 0
#define LOOM_MAX_ulong ULONG_MAX

// M(S, T, ...) for every destination T of a source S; then for every source.
#define LOOM_TO_INTEGERS(M, S, ...)                                                                \
  M(S, char, __VA_ARGS__) M(S, uchar, __VA_ARGS__) M(S, short, __VA_ARGS__) M(S, ushort, __VA_ARGS__) \
  M(S, int, __VA_ARGS__) M(S, uint, __VA_ARGS__) M(S, long, __VA_ARGS__) M(S, ulong, __VA_ARGS__)
#define LOOM_TO_ALL(M, S, ...) LOOM_TO_INTEGERS(M, S, __VA_ARGS__) M(S, float, __VA_ARGS__)
// SIGNED: 1 for a signed integer source, 0 for unsigned, 2 for float.
#define LOOM_FROM_ALL(TO, M)                                                                       \
  TO(M, char, 1) TO(M, uchar, 0) TO(M, short, 1) TO(M, ushort, 0) TO(M, int, 1) TO(M, uint, 0)    \
  TO(M, long, 1) TO(M, ulong, 0) TO(M, float, 2)

// A conversion's vector forms (convert_T<N><SUFFIX>, SUFFIX "_sat", "_rte", ...) from its scalar
// one, lane by lane.
#define LOOM_CONVERT_LANES(S, T, SUFFIX)                                                           \
  LOOM_CONVERT_LANES_N(S, T, SUFFIX, 2) LOOM_CONVERT_LANES_N(S, T, SUFFIX, 3)                      \
  LOOM_CONVERT_LANES_N(S, T, SUFFIX, 4) LOOM_CONVERT_LANES_N(S, T, SUFFIX, 8)                      \
  LOOM_CONVERT_LANES_N(S, T, SUFFIX, 16)
#define LOOM_CONVERT_LANES_N(S, T, SUFFIX, N)                                                      \
  LOOM_BUILTIN T##N convert_##T##N##SUFFIX(S##N x) {                                               \
    T##N result;                                                                                   \
    for (int lane = 0; lane < N; ++lane)                                                           \
      result[lane] = convert_##T##SUFFIX(x[lane]);                                                 \
    return result;                                                                                 \
  }

// Plain (SUFFIX empty), and the rounding modes that are the same conversion.
#define LOOM_CONVERT_NAMED(S, T, SUFFIX)                                                           \
  LOOM_BUILTIN T convert_##T##SUFFIX(S x) { return (T)x; }                                        \
  LOOM_BUILTIN T##2 convert_##T##2##SUFFIX(S##2 x) { return __builtin_convertvector(x, T##2); }   \
  LOOM_BUILTIN T##3 convert_##T##3##SUFFIX(S##3 x) { return __builtin_convertvector(x, T##3); }   \
  LOOM_BUILTIN T##4 convert_##T##4##SUFFIX(S##4 x) { return __builtin_convertvector(x, T##4); }   \
  LOOM_BUILTIN T##8 convert_##T##8##SUFFIX(S##8 x) { return __builtin_convertvector(x, T##8); }   \
  LOOM_BUILTIN T##16 convert_##T##16##SUFFIX(S##16 x) { return __builtin_convertvector(x, T##16); }
#define LOOM_CONVERT_PLAIN(S, T, SIGNED) LOOM_CONVERT_NAMED(S, T, )
LOOM_FROM_ALL(LOOM_TO_ALL, LOOM_CONVERT_PLAIN)
// Between integers every mode is the plain conversion; to float _rte is.
#define LOOM_CONVERT_MODES_INTEGER(S, T, SIGNED)                                                  \
  LOOM_CONVERT_NAMED(S, T, _rte) LOOM_CONVERT_NAMED(S, T, _rtz) LOOM_CONVERT_NAMED(S, T, _rtp)      \
  LOOM_CONVERT_NAMED(S, T, _rtn)
#define LOOM_CONVERT_RTE_FLOAT(S, T, SIGNED) LOOM_CONVERT_NAMED(S, float, _rte)
#define LOOM_INTEGER_SOURCES(TO, M)                                                                \
  TO(M, char, 1) TO(M, uchar, 0) TO(M, short, 1) TO(M, ushort, 0) TO(M, int, 1) TO(M, uint, 0)    \
  TO(M, long, 1) TO(M, ulong, 0)
#define LOOM_ONCE(M, S, SIGNED) M(S, float, SIGNED)
LOOM_INTEGER_SOURCES(LOOM_TO_INTEGERS, LOOM_CONVERT_MODES_INTEGER)
LOOM_INTEGER_SOURCES(LOOM_ONCE, LOOM_CONVERT_RTE_FLOAT)

// Whether the float f nearest integer x (an integral value, never 0 unless x is) is above it (1),
// below it (-1) or x itself (0): compared as long for narrower sources, else as x's type, which f
// overflows only at 2^63 (long) or 2^64 (ulong), above every x.
#define LOOM_FLOAT_SIDE(S, SIGNED)                                                                 \
  static int __attribute__((overloadable, always_inline)) loom_float_side(S x, float f) {         \
    if (sizeof(S) < 8)                                                                             \
      return (long)f > (long)x ? 1 : (long)f < (long)x ? -1 : 0;                                   \
    if (f >= (SIGNED ? 0x1p63f : 0x1p64f))                                                         \
      return 1;                                                                                    \
    return (S)f > x ? 1 : (S)f < x ? -1 : 0;                                                       \
  }
#define LOOM_FLOAT_SIDE_FROM(S, T, SIGNED) LOOM_FLOAT_SIDE(S, SIGNED)
LOOM_INTEGER_SOURCES(LOOM_ONCE, LOOM_FLOAT_SIDE_FROM)
// Integer to float toward zero, up or down: the nearest float, moved one step (one unit of its
// bits: down in magnitude by -1, up by +1) when it lies on the wrong side.
#define LOOM_CONVERT_DIRECTED(S, T, SIGNED)                                                        \
  LOOM_BUILTIN float convert_float_rtz(S x) {                                                      \
    float f = (float)x;                                                                            \
    int side = loom_float_side(x, f);                                                              \
    return side != 0 && (side > 0) == (f > 0) ? LOOM_AS(float, LOOM_AS(int, f) - 1) : f;          \
  }                                                                                                \
  LOOM_BUILTIN float convert_float_rtp(S x) {                                                      \
    float f = (float)x;                                                                            \
    return loom_float_side(x, f) < 0 ? LOOM_AS(float, LOOM_AS(int, f) + (f > 0 ? 1 : -1)) : f;     \
  }                                                                                                \
  LOOM_BUILTIN float convert_float_rtn(S x) {                                                      \
    float f = (float)x;                                                                            \
    return loom_float_side(x, f) > 0 ? LOOM_AS(float, LOOM_AS(int, f) + (f > 0 ? -1 : 1)) : f;     \
  }                                                                                                \
  LOOM_CONVERT_LANES(S, float, _rtz) LOOM_CONVERT_LANES(S, float, _rtp) LOOM_CONVERT_LANES(S, float, _rtn)
LOOM_INTEGER_SOURCES(LOOM_ONCE, LOOM_CONVERT_DIRECTED)
LOOM_CONVERT_NAMED(float, float, _rte)
LOOM_CONVERT_NAMED(float, float, _rtz)
LOOM_CONVERT_NAMED(float, float, _rtp)
LOOM_CONVERT_NAMED(float, float, _rtn)
// Float to integer toward zero is the default.
#define LOOM_CONVERT_RTZ_FROM_FLOAT(S, T, SIGNED) LOOM_CONVERT_NAMED(float, T, _rtz)
LOOM_TO_INTEGERS(LOOM_CONVERT_RTZ_FROM_FLOAT, float, 2)

// Saturation to an integer type: compared as long (a signed source) or ulong, or as float.
#define LOOM_CONVERT_SAT(S, T, SIGNED)                                                             \
  LOOM_BUILTIN T convert_##T##_sat(S x) {                                                          \
    if (SIGNED == 2) {                                                                             \
      if (x != x)                                                                                  \
        return 0;                                                                                  \
      if (x <= (float)LOOM_MIN_##T)                                                                \
        return LOOM_MIN_##T;                                                                       \
      if (x >= (float)LOOM_MAX_##T)                                                                \
        return LOOM_MAX_##T;                                                                       \
      return (T)x;                                                                                 \
    }                                                                                              \
    if (SIGNED == 1 && (long)x < (long)LOOM_MIN_##T)                                               \
      return LOOM_MIN_##T;                                                                         \
    if (!(SIGNED == 1 && (long)x < 0) && (ulong)x > (ulong)LOOM_MAX_##T)                           \
      return LOOM_MAX_##T;                                                                         \
    return (T)x;                                                                                   \
  }                                                                                                \
  LOOM_CONVERT_LANES(S, T, _sat)
LOOM_FROM_ALL(LOOM_TO_INTEGERS, LOOM_CONVERT_SAT)
// Integer _sat with a rounding mode: the mode means nothing between integers; from float, toward zero.
#define LOOM_CONVERT_SAT_MODE(S, T, SIGNED, MODE)                                                  \
  LOOM_BUILTIN T convert_##T##_sat##MODE(S x) { return convert_##T##_sat(x); }                   \
  LOOM_CONVERT_LANES(S, T, _sat##MODE)
#define LOOM_CONVERT_SAT_MODES(S, T, SIGNED)                                                       \
  LOOM_CONVERT_SAT_MODE(S, T, SIGNED, _rtz)                                                        \
  LOOM_IF_INTEGER_SOURCE_##SIGNED(LOOM_CONVERT_SAT_MODE(S, T, SIGNED, _rte)                        \
                                  LOOM_CONVERT_SAT_MODE(S, T, SIGNED, _rtp)                        \
                                  LOOM_CONVERT_SAT_MODE(S, T, SIGNED, _rtn))
#define LOOM_IF_INTEGER_SOURCE_0(...) __VA_ARGS__
#define LOOM_IF_INTEGER_SOURCE_1(...) __VA_ARGS__
#define LOOM_IF_INTEGER_SOURCE_2(...)
LOOM_FROM_ALL(LOOM_TO_INTEGERS, LOOM_CONVERT_SAT_MODES)

// Float to integer rounding to nearest even, up or down: rounded to an integral float first.
#define LOOM_CONVERT_ROUNDED(S, T, SIGNED, MODE, ROUND)                                            \
  LOOM_BUILTIN T convert_##T##MODE(float x) { return (T)ROUND(x); }                              \
  LOOM_CONVERT_LANES(float, T, MODE)                                                               \
  LOOM_BUILTIN T convert_##T##_sat##MODE(float x) { return convert_##T##_sat(ROUND(x)); }        \
  LOOM_CONVERT_LANES(float, T, _sat##MODE)
#define LOOM_CONVERT_ROUNDINGS(S, T, SIGNED)                                                       \
  LOOM_CONVERT_ROUNDED(S, T, SIGNED, _rte, rint)                                                   \
  LOOM_CONVERT_ROUNDED(S, T, SIGNED, _rtp, ceil)                                                   \
  LOOM_CONVERT_ROUNDED(S, T, SIGNED, _rtn, floor)
LOOM_TO_INTEGERS(LOOM_CONVERT_ROUNDINGS, float, 2)
