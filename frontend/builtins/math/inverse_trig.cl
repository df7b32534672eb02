// SPDX-License-Identifier: Apache-2.0
// The inverse circular functions: asin, acos, atan, atan2 and their *pi forms. Each builds its angle as
// a double-float (0, pi/4, pi/2 or pi plus or minus a kernel's double-float, in double-float) and
// rounds it once; the *pi forms multiply that by 1/pi in double-float before rounding. The kernels: asin on
// [0, 1/2] and, through asin a = pi/2 - 2 asin(sqrt((1 - a)/2)), above; atan of a ratio on
// [0, tan(pi/8)] and, through pi/4 + atan((n - d)/(n + d)), above. Uses trig.cl's constants and
// loom_trig_quotient.

// For a in [0, 1]: asin a for a <= 1/2, as a + a^3 P(a^2) with P minimax (relative error 2^-31.7);
// above, 2 asin s = acos a with s = sqrt(w), w = (1 - a)/2 exact, by the same polynomial: s is
// rounded, so its error (w - s^2)/(2s) (s^2 by Dekker, exactly) is added to the tail.
LOOM_MATH_HELPER loom_ff loom_trig_asin_kernel(float a) {
  const bool small = a <= 0.5f;
  const float w = 0.5f * (1.0f - a);
  const float s = sqrt(w);
  const loom_ff s_squared = loom_two_prod(s, s);
  const float s_error = s > 0.0f ? ((w - s_squared.x) - s_squared.y) / (2.0f * s) : 0.0f;
  const float root = small ? a : s, z = small ? a * a : w;
  const float poly_high = 0x1.04d452p-5f + z * (0x1.d4fb38p-7f + z * 0x1.34db12p-5f);
  const float poly = 0x1.55554cp-3f + z * (0x1.3338acp-4f + z * (0x1.6ca744p-5f + z * poly_high));
  const float tail = root * (z * poly);
  return small ? (loom_ff)(a, tail) : (loom_ff)(2.0f * s, 2.0f * (s_error + tail));
}

// asin a (a in [0, 1]) as a double-float: the kernel, or pi/2 less it above 1/2.
LOOM_MATH_HELPER loom_ff loom_trig_asin_magnitude(float a) {
  const bool small = a <= 0.5f;
  const loom_ff v = loom_trig_asin_kernel(a);
  return loom_ff_add(small ? (loom_ff)(0.0f, 0.0f) : LOOM_TRIG_PI_2, small ? v : -v);
}

// acos x as a double-float: pi/2 - asin x for |x| <= 1/2, the kernel's acos |x| above, or pi less it
// for x < 0; one double-float addition with the base and the sign chosen.
LOOM_MATH_HELPER loom_ff loom_trig_acos(float x) {
  const float a = fabs(x);
  const bool small = a <= 0.5f, negative = x < 0.0f;
  const loom_ff base = small ? LOOM_TRIG_PI_2 : negative ? LOOM_TRIG_PI : (loom_ff)(0.0f, 0.0f);
  const loom_ff v = loom_trig_asin_kernel(a);
  return loom_ff_add(base, small != negative ? -v : v);
}

// v / pi rounded, from v 2^32 times 1/pi in double-float scaled back: the scaling keeps the pieces of
// Dekker's product normal for tiny v (a denormal result flushes).
LOOM_MATH_HELPER float loom_trig_over_pi(loom_ff v) {
  return loom_ff_mul((loom_ff)(v.x * 0x1p32f, v.y * 0x1p32f), LOOM_TRIG_1_PI).x * 0x1p-32f;
}

// Outside [-1, 1] (and for NaN) NaN.
LOOM_MATH float loom_asin(float x) {
  const float a = fabs(x);
  return a <= 1.0f ? copysign(loom_trig_asin_magnitude(a).x, x) : NAN;
}
LOOM_MATH float loom_asinpi(float x) {
  const float a = fabs(x);
  return a <= 1.0f ? copysign(loom_trig_over_pi(loom_trig_asin_magnitude(a)), x) : NAN;
}
LOOM_MATH float loom_acos(float x) { return fabs(x) <= 1.0f ? loom_trig_acos(x).x : NAN; }
LOOM_MATH float loom_acospi(float x) { return fabs(x) <= 1.0f ? loom_trig_over_pi(loom_trig_acos(x)) : NAN; }

// atan(n/d) for 0 <= n <= d, d in [1, 4), as a double-float: atan t = t + t^3 P(t^2) (P minimax,
// relative error 2^-30.4) on t = n/d up to tan(pi/8), above it pi/4 + atan t with t = (n - d)/(n + d)
// in [-tan(pi/8), 0], numerator and denominator exact double-floats. t is a double-float quotient,
// but below 2^-100 its head alone: atan t = t there, and flushing spoils the remainder's product.
LOOM_MATH_HELPER loom_ff loom_trig_atan_ratio(float n, float d) {
  const bool upper = n > 0x1.a8279ap-2f * d;
  const loom_ff t = loom_trig_quotient(upper ? loom_two_sum(n, -d) : (loom_ff)(n, 0.0f),
                                       upper ? loom_two_sum(n, d) : (loom_ff)(d, 0.0f));
  const float z = t.x * t.x;
  const float poly_high = -0x1.23b9a2p-3f + z * (0x1.b22454p-4f + z * -0x1.f2e58ap-5f);
  const float poly = -0x1.55554ap-2f + z * (0x1.9991e2p-3f + z * poly_high);
  const float t_lo = fabs(t.x) < 0x1p-100f ? 0.0f : t.y;
  const loom_ff base = upper ? LOOM_TRIG_PI_4 : (loom_ff)(0.0f, 0.0f);
  return loom_ff_add(base, (loom_ff)(t.x, t_lo + t.x * (z * poly)));
}

// |atan2(y, x)| in [0, pi] as a double-float. The smaller magnitude over the larger, both scaled by a
// power of two to put the larger in [1, 4), goes to the ratio kernel (its angle at most pi/4); the
// octant then adds it to or takes it from 0, pi/2 or pi. Zeros (and denormals, read as zeros) and
// infinities give the angles of the spec's table: 0 for two zeros, an infinity against a finite,
// and pi/4 for two infinities; NaN is the callers'.
LOOM_MATH_HELPER loom_ff loom_trig_atan2_magnitude(float y, float x) {
  // Denormals are zeros here, as the units read them: the board's compares see their bits (CTS:
  // atan2 of two denormals was neither the flushed -pi nor the exact -pi/2).
  const float ay = loom_is_zero(y) ? 0.0f : fabs(y), ax = loom_is_zero(x) ? 0.0f : fabs(x);
  const float n = fmin(ay, ax), d = fmax(ay, ax);
  const float scale = loom_pow2(-clamp(loom_exponent(d), -126, 126));
  const loom_ff zero = (loom_ff)(0.0f, 0.0f);
  const loom_ff ratio_angle = isinf(d) ? (isinf(n) ? LOOM_TRIG_PI_4 : zero)
                              : loom_is_zero(d) ? zero
                                                : loom_trig_atan_ratio(n * scale, d * scale);
  const bool steep = ay > ax, x_negative = as_int(x) < 0; // x's sign bit: -0 counts
  const loom_ff base = steep ? LOOM_TRIG_PI_2 : x_negative ? LOOM_TRIG_PI : zero;
  return loom_ff_add(base, steep != x_negative ? -ratio_angle : ratio_angle);
}

// atan x = atan2(x, 1); atan2 and atan2pi take y's sign, NaN in either operand gives NaN.
LOOM_MATH float loom_atan(float x) {
  return isnan(x) ? x + x : copysign(loom_trig_atan2_magnitude(x, 1.0f).x, x);
}
LOOM_MATH float loom_atanpi(float x) {
  return isnan(x) ? x + x : copysign(loom_trig_over_pi(loom_trig_atan2_magnitude(x, 1.0f)), x);
}
LOOM_MATH float loom_atan2(float y, float x) {
  return isnan(x) || isnan(y) ? x + y : copysign(loom_trig_atan2_magnitude(y, x).x, y);
}
LOOM_MATH float loom_atan2pi(float y, float x) {
  return isnan(x) || isnan(y) ? x + y : copysign(loom_trig_over_pi(loom_trig_atan2_magnitude(y, x)), y);
}
