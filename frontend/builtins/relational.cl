// SPDX-License-Identifier: Apache-2.0
// Relational functions (OpenCL C 1.2 section 6.12.6). select(a, b, c) for every integer and float
// gentype, with c of the signed or the unsigned integer type of the same shape. Scalar: c ? b : a.
// Vector: each lane is b's where c's lane has its most significant bit set, else a's; that is what
// Clang makes of OpenCL C's vector ?: (a lane-wise select on c < 0, for unsigned c too).

#define LOOM_SELECT(T, S, I, U)                                                                    \
  LOOM_BUILTIN T select(T a, T b, I c) { return c ? b : a; }                                      \
  LOOM_BUILTIN T select(T a, T b, U c) { return c ? b : a; }
LOOM_INTEGERS(LOOM_SELECT, LOOM_SHAPES)
LOOM_FLOATS(LOOM_SELECT, LOOM_SHAPES)

// The comparisons and classifications of float gentypes (section 6.12.6): int for a scalar (1 true,
// 0 false), the signed integer vector for a vector (-1 true), which is what OpenCL C's own vector
// comparisons give. NaN operands compare false, except in isnotequal and isunordered.
#define LOOM_FLOAT_RELATIONAL(T, S, I, U)                                                          \
  LOOM_BUILTIN I isequal(T x, T y) { return x == y; }                                             \
  LOOM_BUILTIN I isnotequal(T x, T y) { return x != y; }                                          \
  LOOM_BUILTIN I isgreater(T x, T y) { return x > y; }                                            \
  LOOM_BUILTIN I isgreaterequal(T x, T y) { return x >= y; }                                      \
  LOOM_BUILTIN I isless(T x, T y) { return x < y; }                                               \
  LOOM_BUILTIN I islessequal(T x, T y) { return x <= y; }                                         \
  LOOM_BUILTIN I islessgreater(T x, T y) { return (x < y) | (x > y); }                            \
  LOOM_BUILTIN I isfinite(T x) { return fabs(x) < INFINITY; }                                     \
  LOOM_BUILTIN I isinf(T x) { return fabs(x) == INFINITY; }                                       \
  LOOM_BUILTIN I isnan(T x) { return x != x; }                                                    \
  LOOM_BUILTIN I isnormal(T x) { return (fabs(x) >= FLT_MIN) & (fabs(x) < INFINITY); }           \
  LOOM_BUILTIN I isordered(T x, T y) { return (x == x) & (y == y); }                              \
  LOOM_BUILTIN I isunordered(T x, T y) { return (x != x) | (y != y); }                            \
  LOOM_BUILTIN I signbit(T x) { return LOOM_AS(I, x) < (I)0; }
LOOM_FLOATS(LOOM_FLOAT_RELATIONAL, LOOM_SHAPES)

// any and all on signed integer gentypes: whether the most significant bit of any (every) lane is set.
#define LOOM_ANY_ALL_SCALAR(T, S, I, U)                                                            \
  LOOM_BUILTIN int any(T x) { return x < 0; }                                                     \
  LOOM_BUILTIN int all(T x) { return x < 0; }
#define LOOM_ANY_ALL_HALVES(T, S, I, U)                                                            \
  LOOM_BUILTIN int any(T x) { return any(x.lo) | any(x.hi); }                                     \
  LOOM_BUILTIN int all(T x) { return all(x.lo) & all(x.hi); }
#define LOOM_ANY_ALL(T, S, I, U)                                                                   \
  LOOM_ANY_ALL_SCALAR(S, S, I, U)                                                                  \
  LOOM_ANY_ALL_HALVES(S##2, S, I, U)                                                               \
  LOOM_BUILTIN int any(S##3 x) { return any(x.s01) | any(x.s2); }                                 \
  LOOM_BUILTIN int all(S##3 x) { return all(x.s01) & all(x.s2); }                                 \
  LOOM_ANY_ALL_HALVES(S##4, S, I, U) LOOM_ANY_ALL_HALVES(S##8, S, I, U) LOOM_ANY_ALL_HALVES(S##16, S, I, U)
LOOM_SIGNED_INTEGERS(LOOM_ANY_ALL, LOOM_SCALAR_ONLY)

// bitselect(a, b, c): each bit from b where c's is 1, else from a; floats bit for bit.
#define LOOM_BITSELECT_INTEGER(T, S, I, U) LOOM_BUILTIN T bitselect(T a, T b, T c) { return (a & ~c) | (b & c); }
#define LOOM_BITSELECT_FLOAT(T, S, I, U)                                                           \
  LOOM_BUILTIN T bitselect(T a, T b, T c) {                                                       \
    return LOOM_AS(T, bitselect(LOOM_AS(U, a), LOOM_AS(U, b), LOOM_AS(U, c)));                     \
  }
LOOM_INTEGERS(LOOM_BITSELECT_INTEGER, LOOM_SHAPES)
LOOM_FLOATS(LOOM_BITSELECT_FLOAT, LOOM_SHAPES)
