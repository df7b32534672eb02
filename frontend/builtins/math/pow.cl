// SPDX-License-Identifier: Apache-2.0
// Powers and roots: pow, pown, rootn, cbrt, hypot, rsqrt. pow's exponent y log2(x) reaches 150 in
// magnitude and its error is the result's relative error, so it is computed in double-float:
// log2(x) to some 2^-30 relative, y times it exactly, then 2^n 2^f with f the exact remainder.

// log(m) for m in [sqrt(2)/2, sqrt(2)) as hi + lo: 2 atanh(s) = 2s + 2s^3/3 + ... + 2s^15/15,
// s = (m - 1) / (m + 1) with |s| <= 0.172; 2s in double-float, the tail (below 1% of it) in float.
LOOM_MATH_HELPER loom_ff loom_pow_log_mantissa(float m) {
  const float f = m - 1.0f; // exact
  const loom_ff d = loom_two_sum(2.0f, f);
  const float s = f / d.x;
  const loom_ff sd = loom_two_prod(s, d.x);
  const float sLo = (((f - sd.x) - sd.y) - s * d.y) / d.x; // f / d - s
  const float z = s * s;
  const float series = 0x1.555556p-1f + z * (0x1.99999ap-2f + z * (0x1.24924ap-2f + z * (0x1.c71c72p-3f
                       + z * (0x1.745d18p-3f + z * (0x1.3b13b2p-3f + z * 0x1.111112p-3f)))));
  return loom_fast_two_sum(2.0f * s, 2.0f * sLo + s * z * series);
}

// 2^((yHi + yLo) log2(ax)) for a finite ax > 0 (zeros, infinities and NaNs are the callers'): an
// exponent beyond +-160 overflows or flushes, so y is clamped where that is already certain.
LOOM_MATH_HELPER float loom_pow_magnitude(float ax, float yHi, float yLo) {
  float k;
  const float m = loom_log_split(ax, &k);
  const loom_ff log2OfM = loom_ff_mul(loom_pow_log_mantissa(m), (loom_ff)(0x1.715476p0f, 0x1.4ae0cp-26f));
  const loom_ff log2OfX = loom_ff_add((loom_ff)(k, 0.0f), log2OfM);
  const float yClamped = clamp(yHi, -0x1p64f, 0x1p64f);
  const loom_ff t = loom_ff_mul((loom_ff)(yClamped, yHi == yClamped ? yLo : 0.0f), log2OfX);
  const float tHi = clamp(t.x, -160.0f, 160.0f);
  const float n = loom_rint(tHi);
  const float f = (tHi - n) + (tHi == t.x ? t.y : 0.0f); // |f| <= 1/2: tHi - n is exact
  const loom_ff product = loom_two_prod(f, 0x1.62e43p-1f);
  const float lo = -(product.y + f * -0x1.05c61p-29f); // ln2 - 0x1.62e43p-1
  return loom_scale(loom_exp_reduced(product.x, lo), (int)n);
}

// Whether a finite y is an integer, and an odd one (every float from 2^24 up is even).
LOOM_MATH_HELPER bool loom_is_integer(float y) { return loom_trunc(y) == y; }
LOOM_MATH_HELPER bool loom_is_odd(float y) {
  return loom_is_integer(y) && fabs(y) < 0x1p24f && ((int)y & 1);
}

// C99's table (Annex F.9.4.4): pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN; zeros and infinities
// give zeros and infinities with the base's sign for odd integer y; a negative base needs an
// integer y.
LOOM_MATH float loom_pow(float x, float y) {
  const float ax = fabs(x);
  const bool odd = loom_is_odd(y), negativeOdd = x < 0.0f && odd;
  const float magnitude = loom_pow_magnitude(ax, y, 0.0f);
  const float zeroBase = y < 0.0f ? INFINITY : 0.0f, infinityBase = y < 0.0f ? 0.0f : INFINITY; // of +0, +inf
  if (y == 0.0f || x == 1.0f)
    return 1.0f;
  if (isnan(x) || isnan(y))
    return x + y;
  if (isinf(y))
    return ax == 1.0f ? 1.0f : (ax < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
  if (loom_is_zero(x) || isinf(x)) {
    const float r = loom_is_zero(x) ? zeroBase : infinityBase;
    return odd ? copysign(r, x) : r;
  }
  if (x < 0.0f && !loom_is_integer(y))
    return NAN;
  return negativeOdd ? -magnitude : magnitude;
}

// x^n or x^(1/n) for an int n, from |x|^y (y = n or 1/n, of n's sign): zeros and infinities give
// zeros and infinities, and an odd n keeps the base's sign.
LOOM_MATH_HELPER float loom_pow_of_int(float x, int n, float magnitude) {
  const float r = loom_is_zero(x) || isinf(x) ? (loom_is_zero(x) == (n < 0) ? INFINITY : 0.0f) : magnitude;
  return (n & 1) ? copysign(r, x) : r;
}
// n as a double-float hi + lo: a float may not hold it.
LOOM_MATH_HELPER loom_ff loom_int_as_ff(int n) {
  const float hi = (float)n;
  return (loom_ff)(hi, (float)((long)n - (long)hi));
}

LOOM_MATH float loom_pown(float x, int n) {
  const loom_ff y = loom_int_as_ff(n);
  const float r = loom_pow_of_int(x, n, loom_pow_magnitude(fabs(x), y.x, y.y));
  return n == 0 ? 1.0f : isnan(x) ? x : r;
}

// x^(1/n): 1/n in double-float (the residual 1 - n hi computed exactly).
LOOM_MATH float loom_rootn(float x, int n) {
  const loom_ff y = loom_int_as_ff(n);
  const float hi = 1.0f / y.x;
  const loom_ff p = loom_two_prod(hi, y.x);
  const float lo = (((1.0f - p.x) - p.y) - hi * y.y) * hi;
  const float r = loom_pow_of_int(x, n, loom_pow_magnitude(fabs(x), hi, lo));
  return n == 0 || (x < 0.0f && !(n & 1)) || isnan(x) ? NAN : r;
}

// x = 2^(3q) b with b in [1, 8): a first guess from the bits (Kahan's), three Newton steps, then one
// more with the residual b - y^3 in double-float, which leaves about half an ulp. With `denormals`
// (the CPU device's), a denormal x is first scaled by 2^24 = 2^(3 8) into the normal range, and its
// root scaled back by 2^-8.
LOOM_MATH_HELPER float loom_cbrt_of(float x, bool denormals) {
  int shift;
  const float normal = loom_normalize(x, denormals, &shift);
  const int e = loom_exponent(normal);
  const uint biased = (uint)(e + 129); // 3 .. 256 for normal x
  const int q = (int)((biased * 0xaaabu) >> 17) - 43; // floor(e / 3): biased / 3 by a multiply
  const int r = e - 3 * q;
  const float b = as_float((as_uint(normal) & LOOM_FRACTION_MASK) | ((uint)(r + 127) << 23));
  float y = as_float((uint)(((ulong)as_uint(b) * 0xaaaaaaabul) >> 33) + 709958130u);
#pragma unroll
  for (int step = 0; step < 3; ++step)
    y = y - (y * y * y - b) / (3.0f * y * y);
  const loom_ff square = loom_two_prod(y, y);
  const loom_ff cube = loom_ff_mul_f(square, y);
  y += ((b - cube.x) - cube.y) / (3.0f * square.x);
  const float root = copysign(loom_scale(y, q - shift / 3), x);
  return isnan(x) || isinf(x) || loom_reads_zero(x, denormals) ? (loom_reads_zero(x, denormals) ? copysign(0.0f, x) : x)
                                                                 : root;
}
LOOM_MATH float loom_cbrt(float x) { return loom_cbrt_of(x, false); }

// sqrt(x^2 + y^2) of both scaled by the larger's power of two, so nothing overflows or flushes
// that matters; an infinite operand wins over a NaN (C99).
LOOM_MATH float loom_hypot(float x, float y) {
  const float big = fmax(fabs(x), fabs(y)), small = fmin(fabs(x), fabs(y));
  const int e = clamp(loom_exponent(big), -126, 127);
  const float bigScaled = loom_scale(big, -e), smallScaled = loom_scale(small, -e);
  const float root = loom_scale(sqrt(bigScaled * bigScaled + smallScaled * smallScaled), e);
  return isinf(x) || isinf(y) ? INFINITY : isnan(x) || isnan(y) ? x + y : loom_is_zero(big) ? 0.0f : root;
}

// Two correctly rounded operations: within 1.5 ulp of 1 / sqrt(x).
LOOM_MATH float loom_rsqrt(float x) { return 1.0f / sqrt(x); }
