// SPDX-License-Identifier: Apache-2.0
// The board's math library compiled for the host, for the tests of tests/FloatMath.h: the builtin
// families its functions call (fabs, isnan, clamp, ...), then its float-arithmetic math.
#include "builtins.h"

#include "math.cl"
#include "common.cl"
#include "integer.cl"
#include "relational.cl"
#include "math/all.cl"

// The functions with a pointer operand under C names: their mangled names carry the pointer's
// OpenCL address space, which C++ cannot spell.
float loom_frexp_c(float x, int *e) {
  int t;
  const float m = loom_frexp(x, &t);
  *e = t;
  return m;
}
float loom_remquo_c(float x, float y, int *quotient) {
  int t;
  const float r = loom_remquo(x, y, &t);
  *quotient = t;
  return r;
}
float loom_lgamma_r_c(float x, int *sign) {
  int t;
  const float r = loom_lgamma_r(x, &t);
  *sign = t;
  return r;
}
