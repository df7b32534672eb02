// SPDX-License-Identifier: Apache-2.0
// Rounding to integers and the functions of a float's fields, on its bits: trunc, floor, ceil, rint,
// round, frexp, ldexp, ilogb, logb, nextafter, fdim. A float of magnitude 2^23 or more (infinities
// and NaNs too) is already an integer.

LOOM_MATH float loom_trunc(float x) {
  const int e = loom_exponent(x);
  const uint kept = ~(LOOM_FRACTION_MASK >> clamp(e, 0, 23)); // the bits of the integer part
  return e >= 23 ? x : e < 0 ? as_float(as_uint(x) & LOOM_SIGN_MASK) : as_float(as_uint(x) & kept);
}
LOOM_MATH float loom_floor(float x) {
  const float t = loom_trunc(x);
  return t > x ? t - 1.0f : t; // -0.5 truncates to -0, which is above it
}
LOOM_MATH float loom_ceil(float x) {
  const float t = loom_trunc(x);
  return t < x ? t + 1.0f : t;
}
// Adding and taking away 2^23 rounds a smaller magnitude to an integer, to nearest even, in the adder.
LOOM_MATH float loom_rint(float x) {
  const float magnitude = fabs(x);
  const float rounded = (magnitude + 0x1p23f) - 0x1p23f;
  return magnitude < 0x1p23f ? copysign(rounded, x) : x;
}
// Halves away from zero: x - trunc(x) is exact.
LOOM_MATH float loom_round(float x) {
  const float t = loom_trunc(x);
  return fabs(x - t) >= 0.5f ? t + copysign(1.0f, x) : t;
}

// x = m * 2^e with 0.5 <= |m| < 1; zeros (and denormals, read as zeros), infinities and NaN are
// their own m with e = 0.
LOOM_MATH float loom_frexp(float x, __private int *e) {
  const int exponent = loom_exponent(x);
  const bool finite = exponent > -127 && exponent < 128;
  *e = finite ? exponent + 1 : 0;
  return finite ? as_float((as_uint(x) & ~LOOM_EXPONENT_MASK) | (126u << 23))
                : loom_is_zero(x) ? copysign(0.0f, x) : x;
}
LOOM_MATH float loom_ldexp(float x, int n) { return loom_scale(x, n); }
// OpenCL's FP_ILOGB0 is INT_MIN, its FP_ILOGBNAN INT_MAX.
LOOM_MATH int loom_ilogb(float x) {
  const int exponent = loom_exponent(x);
  return exponent == -127 ? INT_MIN : exponent == 128 ? INT_MAX : exponent;
}
LOOM_MATH float loom_logb(float x) {
  const int exponent = loom_exponent(x);
  return exponent == -127 ? -INFINITY : exponent == 128 ? x * x : (float)exponent;
}

// The float next to x towards y, by stepping x's bits as an ordered integer (sign and magnitude to
// two's complement); a bit operation, so the step from zero is the smallest denormal.
LOOM_MATH float loom_nextafter(float x, float y) {
  const uint ux = as_uint(x), uy = as_uint(y);
  const int ox = (ux & LOOM_SIGN_MASK) ? -(int)(ux & LOOM_MAGNITUDE_MASK) : (int)ux;
  const int oy = (uy & LOOM_SIGN_MASK) ? -(int)(uy & LOOM_MAGNITUDE_MASK) : (int)uy;
  const int next = ox < oy ? ox + 1 : ox - 1;
  const float stepped = as_float(next >= 0 ? (uint)next : ((uint)-next | LOOM_SIGN_MASK));
  return isnan(x) || isnan(y) ? x + y : ox == oy ? y : stepped;
}
LOOM_MATH float loom_fdim(float x, float y) {
  return isnan(x) || isnan(y) ? x + y : x > y ? x - y : 0.0f;
}
