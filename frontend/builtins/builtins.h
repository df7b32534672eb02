// SPDX-License-Identifier: Apache-2.0
// Shared by the builtin library's .cl files: the attribute every builtin carries, the gentype lists
// the families expand over, and the "scalar operand" forms several families share.
#pragma once

// Overloadable: the names are mangled as the user's calls to them are (_Z3maxii). Always-inline:
// linked internal, they disappear into the caller at every optimisation level, -cl-opt-disable
// included (Clang's -O0 pipeline runs the AlwaysInliner), so no call to them reaches hls/.
#define LOOM_BUILTIN __attribute__((overloadable, always_inline))

// Reinterprets the bits of x as type T (same size): as_uint4(x) for any type.
#define LOOM_AS(T, x) __builtin_astype((x), T)

// M(T, S, I, U) for every shape of one scalar type S: T is S, S2, S3, S4, S8 or S16, and I and U the
// signed and unsigned integer types of T's shape and lane width (for float: int and uint).
#define LOOM_VECTOR_SHAPES(M, S, I, U)                                                              \
  M(S##2, S, I##2, U##2) M(S##3, S, I##3, U##3) M(S##4, S, I##4, U##4) M(S##8, S, I##8, U##8)     \
  M(S##16, S, I##16, U##16)
#define LOOM_SHAPES(M, S, I, U) M(S, S, I, U) LOOM_VECTOR_SHAPES(M, S, I, U)
#define LOOM_SCALAR_ONLY(M, S, I, U) M(S, S, I, U)

// SHAPES(M, ...) over scalar types: SHAPES is LOOM_SHAPES (every gentype) or LOOM_VECTOR_SHAPES.
#define LOOM_SIGNED_INTEGERS(M, SHAPES)                                                            \
  SHAPES(M, char, char, uchar) SHAPES(M, short, short, ushort) SHAPES(M, int, int, uint)         \
  SHAPES(M, long, long, ulong)
#define LOOM_UNSIGNED_INTEGERS(M, SHAPES)                                                          \
  SHAPES(M, uchar, char, uchar) SHAPES(M, ushort, short, ushort) SHAPES(M, uint, int, uint)      \
  SHAPES(M, ulong, long, ulong)
#define LOOM_INTEGERS(M, SHAPES) LOOM_SIGNED_INTEGERS(M, SHAPES) LOOM_UNSIGNED_INTEGERS(M, SHAPES)
#define LOOM_FLOATS(M, SHAPES) SHAPES(M, float, int, uint)

// clamp(x, lo, hi) = min(max(x, lo), hi) (the spec's definition for integers and floats), and the
// vector forms whose second and third operands are scalars, widened to the vector: min(int4, int).
#define LOOM_CLAMP(T, S, I, U)                                                                     \
  LOOM_BUILTIN T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
#define LOOM_SCALAR_OPERAND(T, S, F)                                                               \
  LOOM_BUILTIN T F(T x, S y) { return F(x, (T)y); }
#define LOOM_SCALAR_BOUNDS(T, S, I, U)                                                             \
  LOOM_SCALAR_OPERAND(T, S, min)                                                                  \
  LOOM_SCALAR_OPERAND(T, S, max)                                                                  \
  LOOM_BUILTIN T clamp(T x, S lo, S hi) { return clamp(x, (T)lo, (T)hi); }
