// SPDX-License-Identifier: Apache-2.0
// Common functions (OpenCL C 1.2 section 6.12.4) on float gentypes: min, max and clamp, also with
// scalar second and third operands. The spec leaves NaN operands undefined; these are fmin and fmax
// (llvm.minnum / llvm.maxnum) and clamp is fmin(fmax(x, lo), hi), its definition.

#define LOOM_FLOAT_MIN_MAX(T, S, I, U)                                                             \
  LOOM_BUILTIN T min(T x, T y) { return fmin(x, y); }                                             \
  LOOM_BUILTIN T max(T x, T y) { return fmax(x, y); }
LOOM_FLOATS(LOOM_FLOAT_MIN_MAX, LOOM_SHAPES)
LOOM_FLOATS(LOOM_CLAMP, LOOM_SHAPES)
LOOM_FLOATS(LOOM_SCALAR_BOUNDS, LOOM_VECTOR_SHAPES)
