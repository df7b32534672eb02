// SPDX-License-Identifier: Apache-2.0
// The remainders of a division, all exact: fmod, remainder, remquo. With |x| = mx 2^ex and
// |y| = my 2^ey (24-bit integer significands), x mod y = (mx 2^(ex - ey) mod my) 2^ey: a long division
// of integers over up to 253 bits, done in a fixed number of chunks of up to 39 bits whose quotients
// come from one reciprocal of my (Barrett): one divider, and two multipliers per chunk.

#define LOOM_REM_CHUNK_BITS 39 // r 2^39 * 2^63 / my stays below 2^64 for r < 2^24 (see loom_rem_chunk)
#define LOOM_REM_FULL_CHUNKS 6 // 6 * 39 + 38 >= 253, the largest ex - ey of normal floats
#define LOOM_REM_QUOTIENT_MASK 0x7fu // remquo's 7 low bits of the quotient

// The 24-bit integer significand of a normal float.
LOOM_MATH_HELPER uint loom_rem_significand(uint bits) { return (bits & LOOM_FRACTION_MASK) | 0x800000u; }

// r 2^k mod my, for r < 2^24, 2^23 <= my < 2^24 and 0 <= k <= 39, with the quotient q appended to
// the 7 low bits in *quotient. inverse = floor(2^63 / my), so 2^63 / my - 1 < inverse <= 2^63 / my
// and r inverse / 2^(63-k) lies within r / 2^(63-k) < 1 below r 2^k / my: its floor is q or q - 1,
// and one conditional subtraction of my finishes. The remainder is below 2 my < 2^25 before it, so
// the low 32 bits of r 2^k - estimate my give it exactly.
LOOM_MATH_HELPER uint loom_rem_chunk(uint r, uint my, ulong inverse, int k, __private uint *quotient) {
  const uint estimate = (uint)(((ulong)r * inverse) >> (63 - k)); // low 32 bits of q or q - 1
  const uint partial = (uint)((ulong)r << k) - estimate * my;
  const bool short_by_one = partial >= my;
  // Bits shifted past the 7th drop out of the low 7 bits.
  *quotient = ((*quotient << min(k, 7)) + estimate + (uint)short_by_one) & LOOM_REM_QUOTIENT_MASK;
  return short_by_one ? partial - my : partial;
}

// mx 2^shift mod my, for mx < 2^24, 2^23 <= my < 2^24 and 0 <= shift <= 272, with the 7 low bits of
// the quotient floor(mx 2^shift / my) in *quotient_bits: as many 39-bit chunks as the shift holds
// (fixed shifts, selected), then one of what is left.
LOOM_MATH_HELPER uint loom_rem_reduce(uint mx, uint my, int shift, __private uint *quotient_bits) {
  const ulong inverse = 0x8000000000000000ul / my; // in (2^39, 2^40]
  uint r = mx, quotient = 0u;
  int remaining = shift;
#pragma unroll
  for (int chunk = 0; chunk < LOOM_REM_FULL_CHUNKS; ++chunk) {
    uint chunk_quotient = quotient;
    const uint reduced = loom_rem_chunk(r, my, inverse, LOOM_REM_CHUNK_BITS, &chunk_quotient);
    const bool full = remaining >= LOOM_REM_CHUNK_BITS;
    r = full ? reduced : r;
    quotient = full ? chunk_quotient : quotient;
    remaining -= full ? LOOM_REM_CHUNK_BITS : 0;
  }
  r = loom_rem_chunk(r, my, inverse, remaining, &quotient);
  *quotient_bits = quotient;
  return r;
}

// The common work of fmod (to_nearest false: the quotient truncated) and remainder and remquo (the
// quotient rounded to nearest, ties to even), with the 7 low bits of the quotient's magnitude.
LOOM_MATH_HELPER float loom_rem_divide(float x, float y, bool to_nearest, __private uint *quotient_bits) {
  const uint ux = as_uint(x), uy = as_uint(y);
  const int biased_ex = (int)((ux >> 23) & 0xffu), biased_ey = (int)((uy >> 23) & 0xffu);
  const int exponent_gap = biased_ex - biased_ey;
  // The division from an exponent gap of -1 up (to nearest: |x| may exceed |y| / 2) or 0 up
  // (truncated); smaller gaps, zero (and denormal) x and infinite y give x (flushed), the quotient 0.
  const bool x_is_result = biased_ex == 0 || biased_ey == 0xff || exponent_gap < (to_nearest ? -1 : 0);
  const bool invalid = isnan(x) || isnan(y) || biased_ex == 0xff || biased_ey == 0;

  const uint mx = loom_rem_significand(ux), my = loom_rem_significand(uy);
  uint chunk_quotient;
  const uint reduced = loom_rem_reduce(mx, my, max(exponent_gap, 0), &chunk_quotient);
  // exponent_gap = -1 (|y| / 2 <= |x| < |y|, to nearest only): count in halves of y's units, where
  // the truncated quotient is 0 and the remainder mx.
  const bool halves = exponent_gap < 0;
  const uint truncated = halves ? mx : reduced;
  const uint divisor = halves ? my << 1 : my;
  const uint quotient = halves ? 0u : chunk_quotient;
  // Rounding the quotient up turns the remainder r into r - divisor: magnitude divisor - r, x's sign
  // flipped.
  const bool round_up =
      to_nearest && (2u * truncated > divisor || (2u * truncated == divisor && (quotient & 1u)));
  const uint magnitude = round_up ? divisor - truncated : truncated; // below 2^24
  const uint sign = (ux ^ (round_up ? LOOM_SIGN_MASK : 0u)) & LOOM_SIGN_MASK;

  // magnitude 2^(biased_ey - 150 - halves): exact in a float (24 bits) unless below 2^-126, where it
  // flushes. Converting magnitude gives its bits with the exponent to add to.
  const int unit_exponent = biased_ey - 150 - (int)halves;
  const uint magnitude_bits = as_uint((float)magnitude);
  const bool flushed = magnitude == 0u || (int)(magnitude_bits >> 23) + unit_exponent <= 0;
  const float result = as_float((flushed ? 0u : magnitude_bits + ((uint)unit_exponent << 23)) | sign);

  *quotient_bits = invalid || x_is_result ? 0u : (quotient + (uint)round_up) & LOOM_REM_QUOTIENT_MASK;
  return invalid ? NAN : x_is_result ? (biased_ex == 0 ? as_float(ux & LOOM_SIGN_MASK) : x) : result;
}

LOOM_MATH float loom_fmod(float x, float y) {
  uint quotient_bits;
  return loom_rem_divide(x, y, false, &quotient_bits);
}
LOOM_MATH float loom_remainder(float x, float y) {
  uint quotient_bits;
  return loom_rem_divide(x, y, true, &quotient_bits);
}
// *quo: the 7 low bits of the rounded quotient's magnitude, with the sign of x / y (as OpenCL asks).
LOOM_MATH float loom_remquo(float x, float y, __private int *quo) {
  uint quotient_bits;
  const float result = loom_rem_divide(x, y, true, &quotient_bits);
  *quo = (as_int(x) ^ as_int(y)) < 0 ? -(int)quotient_bits : (int)quotient_bits;
  return result;
}
