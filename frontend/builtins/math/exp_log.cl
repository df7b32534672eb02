// SPDX-License-Identifier: Apache-2.0
// Exponentials and logarithms: exp, exp2, exp10, expm1, log, log2, log10, log1p, after FreeBSD's
// float versions (Sun's fdlibm): x = k ln2 + r with |r| <= ln2 / 2 in two parts, a rational
// approximation of e^r, then an exact scaling by 2^k; log from x = 2^k m, m in [sqrt(2)/2, sqrt(2)),
// log(m) = 2 atanh(f / (2 + f)) with f = m - 1, its leading terms kept apart so that the
// multiplications by k ln2 and by 1/ln2 or 1/ln10 lose nothing. All within 1 ulp or so.

// e^(hi - lo), |hi - lo| <= 0.35 or so, with lo a small correction: 1 + r + r c / (2 - c), c the
// remainder of a degree-5 approximation of r (e^r + 1) / (e^r - 1) (fdlibm's __ieee754_expf).
LOOM_MATH_HELPER float loom_exp_reduced(float hi, float lo) {
  const float r = hi - lo;
  const float t = r * r;
  const float c = r - t * (0x1.55551ep-3f + t * -0x1.6aa42ap-9f);
  return 1.0f - ((lo - (r * c) / (2.0f - c)) - hi);
}

#define LOOM_LN2_HI 0x1.62e4p-1f     // 16 bits: k ln2_hi is exact for |k| < 2^8
#define LOOM_LN2_LO 0x1.7f7d1cp-20f  // ln2 - LOOM_LN2_HI

// e^x = 2^k e^r. Beyond the range where e^x is finite and normal, the clamp keeps k in range and
// the scaling overflows or flushes as the result must.
LOOM_MATH float loom_exp(float x) {
  const float clamped = clamp(x, -104.0f, 89.0f);
  const float k = loom_rint(clamped * 0x1.715476p0f);
  const float hi = clamped - k * LOOM_LN2_HI; // exact: k ln2_hi is near x
  const float e = loom_scale(loom_exp_reduced(hi, k * LOOM_LN2_LO), (int)k);
  return isnan(x) ? x : e;
}

// 2^x = 2^k 2^r, r = x - k exact; r ln2 as a double-float product.
LOOM_MATH float loom_exp2(float x) {
  const float clamped = clamp(x, -151.0f, 129.0f);
  const float k = loom_rint(clamped);
  const float r = clamped - k;
  const loom_ff product = loom_two_prod(r, 0x1.62e43p-1f);
  const float lo = -(product.y + r * -0x1.05c61p-29f); // ln2 - 0x1.62e43p-1
  const float e = loom_scale(loom_exp_reduced(product.x, lo), (int)k);
  return isnan(x) ? x : e;
}

// 10^x = 2^k 10^r: r = x - k log10(2) in two parts (the first exact), r ln10 in double-float.
LOOM_MATH float loom_exp10(float x) {
  const float clamped = clamp(x, -46.0f, 39.0f);
  const float k = loom_rint(clamped * 0x1.a934f1p1f);
  const float rHi = clamped - k * 0x1.344p-2f; // log10(2) to 11 bits: k times it is exact
  const float rLo = -k * 0x1.3509f8p-18f;     // log10(2) - 0x1.344p-2
  const loom_ff r = loom_fast_two_sum(rHi, rLo);
  const loom_ff product = loom_ff_mul(r, (loom_ff)(0x1.26bb1cp1f, -0x1.12aabap-25f)); // ln10
  const float e = loom_scale(loom_exp_reduced(product.x, -product.y), (int)k);
  return isnan(x) ? x : e;
}

// e^x - 1 without cancellation: for |x| <= ln2 / 2 a Taylor polynomial of degree 9 in x itself;
// beyond, x = k ln2 + r and 2^k (e^r - 1) + (2^k - 1), both parts exact (|k| <= 24) but the sum.
LOOM_MATH_HELPER float loom_expm1_small(float r) {
  const float p = 0x1.a01a02p-13f + r * (0x1.a01a02p-16f + r * 0x1.71de3ap-19f);
  const float q = 0x1.555556p-3f + r * (0x1.555556p-5f + r * (0x1.111112p-7f + r * (0x1.6c16c2p-10f + r * p)));
  return r + r * r * (0.5f + r * q);
}
LOOM_MATH float loom_expm1(float x) {
  const float clamped = clamp(x, -30.0f, 89.0f);
  const float k = loom_rint(clamped * 0x1.715476p0f);
  const float hi = clamped - k * LOOM_LN2_HI;
  const float lo = k * LOOM_LN2_LO;
  const float r = hi - lo;
  const float er = loom_expm1_small(r) + ((hi - r) - lo); // e^(r + c) - 1 ~ (e^r - 1) + c
  const int n = (int)k;
  const float scaled = n > 24 ? loom_scale(er + 1.0f, n) : n < -24 ? loom_scale(er + 1.0f, n) - 1.0f
                                                                   : loom_scale(er, n) + (loom_pow2(n) - 1.0f);
  return isnan(x) || fabs(x) < 0x1p-24f ? x : fabs(x) <= 0.34657359f ? loom_expm1_small(x) : scaled;
}

// log(1 + f) = f - f^2 / 2 + s (f^2 / 2 + R(s^2)), s = f / (2 + f), with R fdlibm's degree-4
// minimax polynomial; returned as its parts f, f^2 / 2 and s (f^2 / 2 + R).
typedef struct {
  float f, halfSquare, tail;
} loom_log_parts;
LOOM_MATH_HELPER loom_log_parts loom_log1p_parts(float f) {
  const float s = f / (2.0f + f);
  const float z = s * s;
  const float w = z * z;
  const float r = z * (0x1.555554p-1f + w * 0x1.23d3dcp-2f) + w * (0x1.999c26p-2f + w * 0x1.f13c4cp-3f);
  const float halfSquare = 0.5f * f * f;
  return (loom_log_parts){f, halfSquare, s * (halfSquare + r)};
}

// x 2^-shift = 2^k m, m in [sqrt(2)/2, sqrt(2)), for a normal x (shift: loom_normalize's, for a
// denormal): the mantissa's bits with the exponent of 1 (or of 1/2 above sqrt(2)), k from the
// exponent's.
LOOM_MATH_HELPER float loom_log_split_shifted(float x, int shift, float *k) {
  const uint bits = as_uint(x);
  const uint up = (bits & LOOM_FRACTION_MASK) > 0x3504f3u; // m >= sqrt(2): halve it
  *k = (float)((int)(bits >> 23) - 127 + (int)up - shift);
  return as_float((bits & LOOM_FRACTION_MASK) | ((127u - up) << 23));
}
LOOM_MATH_HELPER float loom_log_split(float x, float *k) { return loom_log_split_shifted(x, 0, k); }

// The value of log for the special operands (NaN for x < 0, -inf for zeros, x for +inf and NaN), or
// `value` for the others.
LOOM_MATH_HELPER float loom_log_special(float x, bool denormals, float value) {
  return isnan(x) || x == INFINITY ? x : x < 0.0f ? NAN : loom_reads_zero(x, denormals) ? -INFINITY : value;
}

#define LOOM_LOG_LN2_HI 0x1.62e3p-1f    // 17 bits: k ln2_hi is exact
#define LOOM_LOG_LN2_LO 0x1.2fefa2p-17f // ln2 - LOOM_LOG_LN2_HI

// With `denormals` (the CPU device's), a denormal x is first scaled into the normal range; its k,
// down to -149, takes 8 bits, so k ln2_hi may round, by at most half an ulp of the result (log
// stays within 0.84 ULP over every float: bench_math_ulp).
LOOM_MATH_HELPER float loom_log_of(float x, bool denormals) {
  int shift;
  const float normal = loom_normalize(x, denormals, &shift);
  float k;
  const loom_log_parts p = loom_log1p_parts(loom_log_split_shifted(normal, shift, &k) - 1.0f);
  const float value = k * LOOM_LOG_LN2_HI - ((p.halfSquare - (p.tail + k * LOOM_LOG_LN2_LO)) - p.f);
  return loom_log_special(x, denormals, value);
}
LOOM_MATH float loom_log(float x) { return loom_log_of(x, false); }

// log_b(x) = k log_b(2) + log(m) / ln(b): log(m) = hi + lo with hi's low 12 bits cleared so that
// hi times the high part of 1 / ln(b) is exact (FreeBSD's e_log2f.c, e_log10f.c).
LOOM_MATH_HELPER loom_ff loom_log_mantissa(loom_log_parts p) {
  const float hi = as_float(as_uint(p.f - p.halfSquare) & 0xfffff000u);
  return (loom_ff)(hi, (p.f - hi) - p.halfSquare + p.tail);
}
LOOM_MATH float loom_log2(float x) {
  float k;
  const loom_ff m = loom_log_mantissa(loom_log1p_parts(loom_log_split(x, &k) - 1.0f));
  const float invLn2Hi = 0x1.716p0f, invLn2Lo = -0x1.7135a8p-13f;
  float hi = m.x * invLn2Hi;
  float lo = (m.y + m.x) * invLn2Lo + m.y * invLn2Hi;
  const float sum = k + hi;
  lo += (k - sum) + hi;
  return loom_log_special(x, false, lo + sum);
}
LOOM_MATH float loom_log10(float x) {
  float k;
  const loom_ff m = loom_log_mantissa(loom_log1p_parts(loom_log_split(x, &k) - 1.0f));
  const float invLn10Hi = 0x1.bccp-2f, invLn10Lo = -0x1.09d5b2p-15f;
  const float log10Of2Hi = 0x1.344100p-2f, log10Of2Lo = 0x1.a84fb6p-21f;
  float lo = k * log10Of2Lo + (m.y + m.x) * invLn10Lo + m.y * invLn10Hi;
  const float kHi = k * log10Of2Hi, hi = m.x * invLn10Hi;
  const float sum = kHi + hi;
  lo += (kHi - sum) + hi;
  return loom_log_special(x, false, lo + sum);
}

// log(1 + x) = log(u) + c / u with u = 1 + x rounded and c = (1 + x) - u exactly, the error of
// that rounding (fdlibm's s_log1pf.c); tiny x is its own log1p (-0 included, and denormals where
// they are kept: u is never a denormal, so nothing else changes for them).
LOOM_MATH float loom_log1p(float x) {
  const float u = 1.0f + x;
  float k;
  const float m = loom_log_split(u, &k);
  // u - 1 is exact below 2 (Sterbenz), u - x from 2 on.
  const float c = k > 25.0f ? 0.0f : (u >= 2.0f ? 1.0f - (u - x) : x - (u - 1.0f)) / u;
  const loom_log_parts p = loom_log1p_parts(m - 1.0f);
  const float value = k * LOOM_LOG_LN2_HI - ((p.halfSquare - (p.tail + (k * LOOM_LOG_LN2_LO + c))) - p.f);
  if (isnan(x) || fabs(x) < 0x1p-24f || x == INFINITY)
    return x;
  return x == -1.0f ? -INFINITY : x < -1.0f ? NAN : value;
}
