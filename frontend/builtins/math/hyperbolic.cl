// SPDX-License-Identifier: Apache-2.0
// Hyperbolic functions and their inverses: sinh, cosh, tanh, asinh, acosh, atanh. sinh and cosh take
// e^|x| = 2^k e^r from the reduction of exp_log.cl, with e^-|x| = 2^-k / e^r from the same e^r and
// the power of two kept apart until the end, so that they stay finite up to ln(2 FLT_MAX); sinh of
// |x| < 1 is an odd polynomial instead (no cancellation). tanh is -t / (t + 2), t = e^(-2|x|) - 1.
// The inverses are log1p of an argument chosen to be free of cancellation, as in fdlibm.

// e^a = 2^k e^r for 0 <= a <= 90, k = rint(a / ln2) and e^r in [0.7, 1.42].
LOOM_MATH_HELPER float loom_hyp_exp(float a, int *k) {
  const float kf = loom_rint(a * 0x1.715476p0f);
  *k = (int)kf;
  return loom_exp_reduced(a - kf * LOOM_LN2_HI, kf * LOOM_LN2_LO); // the first part exact
}

// sinh(a) = 2^(k-1) (e^r - 2^-2k / e^r) for a >= 1, where the second part is below 0.35 of the
// first; a + a^3 P(a^2) below (minimax on [0, 1], 2^-31.6 relative).
LOOM_MATH float loom_sinh(float x) {
  const float a = fmin(fabs(x), 90.0f); // sinh(90) overflows already
  int k;
  const float er = loom_hyp_exp(a, &k);
  const float large = loom_scale(er - loom_scale(1.0f / er, -2 * k), k - 1);
  const float s = a * a;
  const float p = 0x1.555556p-3f + s * (0x1.1110ep-7f + s * (0x1.a022bcp-13f + s * 0x1.756c1ep-19f));
  const float small = a + a * (s * p);
  return isnan(x) ? x : copysign(a < 1.0f ? small : large, x);
}

// cosh(a) = 2^(k-1) (e^r + 2^-2k / e^r): no cancellation, and near 0 the error of e^r cancels in
// the sum to first order.
LOOM_MATH float loom_cosh(float x) {
  const float a = fmin(fabs(x), 90.0f);
  int k;
  const float er = loom_hyp_exp(a, &k);
  const float value = loom_scale(er + loom_scale(1.0f / er, -2 * k), k - 1);
  return isnan(x) ? fabs(x) : value;
}

// tanh(a) = (1 - e^-2a) / (1 + e^-2a) = -t / (t + 2), t = expm1(-2a); t is -1 from a = 9 on.
LOOM_MATH float loom_tanh(float x) {
  const float t = loom_expm1(-2.0f * fabs(x));
  return copysign(-t / (t + 2.0f), x);
}

// From 2^62 on, where x^2 nears overflow, asinh(a) = acosh(a) = log(2a) to float precision, taken as
// log1p(a 2^-30) + 31 ln2 (a 2^-30 >= 2^32, so log1p is log to within 2^-32).
#define LOOM_HYP_HUGE 0x1p62f
#define LOOM_HYP_HUGE_SCALE 0x1p-30f
#define LOOM_HYP_HUGE_LOG 0x1.57cd0ep4f // 31 ln2

// log1p(hi + lo) = log1p(hi) + lo / (1 + hi) for the small lo that the rounding of hi left.
LOOM_MATH_HELPER float loom_hyp_log1p(loom_ff y) { return loom_log1p(y.x) + y.y / (1.0f + y.x); }

// asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))), the second term (the smaller) written
// a (a / (1 + sqrt(...))), the sum kept exact.
LOOM_MATH float loom_asinh(float x) {
  const float a = fabs(x);
  const bool huge = a >= LOOM_HYP_HUGE;
  const loom_ff y = huge ? (loom_ff)(a * LOOM_HYP_HUGE_SCALE, 0.0f)
                         : loom_fast_two_sum(a, a * (a / (1.0f + sqrt(1.0f + a * a))));
  return copysign(loom_hyp_log1p(y) + (huge ? LOOM_HYP_HUGE_LOG : 0.0f), x);
}

// acosh(x) = log1p(sqrt(t (t + 2)) + t), t = x - 1 (exact up to 2^24, and beyond that a relative
// error of at most 2^-24 in the log's argument), the sum kept exact.
LOOM_MATH float loom_acosh(float x) {
  const bool huge = x >= LOOM_HYP_HUGE;
  const float t = x - 1.0f;
  const loom_ff y =
      huge ? (loom_ff)(x * LOOM_HYP_HUGE_SCALE, 0.0f) : loom_fast_two_sum(sqrt(t * (t + 2.0f)), t);
  const float value = loom_hyp_log1p(y) + (huge ? LOOM_HYP_HUGE_LOG : 0.0f);
  return x < 1.0f ? NAN : isnan(x) ? x : value;
}

// atanh(a) = log1p(2a / (1 - a)) / 2, written 2a + 2a^2 / (1 - a) below 1/2 (where 1 - a is not
// exact); 1 - a is exact above. 1 gives log1p(inf), beyond 1 the argument is below -1: NaN.
LOOM_MATH float loom_atanh(float x) {
  const float a = fabs(x);
  const float twice = a + a;
  const float y = a < 0.5f ? twice + twice * a / (1.0f - a) : twice / (1.0f - a);
  const float value = 0.5f * loom_log1p(y);
  return isnan(x) ? x : a > 1.0f ? NAN : copysign(value, x);
}
