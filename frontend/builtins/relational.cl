// SPDX-License-Identifier: Apache-2.0
// Relational functions (OpenCL C 1.2 section 6.12.6): select(a, b, c) for every integer and float
// gentype, with c of the signed or the unsigned integer type of the same shape. Scalar: c ? b : a.
// Vector: each lane is b's where c's lane has its most significant bit set, else a's; that is what
// Clang makes of OpenCL C's vector ?: (a lane-wise select on c < 0, for unsigned c too).

#define LOOM_SELECT(T, S, I, U)                                                                    \
  LOOM_BUILTIN T select(T a, T b, I c) { return c ? b : a; }                                      \
  LOOM_BUILTIN T select(T a, T b, U c) { return c ? b : a; }
LOOM_INTEGERS(LOOM_SELECT, LOOM_SHAPES)
LOOM_FLOATS(LOOM_SELECT, LOOM_SHAPES)
