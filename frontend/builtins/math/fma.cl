// SPDX-License-Identifier: Apache-2.0
// fma: a * b + c rounded once, to nearest even, in integer arithmetic: the exact 48-bit product of
// the significands and c's significand, aligned in a 64-bit frame (the part shifted out kept as a
// sticky bit), added, normalised and rounded to 24 bits; results below 2^-126 flush to zero, as the
// board's units flush. Zeros, infinities and NaN go through the float units, which give IEEE's
// answers for them.

// The 24-bit integer significand of a normal float.
LOOM_MATH_HELPER uint loom_fma_significand(uint bits) { return (bits & LOOM_FRACTION_MASK) | 0x800000u; }

// Shifts x (not zero) left until its bit 63 is set, the count of leading zeros in *shift: six fixed
// steps of 32, 16, ..., 1 places.
LOOM_MATH_HELPER ulong loom_fma_normalize(ulong x, __private int *shift) {
  int count = 0;
#pragma unroll
  for (int step = 32; step > 0; step >>= 1) {
    const bool top_clear = (x >> (64 - step)) == 0ul;
    x = top_clear ? x << step : x;
    count += top_clear ? step : 0;
  }
  *shift = count;
  return x;
}

LOOM_MATH float loom_fma(float a, float b, float c) {
  const uint ua = as_uint(a), ub = as_uint(b), uc = as_uint(c);
  const int biased_ea = (int)((ua >> 23) & 0xffu), biased_eb = (int)((ub >> 23) & 0xffu);
  const int biased_ec = (int)((uc >> 23) & 0xffu);
  const uint product_sign = (ua ^ ub) & LOOM_SIGN_MASK, c_sign = uc & LOOM_SIGN_MASK;
  const bool finite_product = biased_ea != 0xff && biased_eb != 0xff;
  const bool zero_product = biased_ea == 0 || biased_eb == 0, zero_c = biased_ec == 0;

  // The product P = ma mb in [2^46, 2^48) is a b 2^(300 - ea - eb) (biased exponents), c's
  // significand mc is c 2^(150 - ec). In the frame, P 2^14 and mc 2^37 both lie in [2^60, 2^62):
  // their sum and difference fit, and the one with the smaller scale shifts right by the difference.
  const ulong product_frame = ((ulong)loom_fma_significand(ua) * loom_fma_significand(ub)) << 14;
  const ulong c_frame = zero_c ? 0ul : (ulong)loom_fma_significand(uc) << 37;
  const int product_scale = biased_ea + biased_eb - 314; // a b = product_frame 2^product_scale
  const int c_scale = zero_c ? product_scale : biased_ec - 187;
  const bool product_larger = product_scale >= c_scale;
  const ulong larger = product_larger ? product_frame : c_frame;
  const ulong smaller = product_larger ? c_frame : product_frame;
  const uint larger_sign = product_larger ? product_sign : c_sign;
  const int scale = max(product_scale, c_scale);
  // Bits shift out only past 14 (the product's zero low bits) or 37 places, where the smaller is
  // below 2^47 and the sum above 2^59: it rounds at bit 35 or higher, so a sticky bit 0 standing for
  // the lost bits rounds as they do.
  const int shift = min((int)abs(product_scale - c_scale), 63);
  const bool lost_bits = (smaller & ((1ul << shift) - 1ul)) != 0ul;
  const ulong aligned = (smaller >> shift) | (ulong)lost_bits;
  const long sum = product_sign == c_sign ? (long)(larger + aligned) : (long)larger - (long)aligned;
  const uint sign = sum < 0 ? larger_sign ^ LOOM_SIGN_MASK : larger_sign;
  const ulong magnitude = (ulong)(sum < 0 ? -sum : sum); // below 2^63

  int leading_zeros;
  const ulong normalized = loom_fma_normalize(magnitude, &leading_zeros);
  // The 24 top bits, rounded to nearest even on the 40 below.
  const uint kept = (uint)(normalized >> 40);
  const ulong rest = normalized & 0xfffffffffful, tie = 0x8000000000ul;
  const uint rounded = kept + (uint)(rest > tie || (rest == tie && (kept & 1u))); // up to 2^24
  // normalized 2^(scale - leading_zeros) = (kept / 2^23) 2^(scale - leading_zeros + 63); a carry to
  // 2^24 moves the exponent up by one, through the addition of the significand.
  const int field = scale - leading_zeros + 190 + (int)(rounded >> 24);
  const uint bits = ((uint)(scale - leading_zeros + 189) << 23) + rounded;
  const float rounded_sum = magnitude == 0ul ? 0.0f // exact cancellation: +0 in round to nearest
                            : field <= 0     ? as_float(sign) // below 2^-126: flushed
                            : field >= 0xff  ? as_float(sign | LOOM_EXPONENT_MASK) // overflow
                                             : as_float(sign | bits);

  // Infinite or NaN operands: c when only c is (a finite product cannot cancel it); else the float
  // units' a * b + c has the IEEE result (inf * 0, inf - inf and NaN give NaN). A zero product leaves
  // c, with IEEE's sum of signed zeros when c is zero (denormal c read as zero).
  const float flushed_c = zero_c ? as_float(c_sign) : c;
  return !finite_product ? a * b + c
         : biased_ec == 0xff ? c
         : zero_product      ? as_float(product_sign) + flushed_c
                             : rounded_sum;
}
