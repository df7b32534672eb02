// SPDX-License-Identifier: Apache-2.0
// Special functions: erf, erfc, tgamma, lgamma, lgamma_r. Each takes its main polynomial's
// coefficients from tables (ROMs, one per coefficient, each read once) indexed by the interval of
// |x| (the first coefficient as a float pair, so that its rounding does not count), so that the
// hardware has one chain of multiply-adds rather than one per range; tgamma and lgamma reflect
// negative x with sin(pi x) / pi, their own polynomial. The coefficients are minimax fits (relative
// error, in long double, rounded to float one at a time with the later ones refitted), their error
// noted as a power of two.

// erf and erfc: below 0.75, erf(a) = a + a P(a^2); above, erfc(a) = e^(-a^2) g(a) with g(a) =
// e^(a^2) erfc(a), smooth and in [0.06, 0.51], approximated on intervals of 0.5 up to 4 and of 1 up to
// 10, and e^(-a^2) from a^2 in double-float (its rounding would be a relative error of a^2 2^-24).
// erf = 1 - erfc there (erfc(0.75) = 0.29: cancellation costs little); the other sides follow from
// erf(-x) = -erf(x), erfc(-x) = 2 - erfc(x), and erfc(a) = 1/2 - ((a - 1/2) + a P) below 0.75.
// Row r of the fit is element r of each array: one ROM per coefficient, each read once.
__constant float loom_special_erf_0[14] = {
    0x1.06eba8p-3f, 0x1.038d54p-1f, 0x1.78a692p-2f, 0x1.23cfc2p-2f, 0x1.d94446p-3f, 0x1.8c9eb6p-3f,
    0x1.54a7ap-3f, 0x1.2a2af2p-3f, 0x1.f5b2ap-4f, 0x1.9d8a9p-4f, 0x1.5f75c4p-4f, 0x1.31743p-4f,
    0x1.0e078p-4f, 0x1.e3db9cp-5f,
};
__constant float loom_special_erf_1[14] = {
    0x1.02d384p-30f, 0x1.d3e918p-26f, 0x1.4af822p-30f, 0x1.e41faep-27f, 0x1.ac7974p-28f, 0x1.1fef1ap-28f,
    0x1.1a9a2ap-28f, -0x1.8fac06p-29f, 0x1.27ec46p-30f, -0x1.bae8aap-29f, 0x1.74c348p-31f, -0x1.64e4c4p-29f,
    0x1.47d2ap-30f, -0x1.1040ap-31f,
};
__constant float loom_special_erf_2[14] = {
    -0x1.812746p-2f, -0x1.78cdd4p-2f, -0x1.abaad2p-3f, -0x1.0c3d54p-3f, -0x1.6a70d4p-4f, -0x1.030578p-4f,
    -0x1.82a852p-5f, -0x1.2aa65p-5f, -0x1.aa3ebap-6f, -0x1.238ca8p-6f, -0x1.a6e2dp-7f, -0x1.404456p-7f,
    -0x1.f57caep-8f, -0x1.93108cp-8f,
};
__constant float loom_special_erf_3[14] = {
    0x1.ce2ed8p-4f, 0x1.d8ffeep-3f, 0x1.b56f44p-4f, 0x1.c8d0cep-5f, 0x1.061568p-5f, 0x1.43b98cp-6f,
    0x1.a7eddcp-7f, 0x1.22f066p-7f, 0x1.62c12ep-8f, 0x1.95252cp-9f, 0x1.f75ef8p-10f, 0x1.4d07bcp-10f,
    0x1.cea23p-11f, 0x1.4dfd32p-11f,
};
__constant float loom_special_erf_4[14] = {
    -0x1.b8220ep-6f, -0x1.09d8e2p-3f, -0x1.9b5a2ep-5f, -0x1.6cb172p-6f, -0x1.687fb8p-7f, -0x1.84e8c8p-8f,
    -0x1.c24b0ap-9f, -0x1.143534p-9f, -0x1.21886ap-10f, -0x1.159412p-11f, -0x1.2875c2p-12f,
    -0x1.5781d6p-13f, -0x1.a80ae4p-14f, -0x1.135204p-14f,
};
__constant float loom_special_erf_5[14] = {
    0x1.559be4p-8f, 0x1.105aecp-4f, 0x1.689f24p-6f, 0x1.13634ap-7f, 0x1.da5356p-9f, 0x1.c2c576p-10f,
    0x1.d08682p-11f, 0x1.fff1cap-12f, 0x1.cfffaap-13f, 0x1.774c1ep-14f, 0x1.59b056p-15f, 0x1.5f8856p-16f,
    0x1.823e88p-17f, 0x1.c3978ap-18f,
};
__constant float loom_special_erf_6[14] = {
    -0x1.b28294p-11f, -0x1.ef9b12p-6f, -0x1.2e4ep-7f, -0x1.907c2ap-9f, -0x1.2f5f9p-10f, -0x1.fccab4p-12f,
    -0x1.d46df4p-13f, -0x1.d080ep-14f, -0x1.7382eep-15f, -0x1.fb3172p-17f, -0x1.938df4p-18f,
    -0x1.67f792p-19f, -0x1.624928p-20f, -0x1.6e2e14p-21f,
};
__constant float loom_special_erf_7[14] = {
    0x1.7b96b6p-14f, 0x1.3a7ffcp-7f, 0x1.d75516p-9f, 0x1.12e65ap-10f, 0x1.720026p-12f, 0x1.14ef1ap-13f,
    0x1.c9a7e4p-15f, 0x1.9b6adep-16f, 0x1.1f28ap-17f, 0x1.4db92ap-19f, 0x1.ccda08p-21f, 0x1.6af5fap-22f,
    0x1.3ecfcap-23f, 0x1.26f16ap-24f,
};
#define LOOM_ERF(k) loom_special_erf_##k[row] // coefficient k of the row

typedef struct {
  float p;    // P(a^2), erf(a) / a - 1, for a < 0.75
  float erfc; // erfc(a) for a >= 0.75 (flushing from a = 9.2 on, as it must)
} loom_special_erf_parts;

LOOM_MATH_HELPER loom_special_erf_parts loom_special_erf_evaluate(float a) {
  const float clamped = fmin(a, 9.5f); // erfc(9.5) flushes already
  const int i = clamped < 0.75f ? 0 : clamped < 4.0f ? (int)(2.0f * clamped) : (int)clamped + 4;
  const float center = i < 8 ? 0.5f * (float)i + 0.25f : (float)i - 3.5f;
  const loom_ff square = loom_two_prod(clamped, clamped);
  const float v = i == 0 ? square.x : clamped - center; // exact difference
  const int row = i;
  const float q =
      LOOM_ERF(2) + v * (LOOM_ERF(3) + v * (LOOM_ERF(4) + v * (LOOM_ERF(5) + v * (LOOM_ERF(6) + v * LOOM_ERF(7)))));
  const float p = LOOM_ERF(0) + (LOOM_ERF(1) + v * q);
  // e^-(hi + lo) = 2^k e^r, reduced as loom_exp does.
  const float k = loom_rint(-square.x * 0x1.715476p0f);
  const float er = loom_exp_reduced(-square.x - k * LOOM_LN2_HI, k * LOOM_LN2_LO + square.y);
  return (loom_special_erf_parts){p, loom_scale(er * p, (int)k)};
}

// a + a P(a^2) for a < 0.75, computed 8 times larger so that a P does not flush for the smallest a.
LOOM_MATH_HELPER float loom_special_erf_small(float a, float p) {
  return 0.125f * (8.0f * a + a * (8.0f * p));
}

LOOM_MATH float loom_erf(float x) {
  const float a = fabs(x);
  const loom_special_erf_parts parts = loom_special_erf_evaluate(a);
  const float value = a < 0.75f ? loom_special_erf_small(a, parts.p) : 1.0f - parts.erfc;
  return isnan(x) ? x : copysign(value, x);
}

LOOM_MATH float loom_erfc(float x) {
  const float a = fabs(x);
  const loom_special_erf_parts parts = loom_special_erf_evaluate(a);
  const float smallErf = loom_special_erf_small(a, parts.p);
  const float positiveSmall = a < 0.25f ? 1.0f - smallErf : 0.5f - ((a - 0.5f) + a * parts.p);
  const float small = x < 0.0f ? 1.0f + smallErf : positiveSmall;
  const float large = x < 0.0f ? 2.0f - parts.erfc : parts.erfc;
  return isnan(x) ? x : a < 0.75f ? small : large;
}

// sin(pi a) / pi for a >= 0, signed: a = n + f, n = rint(a), |f| <= 1/2 exactly, then
// (-1)^n (f + f^3 Q(f^2)) (minimax, 2^-33.6 relative). Zero at the integers (all floats from 2^23).
LOOM_MATH_HELPER float loom_special_sinpi_over_pi(float a) {
  const float n = loom_rint(a);
  const float f = a - n;
  const float s = f * f;
  const float q = -0x1.a51a66p+0f +
                  s * (0x1.9f9ca6p-1f + s * (-0x1.86a584p-3f + s * (0x1.abb33ap-6f + s * -0x1.22632cp-9f)));
  const float value = f + f * (s * q);
  return ((int)fmin(n, 0x1p24f) & 1) ? -value : value;
}

// tgamma: Gamma(a) = 2^e P(a - floor(a)) on [2, 38), a degree-11 polynomial per unit interval (scaled by
// 2^-e to stay in float range) expanded at its left end, where Gamma's derivatives are all positive so
// that the terms do not cancel; on [1, 2), where they alternate, around 3/2, and Gamma(1 + a) for
// a < 1 from that same polynomial.
// Negative x by reflection, Gamma(-a) = -1 / (S a Gamma(a)) with S = sin(pi a) / pi: its factor
// pi cancels, and from a = 38 on the result flushes. The error is the polynomial's rounding, the
// product's and the quotient's, and that of S.
// Row r of the fit is element r of each array: one ROM per coefficient, each read once.
__constant float loom_special_gamma_0[37] = {
    0x1.c5bf8ap-1f, 0x1p+0f, 0x1p-1f, 0x1.8p-2f, 0x1.8p-2f, 0x1.ep-2f, 0x1.68p-2f, 0x1.3bp-2f, 0x1.3bp-2f,
    0x1.626p-2f, 0x1.baf8p-3f, 0x1.308a8p-2f, 0x1.c8cfcp-3f, 0x1.7328ccp-2f, 0x1.44c3b2p-2f, 0x1.307778p-2f,
    0x1.307778p-2f, 0x1.437eeep-2f, 0x1.6beeccp-3f, 0x1.b02b94p-3f, 0x1.0e1b3cp-2f, 0x1.6283bep-3f,
    0x1.e77526p-3f, 0x1.5e5c34p-3f, 0x1.06c526p-2f, 0x1.9a940cp-3f, 0x1.4d984ap-3f, 0x1.19787ep-3f,
    0x1.ec92dep-3f, 0x1.be6518p-3f, 0x1.a27ec6p-3f, 0x1.956adp-3f, 0x1.956adp-3f, 0x1.a21628p-3f,
    0x1.bc378ap-3f, 0x1.e5dcbep-4f, 0x1.114c2cp-3f,
};
__constant float loom_special_gamma_1[37] = {
    -0x1.d7c568p-26f, -0x1.a600cep-41f, -0x1.a7656p-44f, -0x1.978528p-43f, -0x1.c07d1ep-42f,
    -0x1.10c8b4p-40f, -0x1.6adbdcp-40f, -0x1.05e0ap-39f, -0x1.97af58p-39f, -0x1.548adap-38f,
    -0x1.2ff17ap-38f, -0x1.20c434p-37f, -0x1.230de6p-37f, -0x1.36499p-36f, 0x1.fea314p-28f,
    -0x1.50ce6ep-27f, -0x1.51006ap-27f, 0x1.99b252p-27f, 0x1.4c99fap-28f, -0x1.f572dp-28f, -0x1.cd8f1cp-30f,
    0x1.33da12p-28f, 0x1.35359cp-31f, -0x1.44bae4p-28f, 0x1.0c0872p-27f, 0x1.88590cp-30f, -0x1.8779f8p-31f,
    0x1.6c45eep-29f, -0x1.c2583ap-28f, 0x1.8da44ap-29f, 0x1.b9563ap-28f, 0x1.4a73ap-28f, 0x1.4949cp-28f,
    -0x1.adb206p-28f, -0x1.93f81ep-29f, 0x1.016c4p-29f, -0x1.b02ea8p-28f,
};
__constant float loom_special_gamma_2[37] = {
    0x1.08ea8cp-5f, 0x1.b0ee6p-2f, 0x1.d8773p-2f, 0x1.e25964p-2f, 0x1.212cb2p-1f, 0x1.9977dep-1f,
    0x1.5119e6p-1f, 0x1.3d76aap-1f, 0x1.5126aap-1f, 0x1.8efb8p-1f, 0x1.04703p-1f, 0x1.73f202p-1f,
    0x1.2079d6p-1f, 0x1.e30c78p-1f, 0x1.b2443p-1f, 0x1.a1460ap-1f, 0x1.aac9c6p-1f, 0x1.cefa1ep-1f,
    0x1.097aacp-1f, 0x1.40f168p-1f, 0x1.97ee72p-1f, 0x1.0fece8p-1f, 0x1.7b6fcep-1f, 0x1.148746p-1f,
    0x1.a4445ap-1f, 0x1.4c707ap-1f, 0x1.11508cp-1f, 0x1.d26e4ep-2f, 0x1.9c8666p-1f, 0x1.79b2f2p-1f,
    0x1.65948ep-1f, 0x1.5dace6p-1f, 0x1.60d7bcp-1f, 0x1.6f095p-1f, 0x1.893e12p-1f, 0x1.b19454p-2f,
    0x1.eb9298p-2f,
};
__constant float loom_special_gamma_3[37] = {
    0x1.a8c4ecp-2f, 0x1.a5b99p-2f, 0x1.3f186p-2f, 0x1.657014p-2f, 0x1.de066ep-2f, 0x1.730f4cp-1f,
    0x1.497a92p-1f, 0x1.4a6e52p-1f, 0x1.721d28p-1f, 0x1.ca8578p-1f, 0x1.378322p-1f, 0x1.cce254p-1f,
    0x1.70e8c2p-1f, 0x1.3dc4eep+0f, 0x1.2524a2p+0f, 0x1.20648ap+0f, 0x1.2d6eb2p+0f, 0x1.4d9beep+0f,
    0x1.85c762p-1f, 0x1.df744cp-1f, 0x1.35b00ap+0f, 0x1.a3367p-1f, 0x1.28b4d4p+0f, 0x1.b65f86p-1f,
    0x1.516bd8p+0f, 0x1.0e2d68p+0f, 0x1.c16d28p-1f, 0x1.83be8cp-1f, 0x1.5a907ap+0f, 0x1.40850ap+0f,
    0x1.32636cp+0f, 0x1.2e66bep+0f, 0x1.33dd68p+0f, 0x1.42ffa4p+0f, 0x1.5cebb2p+0f, 0x1.83c69ep-1f,
    0x1.bb05c4p-1f,
};
__constant float loom_special_gamma_4[37] = {
    -0x1.b77b6p-4f, 0x1.4e1d3p-4f, 0x1.26640ap-3f, 0x1.7c5738p-3f, 0x1.17878p-2f, 0x1.d4e72ap-2f,
    0x1.bc6cb8p-2f, 0x1.d7441cp-2f, 0x1.14efc2p-1f, 0x1.65d482p-1f, 0x1.f89aap-2f, 0x1.81dadp-1f,
    0x1.3e3484p-1f, 0x1.199552p+0f, 0x1.0a4058p+0f, 0x1.0bed6p+0f, 0x1.1df454p+0f, 0x1.42aa5cp+0f,
    0x1.7fd676p-1f, 0x1.e02e06p-1f, 0x1.3b1c22p+0f, 0x1.b0f166p-1f, 0x1.36bfb4p+0f, 0x1.d13d08p-1f,
    0x1.6aa162p+0f, 0x1.25d8p+0f, 0x1.ee645cp-1f, 0x1.af31ap-1f, 0x1.8568eep+0f, 0x1.6bbba6p+0f,
    0x1.5f0608p+0f, 0x1.5d9f1ap+0f, 0x1.671314p+0f, 0x1.7bebcp+0f, 0x1.9dc3ccp+0f, 0x1.cf789cp-1f,
    0x1.0ac2ecp+0f,
};
__constant float loom_special_gamma_5[37] = {
    0x1.2835eep-3f, 0x1.3056f2p-4f, 0x1.d7692ap-5f, 0x1.43f972p-4f, 0x1.0115bap-3f, 0x1.cd633cp-3f,
    0x1.cf994ep-3f, 0x1.022606p-2f, 0x1.3d1084p-2f, 0x1.a9b4aap-2f, 0x1.36c71ap-2f, 0x1.ea61b8p-2f,
    0x1.9fd8d8p-2f, 0x1.79f066p-1f, 0x1.6dca92p-1f, 0x1.784ca2p-1f, 0x1.99bcf8p-1f, 0x1.d7193ep-1f,
    0x1.1d452p-1f, 0x1.6aa25cp-1f, 0x1.e30618p-1f, 0x1.509dcap-1f, 0x1.e9e64ep-1f, 0x1.739b94p-1f,
    0x1.253766p+0f, 0x1.e0e916p-1f, 0x1.990424p-1f, 0x1.687e3p-1f, 0x1.48ebb6p+0f, 0x1.363edap+0f,
    0x1.2e2522p+0f, 0x1.2fbc26p+0f, 0x1.3aa0fap+0f, 0x1.4fa26ap+0f, 0x1.706e9ap+0f, 0x1.9fc64ep-1f,
    0x1.e23a64p-1f,
};
__constant float loom_special_gamma_6[37] = {
    -0x1.3d763p-4f, -0x1.131f9cp-11f, 0x1.2bc67ep-6f, 0x1.cc869cp-6f, 0x1.87ee3ep-5f, 0x1.72c7d2p-4f,
    0x1.85dbb8p-4f, 0x1.cdcee6p-4f, 0x1.2759c6p-3f, 0x1.9de562p-3f, 0x1.38252cp-3f, 0x1.fb1722p-3f,
    0x1.bb7f02p-3f, 0x1.9942d2p-2f, 0x1.96786p-2f, 0x1.a9e106p-2f, 0x1.d98146p-2f, 0x1.1524f2p-1f,
    0x1.540b8p-2f, 0x1.b8bfecp-2f, 0x1.2baa9p-1f, 0x1.a842e8p-2f, 0x1.38c97p-1f, 0x1.df7d2ap-2f,
    0x1.7f34ccp-1f, 0x1.3d409ap-1f, 0x1.114506p-1f, 0x1.e77ddp-2f, 0x1.c0f66ap-1f, 0x1.ab9768p-1f,
    0x1.a5276p-1f, 0x1.aa449cp-1f, 0x1.bda692p-1f, 0x1.dfd364p-1f, 0x1.09b502p+0f, 0x1.2ee834p-1f,
    0x1.61cf4ap-1f,
};
__constant float loom_special_gamma_7[37] = {
    0x1.e1b0bcp-5f, 0x1.86cadep-7f, 0x1.8390e4p-8f, 0x1.27785p-7f, 0x1.0940b2p-6f, 0x1.18c298p-5f,
    0x1.46c824p-5f, 0x1.610a8ep-5f, 0x1.d5b638p-5f, 0x1.42f9b6p-4f, 0x1.f71002p-5f, 0x1.a62ccp-4f,
    0x1.6f56e6p-4f, 0x1.75a654p-3f, 0x1.729566p-3f, 0x1.93def8p-3f, 0x1.c5019p-3f, 0x1.0e2178p-2f,
    0x1.5a3618p-3f, 0x1.bcc1d8p-3f, 0x1.2734fap-2f, 0x1.a342b4p-3f, 0x1.3a0004p-2f, 0x1.ef4eb8p-3f,
    0x1.8e8fb6p-2f, 0x1.51e1bcp-2f, 0x1.23255ep-2f, 0x1.03c548p-2f, 0x1.e58418p-2f, 0x1.d26538p-2f,
    0x1.c971c2p-2f, 0x1.d8faep-2f, 0x1.f074fap-2f, 0x1.0baa12p-1f, 0x1.290696p-1f, 0x1.4facc6p-2f,
    0x1.8bdecp-2f,
};
__constant float loom_special_gamma_8[37] = {
    -0x1.39286ap-5f, -0x1.1a6166p-8f, 0x1.2eadc6p-11f, 0x1.ebcd08p-10f, 0x1.f1353ap-9f, 0x1.31f8f8p-8f,
    0x1.d50f68p-10f, 0x1.c8a2ecp-7f, 0x1.37b40cp-6f, 0x1.27181cp-5f, 0x1.d6f23ep-6f, 0x1.8c14ep-5f,
    0x1.9446eep-5f, 0x1.268f96p-4f, 0x1.50818ep-4f, 0x1.5437d2p-4f, 0x1.991652p-4f, 0x1.ee9f62p-4f,
    0x1.19259p-4f, 0x1.9fefd8p-4f, 0x1.4c0142p-3f, 0x1.f37b3ap-4f, 0x1.769c82p-3f, 0x1.17b24ap-3f,
    0x1.d12c38p-3f, 0x1.7be726p-3f, 0x1.582b94p-3f, 0x1.42f408p-3f, 0x1.2b184ap-2f, 0x1.235506p-2f,
    0x1.2f1002p-2f, 0x1.2e0378p-2f, 0x1.450258p-2f, 0x1.69f5a8p-2f, 0x1.9d2148p-2f, 0x1.f23acp-3f,
    0x1.257cdcp-2f,
};
__constant float loom_special_gamma_9[37] = {
    0x1.8fec24p-6f, 0x1.f4359ep-9f, 0x1.57d4p-10f, 0x1.3fee1p-10f, 0x1.1df274p-9f, 0x1.238c9ap-7f,
    0x1.f41da8p-7f, 0x1.1e62aap-8f, 0x1.a70994p-8f, 0x1.37e4ep-16f, 0x1.13ebb2p-13f, 0x1.c752ccp-10f,
    -0x1.3df77ap-8f, 0x1.76fb8cp-6f, 0x1.c367b8p-7f, 0x1.8bc628p-6f, 0x1.74fb94p-6f, 0x1.cf8406p-6f,
    0x1.dbc47ap-6f, 0x1.a19e2ep-6f, 0x1.139dep-7f, 0x1.1569e2p-11f, 0x1.addbe6p-9f, 0x1.a6772p-7f,
    0x1.061094p-6f, 0x1.7924d4p-6f, 0x1.c9b482p-7f, 0x1.8670d8p-8f, 0x1.1c172ep-6f, 0x1.f2208p-7f,
    0x1.8889bcp-17f, 0x1.ca5d7cp-7f, 0x1.33c3f2p-7f, 0x1.5c4f78p-10f, -0x1.bdb2b2p-8f, -0x1.2fa564p-6f,
    -0x1.3fd82p-6f,
};
__constant float loom_special_gamma_10[37] = {
    -0x1.03da98p-6f, -0x1.112e58p-9f, -0x1.62acccp-11f, -0x1.5220b2p-12f, -0x1.e74b3p-12f, -0x1.0f0992p-8f,
    -0x1.1b7e7cp-7f, 0x1.373e8p-10f, 0x1.94ac24p-10f, 0x1.4ff3e2p-7f, 0x1.1a1fdcp-7f, 0x1.d0aadap-7f,
    0x1.32f5ecp-6f, 0x1.746c6ep-7f, 0x1.5301cep-6f, 0x1.0c738ep-6f, 0x1.8ba644p-6f, 0x1.eec8p-6f,
    0x1.6c7444p-7f, 0x1.b68436p-6f, 0x1.f311f4p-5f, 0x1.9ad1b2p-5f, 0x1.35b462p-4f, 0x1.ac06a2p-5f,
    0x1.78a526p-4f, 0x1.27b6p-4f, 0x1.1e266ap-4f, 0x1.217f92p-4f, 0x1.0aaa6cp-3f, 0x1.0b11ap-3f,
    0x1.2a9f02p-3f, 0x1.21a79p-3f, 0x1.42898cp-3f, 0x1.75e66cp-3f, 0x1.b8cad2p-3f, 0x1.1c033ep-3f,
    0x1.50ce6ep-3f,
};
__constant float loom_special_gamma_11[37] = {
    0x1.0b0d6cp-6f, 0x1.ac463ap-11f, 0x1.5c5dd2p-12f, 0x1.b9b67p-13f, 0x1.8288f2p-12f, 0x1.1d3b3ep-9f,
    0x1.1b4606p-8f, 0x1.6dbec4p-14f, 0x1.e1a57cp-13f, -0x1.94aedp-9f, -0x1.5d41ep-9f, -0x1.15ecap-8f,
    -0x1.a5375cp-8f, -0x1.0ce566p-10f, -0x1.472a3ep-8f, -0x1.506692p-9f, -0x1.570344p-8f, -0x1.b6cc44p-8f,
    -0x1.163e98p-11f, -0x1.906144p-8f, -0x1.3b39eep-6f, -0x1.11e8bep-6f, -0x1.9c2c92p-6f, -0x1.0cc56cp-6f,
    -0x1.ea1caep-6f, -0x1.759948p-6f, -0x1.779f48p-6f, -0x1.8df2c6p-6f, -0x1.6c58b4p-5f, -0x1.72b576p-5f,
    -0x1.af1c84p-5f, -0x1.9c12aep-5f, -0x1.d31ef4p-5f, -0x1.145bd4p-4f, -0x1.4ae16ep-4f, -0x1.b821a4p-5f,
    -0x1.05dc56p-4f,
};
__constant float loom_special_gamma_12[37] = {
    -0x1.7870cp-7f, -0x1.235da4p-13f, -0x1.ca344ap-15f, -0x1.819e38p-16f, -0x1.2415bep-15f,
    -0x1.4ff184p-12f, -0x1.72c4e6p-11f, 0x1.50f27p-13f, 0x1.e310e8p-13f, 0x1.111ef4p-10f, 0x1.e5deaap-11f,
    0x1.a527f6p-10f, 0x1.0b5a3cp-9f, 0x1.ef87a8p-10f, 0x1.781768p-9f, 0x1.68dcaep-9f, 0x1.f41742p-9f,
    0x1.444df2p-8f, 0x1.5297a2p-9f, 0x1.35165ep-8f, 0x1.26140cp-7f, 0x1.de3472p-8f, 0x1.7463e2p-7f,
    0x1.17f3aap-7f, 0x1.ed0ee4p-7f, 0x1.9ea39cp-7f, 0x1.899b58p-7f, 0x1.870194p-7f, 0x1.7520bap-6f,
    0x1.7a9a2ap-6f, 0x1.9caae2p-6f, 0x1.a69efep-6f, 0x1.d743d4p-6f, 0x1.0fd45p-5f, 0x1.401706p-5f,
    0x1.90e7d8p-6f, 0x1.e4fa22p-6f,
};
#define LOOM_GAMMA(k) loom_special_gamma_##k[row] // coefficient k of the row
__constant int loom_special_gamma_exponents[37] = {
    0,  0,  2,  4,  6,  8,  11, 14, 17,  20,  24,  27,  31,  34,  38,  42,  46,  50,  55,
    59, 63, 68, 72, 77, 81, 86, 91, 96, 100, 105, 110, 115, 120, 125, 130, 136, 141};

// Gamma(a) 2^-e for a in [1, 38), Gamma(1 + a) for a < 1 (then e = 0).
LOOM_MATH_HELPER float loom_special_gamma_scaled(float a, int *e) {
  const int i = clamp((int)fmin(a, 37.5f), 1, 37);
  const float t = a - (a < 1.0f ? 0.5f : i == 1 ? 1.5f : (float)i); // exact from a = 1/4 on
  const int row = i - 1;
  const float q1 = LOOM_GAMMA(7) + t * (LOOM_GAMMA(8) + t * (LOOM_GAMMA(9) + t * (LOOM_GAMMA(10)
                   + t * (LOOM_GAMMA(11) + t * LOOM_GAMMA(12)))));
  const float q =
      LOOM_GAMMA(2) + t * (LOOM_GAMMA(3) + t * (LOOM_GAMMA(4) + t * (LOOM_GAMMA(5) + t * (LOOM_GAMMA(6) + t * q1))));
  *e = loom_special_gamma_exponents[i - 1];
  return LOOM_GAMMA(0) + (LOOM_GAMMA(1) + t * q);
}

LOOM_MATH float loom_tgamma(float x) {
  const float a = fabs(x);
  int e;
  const float p = loom_special_gamma_scaled(fmin(a, 37.5f), &e);
  const float positive = a < 1.0f ? p / a : loom_scale(p, e); // overflows past 35.04 as it must
  const float s = loom_special_sinpi_over_pi(a);
  const float reflected = loom_scale(-1.0f / (s * (a < 1.0f ? p : a * p)), -e);
  const float negative = a >= 38.0f ? copysign(0.0f, -s) : reflected;
  const float value = x > 0.0f ? (a >= 36.0f ? INFINITY : positive) : isinf(x) || s == 0.0f ? NAN : negative;
  return isnan(x) ? x : loom_is_zero(x) ? copysign(INFINITY, x) : value;
}

// lgamma: for a < 8 one polynomial per interval (of 1/4 up to 2.5, then 1/2), evaluated around the
// centre the table's first column holds: on [0, 0.75) of lgamma(a) + log(a) (smooth at 0), on the
// intervals around the zeros 1 and 2 of lgamma(a) / (a - 1) or / (a - 2), so that the result keeps
// its relative precision there. From 8 on, Stirling's series: (a - 1/2)(log(a) - 1) + T(1/a),
// T(z) = (log(2 pi) - 1) / 2 + z / 12 - z^3 / 360 (minimax, 2^-33.9 relative to lgamma), with
// log(a) - 1 from the parts of loom_log so that the 1 comes off exactly. Negative x by reflection:
// lgamma(-a) = -log(a |S|) - lgamma(a), S = sin(pi a) / pi, accurate only to an ulp or so of the
// two terms where they cancel (near the zeros of lgamma below -2: some 2e-7 absolute down to -5,
// 1e-6 around -9).
// Row r of the fit is element r of each array: one ROM per coefficient, each read once.
__constant float loom_special_lgamma_0[21] = {
    0.125f, 0.375f, 0.625f, 1.0f, 1.0f, 1.375f, 2.0f, 2.0f, 2.0f, 2.375f, 2.75f, 3.25f, 3.75f, 4.25f, 4.75f,
    5.25f, 5.75f, 6.25f, 6.75f, 7.25f, 7.75f,
};
__constant float loom_special_lgamma_1[21] = {
    -0x1.ebb5bep-5f, -0x1.e2535ap-4f, -0x1.bf2d6p-4f, -0x1.2788dp-1f, -0x1.2788dp-1f, -0x1.e2535ap-4f,
    0x1.b0ee5cp-2f, 0x1.b0ee6p-2f, 0x1.b0ee6p-2f, 0x1.9b07ccp-3f, 0x1.e69eacp-2f, 0x1.df216ep-1f,
    0x1.7c9ff2p+0f, 0x1.0ea686p+1f, 0x1.677f44p+1f, 0x1.c7db2ap+1f, 0x1.177846p+2f, 0x1.4e0dfep+2f,
    0x1.876b2ap+2f, 0x1.c35702p+2f, 0x1.00d08ep+3f,
};
__constant float loom_special_lgamma_2[21] = {
    0x1.965e36p-31f, 0x1.9e1aa8p-31f, -0x1.837f48p-30f, 0x1.c78dfcp-28f, 0x1.c83a9cp-28f, 0x1.9e27e4p-31f,
    0x1.e68102p-30f, 0x1.c824dap-28f, 0x1.c824fap-28f, -0x1.4523eep-28f, 0x1.cfac98p-28f, 0x1.0d2a5ep-27f,
    0x1.d3df78p-28f, 0x1.306666p-25f, 0x1.57435cp-24f, 0x1.cfbf06p-25f, 0x1.141b12p-23f, -0x1.e73918p-26f,
    0x1.f2c902p-24f, -0x1.6bc03ep-24f, 0x1.0395f4p-24f,
};
__constant float loom_special_lgamma_3[21] = {
    -0x1.8dd106p-2f, -0x1.65b6a4p-4f, 0x1.2da706p-3f, 0x1.a51a66p-1f, 0x1.a51a66p-1f, -0x1.65b6a4p-4f,
    0x1.4a346p-2f, 0x1.4a34ccp-2f, 0x1.4a34ccp-2f, 0x1.47a642p-1f, 0x1.a346fep-1f, 0x1.045984p+0f,
    0x1.2ebac6p+0f, 0x1.531e7p+0f, 0x1.72ff0ap+0f, 0x1.8f5aacp+0f, 0x1.a8e416p+0f, 0x1.c01db8p+0f,
    0x1.d569a8p+0f, 0x1.e9137cp+0f, 0x1.fb56b2p+0f,
};
__constant float loom_special_lgamma_4[21] = {
    0x1.635cb8p-1f, 0x1.0cf87cp-1f, 0x1.aeaf92p-2f, -0x1.9a4d78p-2f, -0x1.9a4d38p-2f, 0x1.0cf87cp-1f,
    -0x1.13f294p-4f, -0x1.13e076p-4f, -0x1.13df8ap-4f, 0x1.0b219ap-2f, 0x1.c012a8p-3f, 0x1.706ef4p-3f,
    0x1.38ab08p-3f, 0x1.0f7c96p-3f, 0x1.dfb356p-4f, 0x1.ad96d8p-4f, 0x1.84ee28p-4f, 0x1.63491p-4f,
    0x1.46fcb4p-4f, 0x1.2edb5p-4f, 0x1.1a09b4p-4f,
};
__constant float loom_special_lgamma_5[21] = {
    -0x1.2b3afep-2f, -0x1.61afcap-3f, -0x1.cddd3p-4f, 0x1.150d52p-2f, 0x1.150fp-2f, -0x1.61afc4p-3f,
    0x1.4f5dbep-6f, 0x1.50f45ep-6f, 0x1.50f13p-6f, -0x1.6c3c42p-5f, -0x1.01a26ep-5f, -0x1.5dee3p-6f,
    -0x1.f9a0a2p-7f, -0x1.7d99bp-7f, -0x1.2a6f3ap-7f, -0x1.de82d4p-8f, -0x1.884c1ap-8f, -0x1.477312p-8f,
    -0x1.160a56p-8f, -0x1.dd621ap-9f, -0x1.9e899p-9f,
};
__constant float loom_special_lgamma_6[21] = {
    0x1.618574p-3f, 0x1.4c31fcp-4f, 0x1.6603ccp-5f, -0x1.a9ae3cp-3f, -0x1.a82b08p-3f, 0x1.4c334cp-4f,
    -0x1.00933cp-7f, -0x1.f3a028p-8f, -0x1.d34daep-8f, 0x1.6f68f6p-7f, 0x1.b6f254p-8f, 0x1.ee28f6p-9f,
    0x1.2f9168p-9f, 0x1.90feeap-10f, 0x1.147dc8p-10f, 0x1.905f02p-11f, 0x1.29febp-11f, 0x1.c734dap-12f,
    0x1.607734p-12f, 0x1.18382ap-12f, 0x1.c2a0f4p-13f,
};
__constant float loom_special_lgamma_7[21] = {
    -0x1.e09a7ep-4f, -0x1.68b4f2p-5f, -0x1.4b7686p-6f, 0x1.5048a2p-3f, 0x1.55f058p-3f, -0x1.68c958p-5f,
    0x1.c7c9eep-10f, 0x1.b1f59ap-11f, 0x1.52deacp-11f, -0x1.3e8cf4p-8f, -0x1.d30d78p-10f, -0x1.b6b4fcp-11f,
    -0x1.cd14ecp-13f, -0x1.78df0ep-12f, -0x1.048ef6p-16f, -0x1.1df306p-12f, -0x1.32fb9ap-12f,
    -0x1.19f698p-12f, 0x1.e31228p-15f, 0x1.b40728p-14f, 0x1.a0134cp-13f,
};
__constant float loom_special_lgamma_8[21] = {
    0x1.67a0fcp-4f, 0x1.b739bap-6f, 0x1.82b0dap-7f, -0x1.6ee0ecp-3f, -0x1.0984e2p-3f, 0x1.b345c6p-6f,
    -0x1.984f82p-9f, -0x1.697476p-7f, 0x1.3c43eap-7f, -0x1.0bb314p-8f, 0x1.3780dp-12f, 0x1.f91c6cp-14f,
    0x1.faa7bap-13f, -0x1.2d7ee8p-15f, 0x1.7b0adep-14f, -0x1.282d4ep-14f, -0x1.41a7e6p-14f,
    -0x1.1acad6p-14f, 0x1.0dd184p-15f, 0x1.000cd8p-15f, 0x1.de509ap-15f,
};
__constant float loom_special_lgamma_9[21] = {
    -0x1.136438p-5f, -0x1.e882bap-7f, 0x1.ad614p-7f, -0x1.525fbp-9f, 0x1.41d874p-4f, -0x1.d9638ap-7f,
    -0x1.77a6ccp-10f, -0x1.86c2e6p-6f, -0x1.b47654p-6f, 0x1.cd625ap-5f, 0x1.79bf44p-11f, 0x1.8cef26p-12f,
    -0x1.db8b9ap-10f, 0x1.1e8f28p-10f, -0x1.3b360cp-10f, 0x1.a9e9fp-10f, 0x1.1215cp-9f, 0x1.0ca4fcp-9f,
    -0x1.adfd5cp-11f, -0x1.31f5c6p-10f, -0x1.031692p-9f,
};
__constant float loom_special_lgamma_10[21] = {
    -0x1.7c0f34p-4f, -0x1.a5aadap-6f, -0x1.3085a6p-4f, -0x1.5ae7fep-2f, -0x1.76316cp-6f, -0x1.ee31d6p-7f,
    -0x1.3ec1dap-10f, -0x1.9516eap-6f, 0x1.bfb412p-6f, 0x1.7f086ep-3f, 0x1.9f39bp-10f, 0x1.25994cp-11f,
    -0x1.7ac87ap-10f, 0x1.71502p-11f, -0x1.44a732p-11f, 0x1.8bbccp-11f, 0x1.983666p-11f, 0x1.5e5688p-11f,
    -0x1.102916p-12f, -0x1.1b34dap-12f, -0x1.0782ccp-11f,
};
#define LOOM_LGAMMA(k) loom_special_lgamma_##k[row] // coefficient k of the row

LOOM_MATH_HELPER float loom_special_lgamma(float x, int *sign) {
  const float a = fabs(x);
  const float clamped = fmin(a, 8.0f);
  const int i = clamped < 2.5f ? (int)(4.0f * clamped) : min((int)(2.0f * clamped) + 5, 20);
  const int row = i;
  const float t = clamped - LOOM_LGAMMA(0);
  const float q1 = LOOM_LGAMMA(7) + t * (LOOM_LGAMMA(8) + t * (LOOM_LGAMMA(9) + t * LOOM_LGAMMA(10)));
  const float q = LOOM_LGAMMA(3) + t * (LOOM_LGAMMA(4) + t * (LOOM_LGAMMA(5) + t * (LOOM_LGAMMA(6) + t * q1)));
  // The rows around the zeros hold lgamma / t.
  const float factor = LOOM_LGAMMA(0) == 1.0f || LOOM_LGAMMA(0) == 2.0f ? t : 1.0f;
  const float p = (LOOM_LGAMMA(1) + (LOOM_LGAMMA(2) + t * q)) * factor + 0.0f; // + 0: lgamma(1) = +0, not -0
  // log(a) = k ln2 + log1p(f), as loom_log computes it, for a < 0.75 and for Stirling's series.
  float k;
  const loom_log_parts parts = loom_log1p_parts(loom_log_split(a, &k) - 1.0f);
  const float logTail = (parts.halfSquare - (parts.tail + k * LOOM_LOG_LN2_LO)) - parts.f;
  const float logA = k * LOOM_LOG_LN2_HI - logTail;
  const float logAMinus1 = (k * LOOM_LOG_LN2_HI - 1.0f) - logTail; // the first difference exact
  const float z = 1.0f / a;
  const float series = 0x1.acfe3ap-2f + z * (0x1.5554fep-4f + z * z * -0x1.68aebep-9f);
  const float stirling = (a - 0.5f) * logAMinus1 + series;
  const float positive = a < 0.75f ? p - logA : a < 8.0f ? p : stirling;
  const float s = loom_special_sinpi_over_pi(a);
  const float negative = -loom_log(a < 0.75f ? fabs(s) : a * fabs(s)) - (a < 0.75f ? p : positive);
  const bool poleOrHuge = loom_is_zero(x) || isinf(x) || (x < 0.0f && s == 0.0f);
  // Gamma(-a) = -1 / (S a Gamma(a)) < 0 where S > 0; -1 for -0 too, +1 at the poles (as glibc).
  *sign = as_int(x) < 0 && (loom_is_zero(x) || s > 0.0f) ? -1 : 1;
  return isnan(x) ? x : poleOrHuge ? INFINITY : x > 0.0f ? positive : negative;
}

LOOM_MATH float loom_lgamma(float x) {
  int sign;
  return loom_special_lgamma(x, &sign);
}
LOOM_MATH float loom_lgamma_r(float x, __private int *sign) { return loom_special_lgamma(x, sign); }
