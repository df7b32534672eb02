// SPDX-License-Identifier: Apache-2.0
// The circular functions: sin, cos, tan, sinpi, cospi, tanpi. Each reduces its argument to a quadrant
// and a double-float r in [-pi/4, pi/4] (sin, cos and tan by multiples of pi/2 in integer fixed point,
// exact for every float; the *pi ones by halves, exactly in float), then two kernels give sin r and
// cos r as double-floats, and tan is their quotient. Computing with x's magnitude and putting its sign
// back (sin, tan and the *pi forms are odd) keeps the signs of zeros. The double-float constants and
// loom_trig_quotient serve inverse_trig.cl too.

// Multiples of pi and 1/pi as double-floats: hi is the nearest float, lo the nearest float to the rest.
#define LOOM_TRIG_PI ((loom_ff)(0x1.921fb6p+1f, -0x1.777a5cp-24f))
#define LOOM_TRIG_PI_2 ((loom_ff)(0x1.921fb6p+0f, -0x1.777a5cp-25f))
#define LOOM_TRIG_PI_4 ((loom_ff)(0x1.921fb6p-1f, -0x1.777a5cp-26f))
#define LOOM_TRIG_1_PI ((loom_ff)(0x1.45f306p-2f, 0x1.b9391p-27f))

// The bits of 2/pi, most significant first, after a word of zeros: bit i of the string (bit 31 - i % 32
// of word i / 32) has the weight 2^(31 - i). 224 bits reach the last window loom_trig_reduce reads:
// words k to k + 3 for k <= 4, held as four tables (word k + j is element k of table j), so that each
// is a ROM read once a work-item.
__constant uint loom_trig_two_over_pi_0[5] = {0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u};
__constant uint loom_trig_two_over_pi_1[5] = {0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u};
__constant uint loom_trig_two_over_pi_2[5] = {0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u};
__constant uint loom_trig_two_over_pi_3[5] = {0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu};

// x = r + quadrant * pi/2 (mod 2 pi), |r| <= pi/4 (plus rounding).
typedef struct {
  loom_ff r;
  int quadrant;
} loom_trig_reduced;

// 32 bits of the 64-bit string first:second from bit `shift` on (a 64-bit shift: no funnel shift).
LOOM_MATH_HELPER uint loom_trig_window_word(uint first, uint second, int shift) {
  return (uint)(((((ulong)first << 32) | second) << shift) >> 32);
}

// a (>= 0; infinities and NaN give garbage the callers drop) less the nearest multiple of pi/2.
// Below pi/4 that is a itself. Above, Payne and Hanek's reduction: with a = m 2^(e-23) (m the
// 24-bit significand), the bits of 2/pi of weight 2^(25-e) or more make multiples of 4 quadrants of
// m 2^(e-23), so only the 96 bits after them count; m times that window (three 32x32->64-bit
// products) is a 2/pi mod 4 in fixed point with 62 fraction bits, short by less than 2^-61 (the
// dropped low product and the bits of 2/pi past the window): 31 correct bits even for the float
// nearest a multiple of pi/2 (16367173 * 2^72, 2^-29.9 quadrant off). The fraction goes to a
// double-float through two 64-bit conversions, and times pi/2 in double-float.
LOOM_MATH_HELPER loom_trig_reduced loom_trig_reduce(float a) {
  const int window_start = clamp(loom_exponent(a), -1, 127) + 7; // bit index of weight 2^(24-e)
  const int word = window_start >> 5, shift = window_start & 31;
  const uint w0 = loom_trig_two_over_pi_0[word], w1 = loom_trig_two_over_pi_1[word];
  const uint w2 = loom_trig_two_over_pi_2[word], w3 = loom_trig_two_over_pi_3[word];
  const ulong significand = (as_uint(a) & LOOM_FRACTION_MASK) | 0x800000u;
  // Bits 32 to 95 of the 120-bit product m * window, the bits of weight 2^1 to 2^-62, mod 2^64.
  const ulong quadrants = ((significand * loom_trig_window_word(w0, w1, shift)) << 32) +
                          significand * loom_trig_window_word(w1, w2, shift) +
                          ((significand * loom_trig_window_word(w2, w3, shift)) >> 32);
  const ulong rounded = quadrants + (1ul << 61); // to the nearest quadrant
  const long fraction = (long)(rounded & ((1ul << 62) - 1u)) - (1l << 61); // in [-2^61, 2^61)
  const float fraction_hi = (float)fraction;
  const float fraction_lo = (float)(fraction - (long)fraction_hi);
  const loom_ff turns = (loom_ff)(fraction_hi * 0x1p-62f, fraction_lo * 0x1p-62f);
  const bool small = a < LOOM_TRIG_PI_4.x;
  loom_trig_reduced reduced;
  reduced.r = small ? (loom_ff)(a, 0.0f) : loom_ff_mul(turns, LOOM_TRIG_PI_2);
  reduced.quadrant = small ? 0 : (int)(rounded >> 62);
  return reduced;
}

// sin r for |r| <= pi/4 as a double-float: r + r^3 S(r^2), S a minimax polynomial (relative error
// 2^-32.5 with these float coefficients); the tail, about a tenth of r at most, adds its rounding and r's lo.
LOOM_MATH_HELPER loom_ff loom_trig_sin_kernel(loom_ff r) {
  const float z = r.x * r.x;
  const float poly = -0x1.555556p-3f + z * (0x1.111174p-7f + z * (-0x1.a0597ap-13f + z * 0x1.7c3fa6p-19f));
  return loom_fast_two_sum(r.x, r.y + r.x * (z * poly));
}

// cos r for |r| <= pi/4 as a double-float: 1 - r^2/2 + r^4 C(r^2), C minimax (relative error 2^-33).
// r^2 is exact (Dekker), 1 - r^2/2 is rounded and its rounding error recovered exactly, and -r lo
// stands for r's lo; so the error is that of the small tail r^4 C plus the final rounding.
LOOM_MATH_HELPER loom_ff loom_trig_cos_kernel(loom_ff r) {
  const loom_ff z = loom_two_prod(r.x, r.x);
  const float half_z = 0.5f * z.x;
  const float head = 1.0f - half_z;
  const float poly = 0x1.55554ap-5f + z.x * (-0x1.6c0c2ap-10f + z.x * 0x1.99e91p-16f);
  const float tail = (((1.0f - head) - half_z) - 0.5f * z.y) + ((z.x * z.x) * poly - r.x * r.y);
  return loom_fast_two_sum(head, tail);
}

// (n.hi + n.lo) / (d.hi + d.lo) as a double-float: q = n.hi / d.hi, and the remainder n - q d, whose
// head n.hi - q d.hi is exact (Dekker's product, then Sterbenz), over d.hi. |q| must stay below 2^115
// (the split), and for |q| below 2^-100 d.hi must be a power of two, or the flushed low pieces of
// the product spoil the remainder.
LOOM_MATH_HELPER loom_ff loom_trig_quotient(loom_ff n, loom_ff d) {
  const float q = n.x / d.x;
  const loom_ff qd = loom_two_prod(q, d.x);
  return (loom_ff)(q, (((n.x - qd.x) - qd.y) + (n.y - q * d.y)) / d.x);
}

// tan r, or -cot r = tan(r + pi/2) in odd quadrants, as one rounded quotient of the double-float
// kernels. (For |r| < 2^-12 cos r is 1, as the quotient asks of tiny ones.)
LOOM_MATH_HELPER float loom_trig_tan_kernel(loom_ff r, bool odd_quadrant) {
  const loom_ff sine = loom_trig_sin_kernel(r), cosine = loom_trig_cos_kernel(r);
  const loom_ff q = loom_trig_quotient(odd_quadrant ? cosine : sine, odd_quadrant ? sine : cosine);
  const float quotient = q.x + q.y;
  return odd_quadrant ? -quotient : quotient;
}

// sin(r + quadrant pi/2): sin r, cos r, -sin r or -cos r (cos(r + q pi/2) is the one of q + 1).
LOOM_MATH_HELPER float loom_trig_sin_quadrant(loom_ff r, int quadrant) {
  const float v = (quadrant & 1) ? loom_trig_cos_kernel(r).x : loom_trig_sin_kernel(r).x;
  return (quadrant & 2) ? -v : v;
}

// x's sign put onto v (an odd function of |x|).
LOOM_MATH_HELPER float loom_trig_odd(float v, float x) {
  return as_float(as_uint(v) ^ (as_uint(x) & LOOM_SIGN_MASK));
}

// sin, cos and tan: quadrant and kernel; infinities and NaN make NaN (x - x).
LOOM_MATH float loom_sin(float x) {
  const loom_trig_reduced reduced = loom_trig_reduce(fabs(x));
  const float sine = loom_trig_odd(loom_trig_sin_quadrant(reduced.r, reduced.quadrant), x);
  return isinf(x) || isnan(x) ? x - x : sine;
}
LOOM_MATH float loom_cos(float x) {
  const loom_trig_reduced reduced = loom_trig_reduce(fabs(x));
  const float cosine = loom_trig_sin_quadrant(reduced.r, reduced.quadrant + 1);
  return isinf(x) || isnan(x) ? x - x : cosine;
}
LOOM_MATH float loom_tan(float x) {
  const loom_trig_reduced reduced = loom_trig_reduce(fabs(x));
  const float tangent = loom_trig_odd(loom_trig_tan_kernel(reduced.r, reduced.quadrant & 1), x);
  return isinf(x) || isnan(x) ? x - x : tangent;
}

// a (>= 0) = n/2 + f half-turns with f in [-1/4, 1/4], all exact: a - 2 rint(a/2) (in [-1, 1]) is a
// multiple of ulp(a) no larger than a, and so are its double and that less its nearest integer. The
// quadrant is n mod 4 and r = pi f in double-float, f scaled by 2^32 for the product so that tiny f
// keep the pieces of Dekker's product normal. Infinities and NaN give NaN in r (and quadrant 2: the
// fmax turns NaN into a number, as converting NaN to int is undefined).
LOOM_MATH_HELPER loom_trig_reduced loom_trig_reduce_half_turns(float a) {
  const float twice_reduced = 2.0f * (a - 2.0f * loom_rint(0.5f * a));
  const float n = fmax(loom_rint(twice_reduced), -2.0f);
  const float f = 0.5f * (twice_reduced - n);
  const loom_ff scaled = loom_ff_mul_f(LOOM_TRIG_PI, f * 0x1p32f);
  loom_trig_reduced reduced;
  reduced.r = (loom_ff)(scaled.x * 0x1p-32f, scaled.y * 0x1p-32f);
  reduced.quadrant = (int)n & 3;
  return reduced;
}

// sinpi: an exact multiple of a half-turn gives 0 with x's sign, whatever the quadrant.
LOOM_MATH float loom_sinpi(float x) {
  const loom_trig_reduced reduced = loom_trig_reduce_half_turns(fabs(x));
  const float sine = loom_trig_sin_quadrant(reduced.r, reduced.quadrant);
  return sine == 0.0f ? copysign(0.0f, x) : loom_trig_odd(sine, x);
}
// cospi: n + 1/2 gives +0.
LOOM_MATH float loom_cospi(float x) {
  const loom_trig_reduced reduced = loom_trig_reduce_half_turns(fabs(x));
  const float cosine = loom_trig_sin_quadrant(reduced.r, reduced.quadrant + 1);
  return cosine == 0.0f ? 0.0f : cosine;
}
// tanpi: at f = 0 the kernel's quotient is 0 or a pole whose sign the spec fixes by quadrant (for
// |x|): n even gives +0, n odd -0, n + 1/2 gives +inf for n even and -inf for n odd; then x's sign.
LOOM_MATH float loom_tanpi(float x) {
  const loom_trig_reduced reduced = loom_trig_reduce_half_turns(fabs(x));
  const bool odd_quadrant = reduced.quadrant & 1;
  const float zero_or_pole = odd_quadrant ? INFINITY : 0.0f;
  const float exact = reduced.quadrant >= 2 ? -zero_or_pole : zero_or_pole;
  const float tangent = reduced.r.x == 0.0f ? exact : loom_trig_tan_kernel(reduced.r, odd_quadrant);
  return loom_trig_odd(tangent, x);
}
