// SPDX-License-Identifier: Apache-2.0
// Shared by the float-arithmetic math library (the board's: math/*.cl): access to a float's fields,
// exact scaling by a power of two, and double-float ("hi + lo") arithmetic for the few steps that
// need more than 24 bits. Everything here is float and integer arithmetic the hardware flow builds
// as units, with no FMA (the board's units round each operation) and flush-to-zero semantics
// (denormal inputs read as zero, denormal results flush: hls/rtl/loom_fmul.v).
#pragma once

// Non-static so that the host-compiled copy the tests link (tests/FloatMath.h) exports them.
#define LOOM_MATH __attribute__((overloadable, always_inline))
#define LOOM_MATH_HELPER static __attribute__((overloadable, always_inline))

#define LOOM_SIGN_MASK 0x80000000u
#define LOOM_MAGNITUDE_MASK 0x7fffffffu
#define LOOM_EXPONENT_MASK 0x7f800000u
#define LOOM_FRACTION_MASK 0x007fffffu

// 2^n for n in [-126, 127], built from its bits.
LOOM_MATH_HELPER float loom_pow2(int n) { return as_float((uint)(n + 127) << 23); }

// The unbiased exponent of a normal x (-127 for zeros and the denormals the units read as zero,
// 128 for infinities and NaNs).
LOOM_MATH_HELPER int loom_exponent(float x) { return (int)((as_uint(x) >> 23) & 0xffu) - 127; }

// True for denormals and zeros: what the units read as a zero.
LOOM_MATH_HELPER bool loom_is_zero(float x) { return (as_uint(x) & LOOM_EXPONENT_MASK) == 0u; }

// Denormal operands. The board's units read them as zeros; the CPU device, which computes a few of
// these functions with them too (log, cbrt: builtins/math.cl), keeps them (its threads run without
// FTZ or DAZ). A function that must tell them apart takes `denormals`, a constant: false for the
// board, where all that it adds folds away.
// Whether x is a zero: on the board, a denormal too.
LOOM_MATH_HELPER bool loom_reads_zero(float x, bool denormals) {
  return denormals ? x == 0.0f : loom_is_zero(x);
}
// x, or with `denormals` a denormal x scaled exactly into the normal range by 2^24; *shift is the
// power of two it was scaled by, 24 or 0.
LOOM_MATH_HELPER float loom_normalize(float x, bool denormals, int *shift) {
  const bool denormal = denormals && loom_is_zero(x) && x != 0.0f;
  *shift = denormal ? 24 : 0;
  return denormal ? x * 0x1p24f : x;
}

// x * 2^n rounded once, for any int n: three multiplications by 2^(n/3) (each factor normal), all
// moving the magnitude the same way, so every step but the last is exact while the result is normal.
LOOM_MATH_HELPER float loom_scale(float x, int n) {
  const int clamped = clamp(n, -378, 381);
  const int third = clamped / 3;
  return x * loom_pow2(third) * loom_pow2(third) * loom_pow2(clamped - 2 * third);
}

// Double-float arithmetic (Dekker, Knuth) without FMA: a value is hi + lo with |lo| <= ulp(hi) / 2.
typedef float2 loom_ff; // .x = hi, .y = lo

// a + b exactly, as hi + lo.
LOOM_MATH_HELPER loom_ff loom_two_sum(float a, float b) {
  const float s = a + b;
  const float bb = s - a;
  return (loom_ff)(s, (a - (s - bb)) + (b - bb));
}
// a + b exactly when |a| >= |b| (or a is 0).
LOOM_MATH_HELPER loom_ff loom_fast_two_sum(float a, float b) {
  const float s = a + b;
  return (loom_ff)(s, b - (s - a));
}
// Veltkamp's split of a (|a| < 2^115) into 12-bit halves hi + lo.
LOOM_MATH_HELPER float2 loom_split(float a) {
  const float c = 4097.0f * a;
  const float hi = c - (c - a);
  return (float2)(hi, a - hi);
}
// a * b exactly (no overflow or underflow), as hi + lo.
LOOM_MATH_HELPER loom_ff loom_two_prod(float a, float b) {
  const float p = a * b;
  const float2 as = loom_split(a), bs = loom_split(b);
  return (loom_ff)(p, ((as.x * bs.x - p) + as.x * bs.y + as.y * bs.x) + as.y * bs.y);
}
LOOM_MATH_HELPER loom_ff loom_ff_add(loom_ff a, loom_ff b) {
  const loom_ff s = loom_two_sum(a.x, b.x);
  return loom_fast_two_sum(s.x, s.y + (a.y + b.y));
}
LOOM_MATH_HELPER loom_ff loom_ff_mul(loom_ff a, loom_ff b) {
  const loom_ff p = loom_two_prod(a.x, b.x);
  return loom_fast_two_sum(p.x, p.y + (a.x * b.y + a.y * b.x));
}
LOOM_MATH_HELPER loom_ff loom_ff_mul_f(loom_ff a, float b) {
  const loom_ff p = loom_two_prod(a.x, b);
  return loom_fast_two_sum(p.x, p.y + a.y * b);
}
