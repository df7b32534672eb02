// SPDX-License-Identifier: Apache-2.0
// Verilated tests of loom_fadd, loom_fmul, loom_fdiv and loom_fsqrt: bit-exact against the host's
// IEEE-754 binary32 arithmetic (round to nearest even; SSE on x86-64, compiled without fast-math or
// contraction), with the library's flush-to-zero and canonical-NaN rules applied on top, at several
// latencies.

#include "RtlTestSupport.h"

#include "Vfadd1.h"
#include "Vfadd2.h"
#include "Vfadd3.h"
#include "Vfadd5.h"
#include "Vfadd8.h"
#include "Vfdiv1.h"
#include "Vfdiv13.h"
#include "Vfdiv29.h"
#include "Vfdiv7.h"
#include "Vfmul1.h"
#include "Vfmul2.h"
#include "Vfmul3.h"
#include "Vfmul5.h"
#include "Vfmul8.h"
#include "Vfsqrt1.h"
#include "Vfsqrt13.h"
#include "Vfsqrt28.h"
#include "Vfsqrt7.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using loomrtl::Rng;
using loomrtl::toBits;
using loomrtl::toFloat;

namespace {

/// Operand pairs; the unary loom_fsqrt ignores the second.
using Ops = std::vector<std::pair<uint32_t, uint32_t>>;
using RefFn = uint32_t (*)(uint32_t, uint32_t);
using Cases = std::vector<std::array<uint32_t, 3>>;

constexpr uint32_t kQuietNaN = 0x7fc00000u;

/// Denormal inputs read as zero of the same sign.
float flushIn(uint32_t bits) { return toFloat((bits & 0x7f800000u) == 0 ? bits & 0x80000000u : bits); }
bool isDenormal(float f) { return std::fpclassify(f) == FP_SUBNORMAL; }

/// Reference a + b. A denormal sum of two normals is exact (both are multiples of 2^-149), so
/// flushing the IEEE result gives exactly the hardware's flush-to-zero result.
uint32_t refAdd(uint32_t a, uint32_t b) {
  const float r = flushIn(a) + flushIn(b);
  if (std::isnan(r))
    return kQuietNaN;
  if (isDenormal(r))
    return toBits(r) & 0x80000000u;
  return toBits(r);
}

/// Reference a * b: the hardware flushes exactly when the correctly rounded IEEE product (with
/// gradual underflow) is denormal, so this is the same flush rule as for the adder.
uint32_t refMul(uint32_t a, uint32_t b) {
  const float r = flushIn(a) * flushIn(b);
  if (std::isnan(r))
    return kQuietNaN;
  if (isDenormal(r))
    return toBits(r) & 0x80000000u;
  return toBits(r);
}

/// Reference a / b. The host's binary32 division rounds once, at denormal precision when the
/// quotient is tiny, so a quotient just below 2^-126 that rounds up to 2^-126 comes back normal and
/// stays, while every other tiny quotient comes back denormal (or zero) and flushes: exactly the
/// hardware's rule. x/0 is infinity, 0/0 and inf/inf NaN, as IEEE says.
uint32_t refDiv(uint32_t a, uint32_t b) {
  const float r = flushIn(a) / flushIn(b);
  if (std::isnan(r))
    return kQuietNaN;
  if (isDenormal(r))
    return toBits(r) & 0x80000000u;
  return toBits(r);
}

/// Reference sqrt(a) (b is ignored): the root of a normal number is normal, sqrt(-0) = -0 and any
/// negative number below -0 gives NaN, as IEEE says.
uint32_t refSqrt(uint32_t a, uint32_t) {
  const float r = std::sqrt(flushIn(a));
  return std::isnan(r) ? kQuietNaN : toBits(r);
}

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

/// Whether the model has a second operand port `b` (loom_fsqrt has not).
template <class M, class = void> struct HasB : std::false_type {};
template <class M> struct HasB<M, std::void_t<decltype(std::declval<M &>().b)>> : std::true_type {};

/// Streams `ops` through the unit (loomrtl::streamLockstep checks the timing contract) and compares
/// every result with `expected`. Returns the number of mismatches (the first few are reported).
template <class M>
int stream(const Ops &ops, const std::vector<uint32_t> &expected, int latency, double pValid, double pReady,
           uint32_t seed) {
  int reported = 0;
  return loomrtl::streamLockstep<M>(
      ops.size(), latency, pValid, pReady, seed,
      [&](M &m, size_t i, Rng &rng) {
        m.a = i < ops.size() ? ops[i].first : rng.u32();
        if constexpr (HasB<M>::value)
          m.b = i < ops.size() ? ops[i].second : rng.u32();
      },
      [](M &) { return true; },
      [&](M &m, size_t i) {
        if (m.result == expected[i])
          return true;
        if (++reported <= 8)
          FAIL_CHECK("op " << i << ": " << hex(ops[i].first) << ", " << hex(ops[i].second) << " -> "
                           << hex(m.result) << ", expected " << hex(expected[i]));
        return false;
      });
}

std::vector<uint32_t> expectAll(const Ops &ops, RefFn ref) {
  std::vector<uint32_t> out;
  out.reserve(ops.size());
  for (auto &op : ops)
    out.push_back(ref(op.first, op.second));
  return out;
}

uint32_t makeFloat(uint32_t sign, uint32_t exp, uint32_t frac) {
  return (sign << 31) | (exp << 23) | (frac & 0x7fffffu);
}

/// Random pairs with normal operands and a normal result; exponents are mostly close together
/// so that alignment, cancellation and rounding paths are all exercised.
Ops normalAddOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count) {
    const int ea = rng.range(1, 254);
    int eb = rng.coin(0.8) ? ea + rng.range(-28, 28) : rng.range(1, 254);
    if (eb < 1 || eb > 254)
      continue;
    const uint32_t a = makeFloat(rng.u32() & 1, ea, rng.u32());
    const uint32_t b = makeFloat(rng.u32() & 1, eb, rng.u32());
    if (std::isnormal(toFloat(a) + toFloat(b)))
      ops.emplace_back(a, b);
  }
  return ops;
}

Ops normalMulOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count) {
    const int ea = rng.range(1, 254);
    const int eb = rng.range(std::max(1, 127 - ea), std::min(254, 381 - ea));
    const uint32_t a = makeFloat(rng.u32() & 1, ea, rng.u32());
    const uint32_t b = makeFloat(rng.u32() & 1, eb, rng.u32());
    if (std::isnormal(toFloat(a) * toFloat(b)))
      ops.emplace_back(a, b);
  }
  return ops;
}

/// Arbitrary bit patterns, biased towards the special exponents 0 and 255.
Ops anyBitsOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  auto pick = [&]() {
    uint32_t v = rng.u32();
    switch (rng.range(0, 7)) {
    case 0: return v & 0x807fffffu;                                   // zero or denormal
    case 1: return v | 0x7f800000u;                                   // inf or NaN
    case 2: return (v & 0x80000000u) | (rng.coin(0.5) ? 0x7f800000u : 0u); // +-inf, +-0
    case 3: return (v & 0x81ffffffu) | 0x00800000u;                   // near the bottom
    default: return v;
    }
  };
  while (ops.size() < count)
    ops.emplace_back(pick(), pick());
  return ops;
}

/// Random pairs with normal operands and a normal quotient, exponents over the whole range.
Ops normalDivOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count) {
    const int ea = rng.range(1, 254);
    const int eb = rng.range(std::max(1, ea - 127), std::min(254, ea + 126));
    const uint32_t a = makeFloat(rng.u32() & 1, ea, rng.u32());
    const uint32_t b = makeFloat(rng.u32() & 1, eb, rng.u32());
    if (std::isnormal(toFloat(a) / toFloat(b)))
      ops.emplace_back(a, b);
  }
  return ops;
}

/// A random fraction, often just above 0 or just below all ones (near a power of two).
uint32_t edgyFraction(Rng &rng) {
  switch (rng.range(0, 3)) {
  case 0: return rng.u32() & 0x3ffu;
  case 1: return 0x7fffffu - (rng.u32() & 0x3ffu);
  default: return rng.u32() & 0x7fffffu;
  }
}

/// Pairs of operands near 1.0 (in [0.5, 2)), so quotients and roots near 1.0.
Ops nearOneOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count)
    ops.emplace_back(makeFloat(rng.u32() & 1, rng.range(126, 127), edgyFraction(rng)),
                     makeFloat(rng.u32() & 1, rng.range(126, 127), edgyFraction(rng)));
  return ops;
}

/// Quotients around the overflow and underflow thresholds: the biased exponent of the quotient's
/// binade (ea - eb + 127, one less when a's significand is below b's) is near 255 or near 0; now and
/// then a's fraction is all ones over b's 1.0, the only quotient that rounds up to 2^-126 at
/// denormal precision from below.
Ops divRangeEdgeOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count) {
    const int target = rng.coin(0.5) ? rng.range(-2, 2) : rng.range(253, 257);
    const int ea = rng.range(1, 254);
    const int eb = ea + 127 - target;
    if (eb < 1 || eb > 254)
      continue;
    const bool toMin = rng.coin(0.1);
    ops.emplace_back(makeFloat(rng.u32() & 1, ea, toMin ? 0x7fffffu : edgyFraction(rng)),
                     makeFloat(rng.u32() & 1, eb, toMin ? 0u : edgyFraction(rng)));
  }
  return ops;
}

/// Positive normal radicands over the whole exponent range (b unused).
Ops normalSqrtOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count)
    ops.emplace_back(makeFloat(0, rng.range(1, 254), rng.u32()), 0u);
  return ops;
}

/// Radicands at and one ulp either side of the squares of random floats: exact and nearly exact roots.
Ops squareOps(size_t count, uint32_t seed) {
  Rng rng(seed);
  Ops ops;
  while (ops.size() < count) {
    const float x = toFloat(makeFloat(0, rng.range(64, 190), edgyFraction(rng)));
    ops.emplace_back(toBits(x * x) + static_cast<uint32_t>(rng.range(-1, 1)), 0u);
  }
  return ops;
}

/// Hand-picked a + b cases with independently known results (not taken from the reference).
const Cases kAddCases = {
    {0x3f800000, 0x3f800000, 0x40000000}, // 1 + 1 = 2
    {0x3f800000, 0xbf800000, 0x00000000}, // x + -x = +0
    {0xbf800000, 0x3f800000, 0x00000000}, // -x + x = +0
    {0x80000000, 0x80000000, 0x80000000}, // -0 + -0 = -0
    {0x00000000, 0x80000000, 0x00000000}, // +0 + -0 = +0
    {0x80000000, 0x00000000, 0x00000000}, // -0 + +0 = +0
    {0x00000000, 0xbf800000, 0xbf800000}, // 0 + x = x
    {0x3f800000, 0x33800000, 0x3f800000}, // 1 + 2^-24: tie, stays even
    {0x3f800001, 0x33800000, 0x3f800002}, // tie from an odd significand rounds up to even
    {0x3f800000, 0x33800001, 0x3f800001}, // just above the tie rounds up
    {0x3f800000, 0xb3800000, 0x3f7fffff}, // 1 - 2^-24 is exact
    {0x3f800000, 0xb3000000, 0x3f800000}, // 1 - 2^-25: tie between 1-2^-24 and 1, even is 1
    {0x3f800000, 0xb3000001, 0x3f7fffff}, // just beyond that tie goes down
    {0x3fffffff, 0x34000000, 0x40000000}, // carry into the exponent
    {0x4b7fffff, 0x3f000000, 0x4b800000}, // rounding carry: 16777215.5 -> 16777216
    {0x3f800001, 0xbf800000, 0x34000000}, // cancellation to one ulp
    {0x40000000, 0xbfffffff, 0x34000000}, // massive cancellation across an exponent
    {0x3f800000, 0x0d800000, 0x3f800000}, // far smaller operand vanishes
    {0x3f800000, 0x8d800000, 0x3f800000}, // far smaller negative operand vanishes too
    {0x7f7fffff, 0x7f7fffff, 0x7f800000}, // overflow to +inf
    {0xff7fffff, 0xff7fffff, 0xff800000}, // overflow to -inf
    {0x7f7fffff, 0x73800000, 0x7f800000}, // max + one ulp = 2^128 overflows
    {0x7f7fffff, 0x73000000, 0x7f800000}, // max + half ulp ties to even = inf
    {0x7f7fffff, 0x72800000, 0x7f7fffff}, // max + quarter ulp stays max
    {0x00800001, 0x80800000, 0x00000000}, // denormal result flushes to +0
    {0x80800001, 0x00800000, 0x80000000}, // negative denormal result flushes to -0
    {0x01000000, 0x80c00000, 0x00000000}, // 2^-125 - 1.5*2^-126 = 2^-127 flushes
    {0x00800000, 0x00800000, 0x01000000}, // min normal doubles
    {0x00000001, 0x00000001, 0x00000000}, // denormal inputs are zero
    {0x80000001, 0x80000001, 0x80000000}, // negative denormals are -0
    {0x3f800000, 0x00400000, 0x3f800000}, // denormal operand ignored
    {0x807fffff, 0x00800000, 0x00800000}, // -denormal + min normal = min normal
    {0x7fc00000, 0x3f800000, kQuietNaN},  // quiet NaN
    {0x7f800001, 0x00000000, kQuietNaN},  // signalling NaN becomes canonical
    {0x3f800000, 0xffc00123, kQuietNaN},  // negative NaN with payload
    {0x7f800000, 0x3f800000, 0x7f800000}, // inf + x
    {0xff800000, 0x7f7fffff, 0xff800000}, // -inf + max
    {0x7f800000, 0xff800000, kQuietNaN},  // inf - inf
    {0x7f800000, 0x7f800000, 0x7f800000}, // inf + inf
    {0x7f800000, 0x7fc00000, kQuietNaN},  // inf + NaN
};

const Cases kMulCases = {
    {0x3f800000, 0x3f800000, 0x3f800000}, // 1 * 1
    {0x40000000, 0x40400000, 0x40c00000}, // 2 * 3 = 6
    {0xc0000000, 0x40400000, 0xc0c00000}, // -2 * 3 = -6
    {0x3fc00000, 0x3fc00000, 0x40100000}, // 1.5 * 1.5 = 2.25 (product >= 2)
    {0x00000000, 0xbf800000, 0x80000000}, // 0 * -1 = -0
    {0x80000000, 0x80000000, 0x00000000}, // -0 * -0 = +0
    {0x7f800000, 0x00000000, kQuietNaN},  // inf * 0
    {0x80000000, 0xff800000, kQuietNaN},  // -0 * -inf
    {0x7f800000, 0x00000001, kQuietNaN},  // inf * denormal (= 0)
    {0x7f800000, 0xc0000000, 0xff800000}, // inf * -2
    {0x7fc00000, 0x3f800000, kQuietNaN},  // NaN
    {0x7f800001, 0x00000000, kQuietNaN},  // signalling NaN
    {0x7f7fffff, 0x40000000, 0x7f800000}, // overflow
    {0xff7fffff, 0x40000000, 0xff800000}, // negative overflow
    {0x00800000, 0x3f000000, 0x00000000}, // min normal / 2 flushes
    {0x80800000, 0x3f000000, 0x80000000}, // negative flush keeps the sign
    {0x20000000, 0x20000000, 0x00800000}, // 2^-63 * 2^-63 = 2^-126, exactly normal
    {0x1fffffff, 0x1fffffff, 0x00000000}, // just below 2^-126 after rounding: flushed
    {0x00400000, 0x7f000000, 0x00000000}, // denormal input is zero
    {0x3f800001, 0x3f800001, 0x3f800002}, // (1+u)^2 = 1+2u+u^2 rounds down
    {0x3fffffff, 0x3fffffff, 0x407ffffe}, // (2-u)^2 = 4-4u+u^2 -> 4-4u
    {0x3f7fffff, 0x3f800001, 0x3f800000}, // (1-u/2)(1+u) = 1+u/2-u^2/2 rounds to 1
};

/// Expectations computed independently with exact rational arithmetic, not by the reference.
const Cases kDivCases = {
    {0x3f800000, 0x3f800000, 0x3f800000}, // 1 / 1
    {0x40c00000, 0x40400000, 0x40000000}, // 6 / 3 = 2
    {0x49742400, 0x447a0000, 0x447a0000}, // 1e6 / 1e3 = 1e3
    {0x3f800000, 0x40400000, 0x3eaaaaab}, // 1/3 rounds up
    {0x40000000, 0x40400000, 0x3f2aaaab}, // 2/3 rounds up
    {0xbf800000, 0x40400000, 0xbeaaaaab}, // -1/3
    {0x3fffffff, 0x3f800000, 0x3fffffff}, // largest significand / 1: A >= B, no normalising shift
    {0x3f800000, 0x3fffffff, 0x3f000001}, // 1 / (2 - u): A < B, the dividend doubles
    {0x3f7fffff, 0x3f800001, 0x3f7ffffd}, // (1 - u/2) / (1 + u)
    {0x3f800000, 0x80000000, 0xff800000}, // 1 / -0 = -inf
    {0x3f800000, 0x00000001, 0x7f800000}, // x / denormal (= 0) = inf
    {0x7f800000, 0x00000000, 0x7f800000}, // inf / 0 = inf
    {0x80000000, 0x40a00000, 0x80000000}, // -0 / 5 = -0
    {0x00000000, 0x7f800000, 0x00000000}, // 0 / inf = 0
    {0x40a00000, 0xff800000, 0x80000000}, // 5 / -inf = -0
    {0x00000001, 0x3f800000, 0x00000000}, // denormal / 1 = 0
    {0x00000000, 0x00000000, kQuietNaN},  // 0 / 0
    {0x00000001, 0x80000001, kQuietNaN},  // denormal / denormal is 0 / 0
    {0x7f800000, 0xff800000, kQuietNaN},  // inf / inf
    {0x7fc00000, 0x3f800000, kQuietNaN},  // NaN / x
    {0x3f800000, 0xff800001, kQuietNaN},  // x / signalling NaN
    {0x7f7fffff, 0x3f800000, 0x7f7fffff}, // max / 1
    {0x7f7fffff, 0x3f800001, 0x7f7ffffd}, // max / (1 + u)
    {0x7f7fffff, 0x3f000000, 0x7f800000}, // max / 0.5 overflows
    {0x7f000000, 0x00800000, 0x7f800000}, // 2^127 / 2^-126 overflows
    {0xff000000, 0x3f000000, 0xff800000}, // -2^127 / 0.5 = -2^128 overflows to -inf
    {0x3f800000, 0x7e800000, 0x00800000}, // 1 / 2^126 = 2^-126, exactly normal
    {0x00800000, 0x40000000, 0x00000000}, // 2^-126 / 2 flushes
    {0x3f800000, 0x7f7fffff, 0x00000000}, // 1 / max is denormal: flushed
    {0x3fffffff, 0x7f000000, 0x00800000}, // 2^-126 - 2^-150: the tie rounds up to 2^-126, kept
    {0xbfffffff, 0x7f000000, 0x80800000}, // the same, negative
    {0x3ffffffe, 0x7f000000, 0x00000000}, // 2^-126 - 2^-149 is exactly a denormal: flushed
    {0x3fffffff, 0x7f000001, 0x00000000}, // just below the tie rounds to a denormal: flushed
};

/// sqrt(a) (the middle column is unused).
const Cases kSqrtCases = {
    {0x3f800000, 0, 0x3f800000}, // sqrt(1) = 1
    {0x40800000, 0, 0x40000000}, // sqrt(4) = 2
    {0x41100000, 0, 0x40400000}, // sqrt(9) = 3
    {0x3e800000, 0, 0x3f000000}, // sqrt(0.25) = 0.5
    {0x40000000, 0, 0x3fb504f3}, // sqrt(2)
    {0x3f7fffff, 0, 0x3f7fffff}, // sqrt(1 - u/2) = 1 - u/4 - ...: just below a tie, rounds down
    {0x3f800001, 0, 0x3f800000}, // sqrt(1 + u) = 1 + u/2 - ...: just below a tie, rounds down
    {0x407fffff, 0, 0x3fffffff}, // the largest radicand significand, 4 - 2^-21: no carry to 2
    {0x7f7fffff, 0, 0x5f7fffff}, // sqrt(max)
    {0x00800000, 0, 0x20000000}, // sqrt(2^-126) = 2^-63
    {0x01000000, 0, 0x203504f3}, // sqrt(2^-125), odd exponent
    {0x00000000, 0, 0x00000000}, // sqrt(+0) = +0
    {0x80000000, 0, 0x80000000}, // sqrt(-0) = -0
    {0x00000001, 0, 0x00000000}, // denormal reads as +0
    {0x80000001, 0, 0x80000000}, // negative denormal reads as -0
    {0x7f800000, 0, 0x7f800000}, // sqrt(+inf) = +inf
    {0xbf800000, 0, kQuietNaN},  // sqrt(-1)
    {0x80800000, 0, kQuietNaN},  // sqrt(-2^-126)
    {0xff800000, 0, kQuietNaN},  // sqrt(-inf)
    {0x7fc00000, 0, kQuietNaN},  // quiet NaN
    {0x7f800001, 0, kQuietNaN},  // signalling NaN
    {0xffc00123, 0, kQuietNaN},  // negative NaN with payload
};

Ops casesOps(const Cases &cases) {
  Ops ops;
  for (auto &c : cases)
    ops.emplace_back(c[0], c[1]);
  return ops;
}
std::vector<uint32_t> casesExpected(const Cases &cases) {
  std::vector<uint32_t> out;
  for (auto &c : cases)
    out.push_back(c[2]);
  return out;
}

/// Finds significands A, B in [2^23, 2^24) with lo <= A*B < hi (products of 24-bit integers).
std::pair<uint64_t, uint64_t> productIn(uint64_t lo, uint64_t hi) {
  for (uint64_t A = (1u << 23) + 1; A < (1u << 24); ++A) {
    const uint64_t B = (lo + A - 1) / A;
    if (B >= (1u << 23) && B < (1u << 24) && A * B < hi)
      return {A, B};
  }
  return {0, 0};
}

/// Products around the underflow threshold, built from a = A*2^-86 and b = B*2^-87 so that
/// a*b = A*B*2^-173, i.e. 2^-126 * A*B/2^47. Between 2^-126 - 2^-150 and 2^-126 - 2^-151 IEEE
/// rounds (at denormal precision, ties to even) up to 2^-126 although 24-bit rounding alone would
/// stay below it: the unit must return 2^-126 there, and zero just below.
Ops underflowBoundaryOps() {
  Ops ops;
  const uint64_t top = 1ull << 47;
  for (auto range : {std::make_pair(top - (1u << 23), top - (1u << 22)),   // IEEE: 2^-126
                     std::make_pair(top - (1u << 24), top - (1u << 23)),   // IEEE: 2^-126 - 2^-149
                     std::make_pair(top - (1u << 22), top)}) {              // 24-bit rounding: 2^-126
    const auto ab = productIn(range.first, range.second);
    const uint32_t a = 0x20000000u + static_cast<uint32_t>(ab.first - (1u << 23));
    const uint32_t b = 0x1f800000u + static_cast<uint32_t>(ab.second - (1u << 23));
    ops.emplace_back(a, b);
    ops.emplace_back(a | 0x80000000u, b);
  }
  return ops;
}

/// a*b in [2 - 2^-24, 2): the rounding carries into the exponent (result exactly 2.0).
std::pair<uint32_t, uint32_t> roundingCarryOp() {
  const uint64_t top = 1ull << 47;
  const auto ab = productIn(top - (1u << 22), top);
  return {0x3f800000u + static_cast<uint32_t>(ab.first - (1u << 23)),
          0x3f800000u + static_cast<uint32_t>(ab.second - (1u << 23))};
}

/// The hand-picked cases at full rate and under back-pressure, then the random sets: the first at
/// full rate, the others with gaps in the input and the output held at random.
template <class M>
void suite(int latency, const Cases &cases, RefFn ref, const std::vector<Ops> &random) {
  REQUIRE(std::fegetround() == FE_TONEAREST);
  const Ops ops = casesOps(cases);
  CHECK(stream<M>(ops, casesExpected(cases), latency, 1.0, 1.0, 1) == 0);
  CHECK(stream<M>(ops, expectAll(ops, ref), latency, 0.5, 0.5, 2) == 0);
  for (size_t i = 0; i < random.size(); ++i) {
    const double p = i == 0 ? 1.0 : 0.8, q = i == 0 ? 1.0 : 0.6;
    CHECK(stream<M>(random[i], expectAll(random[i], ref), latency, p, q, static_cast<uint32_t>(3 + i)) == 0);
  }
}

template <class M> void addSuite(int latency, size_t randomCount) {
  suite<M>(latency, kAddCases, refAdd, {normalAddOps(randomCount, 100 + latency), anyBitsOps(20000, 200 + latency)});
}

template <class M> void mulSuite(int latency, size_t randomCount) {
  suite<M>(latency, kMulCases, refMul, {normalMulOps(randomCount, 300 + latency), anyBitsOps(20000, 400 + latency)});
}

template <class M> void divSuite(int latency, size_t randomCount) {
  suite<M>(latency, kDivCases, refDiv,
           {normalDivOps(randomCount, 500 + latency), anyBitsOps(20000, 600 + latency),
            nearOneOps(20000, 700 + latency), divRangeEdgeOps(20000, 800 + latency)});
}

template <class M> void sqrtSuite(int latency, size_t randomCount) {
  suite<M>(latency, kSqrtCases, refSqrt,
           {normalSqrtOps(randomCount, 900 + latency), anyBitsOps(20000, 1000 + latency),
            nearOneOps(20000, 1100 + latency), squareOps(20000, 1200 + latency)});
}

} // namespace

TEST_CASE("the float references agree with the hand-picked expectations", "[rtl][float]") {
  // Guards the references themselves: if they drifted, the random comparisons would be meaningless.
  for (auto &c : kAddCases)
    CHECK(hex(refAdd(c[0], c[1])) == hex(c[2]));
  for (auto &c : kMulCases)
    CHECK(hex(refMul(c[0], c[1])) == hex(c[2]));
  for (auto &c : kDivCases)
    CHECK(hex(refDiv(c[0], c[1])) == hex(c[2]));
  for (auto &c : kSqrtCases)
    CHECK(hex(refSqrt(c[0], c[1])) == hex(c[2]));
}

TEST_CASE("loom_fmul flushes exactly where IEEE gradual underflow gives a denormal", "[rtl][float][fmul]") {
  const Ops ops = underflowBoundaryOps();
  const std::vector<uint32_t> expected = {0x00800000u, 0x80800000u, 0x00000000u,
                                          0x80000000u, 0x00800000u, 0x80800000u};
  REQUIRE(ops.size() == expected.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    INFO("op " << i << ": " << hex(ops[i].first) << " * " << hex(ops[i].second));
    CHECK(hex(refMul(ops[i].first, ops[i].second)) == hex(expected[i]));
  }
  // The first pair really is below 2^-126 and the second really is a denormal in IEEE.
  CHECK(static_cast<double>(toFloat(ops[0].first)) * toFloat(ops[0].second) < 0x1p-126);
  CHECK(hex(toBits(toFloat(ops[2].first) * toFloat(ops[2].second))) == "007fffff");
  for (int latency : {1, 2}) {
    if (latency == 1)
      CHECK(stream<Vfmul1>(ops, expected, 1, 1.0, 1.0, 9) == 0);
    else
      CHECK(stream<Vfmul2>(ops, expected, 2, 1.0, 1.0, 9) == 0);
  }
}

TEST_CASE("loom_fmul rounding carries into the exponent", "[rtl][float][fmul]") {
  const auto op = roundingCarryOp();
  REQUIRE(op.first != 0x3f800000u);
  CHECK(static_cast<double>(toFloat(op.first)) * toFloat(op.second) < 2.0);
  CHECK(refMul(op.first, op.second) == 0x40000000u);
  CHECK(stream<Vfmul2>({op}, {0x40000000u}, 2, 1.0, 1.0, 10) == 0);
}

// 200,000 random normal pairs at the default latency, fewer at the others.
TEST_CASE("loom_fadd LATENCY=1 is bit-exact", "[rtl][float][fadd]") { addSuite<Vfadd1>(1, 50000); }
TEST_CASE("loom_fadd LATENCY=2 is bit-exact", "[rtl][float][fadd]") { addSuite<Vfadd2>(2, 50000); }
TEST_CASE("loom_fadd LATENCY=3 is bit-exact", "[rtl][float][fadd]") { addSuite<Vfadd3>(3, 200000); }
TEST_CASE("loom_fadd LATENCY=5 is bit-exact", "[rtl][float][fadd]") { addSuite<Vfadd5>(5, 50000); }
TEST_CASE("loom_fadd LATENCY=8 is bit-exact", "[rtl][float][fadd]") { addSuite<Vfadd8>(8, 50000); }
TEST_CASE("loom_fmul LATENCY=1 is bit-exact", "[rtl][float][fmul]") { mulSuite<Vfmul1>(1, 50000); }
TEST_CASE("loom_fmul LATENCY=2 is bit-exact", "[rtl][float][fmul]") { mulSuite<Vfmul2>(2, 200000); }
TEST_CASE("loom_fmul LATENCY=3 is bit-exact", "[rtl][float][fmul]") { mulSuite<Vfmul3>(3, 50000); }
TEST_CASE("loom_fmul LATENCY=5 is bit-exact", "[rtl][float][fmul]") { mulSuite<Vfmul5>(5, 50000); }
TEST_CASE("loom_fmul LATENCY=8 is bit-exact", "[rtl][float][fmul]") { mulSuite<Vfmul8>(8, 50000); }

TEST_CASE("loom_fdiv flushes exactly where IEEE gradual underflow gives a denormal", "[rtl][float][fdiv]") {
  // A quotient of 24-bit significands is never within 2^-24 (relative) below a power of two unless
  // it is (2 - 2^-23) / 1: so 0x3fffffff / 2^127 = 2^-126 - 2^-150, exactly halfway between the
  // largest denormal and 2^-126, is the one quotient that rounds up to 2^-126 at denormal precision.
  const Ops ops = {{0x3fffffffu, 0x7f000000u}, {0x3ffffffeu, 0x7f000000u}, {0x3fffffffu, 0x7f000001u},
                   {0x3f800000u, 0x7e800000u}};
  const std::vector<uint32_t> expected = {0x00800000u, 0x00000000u, 0x00000000u, 0x00800000u};
  // The quotients are exact in double here (or, for the third, just below the tie).
  CHECK(static_cast<double>(toFloat(ops[0].first)) / toFloat(ops[0].second) == 0x1p-126 - 0x1p-150);
  CHECK(static_cast<double>(toFloat(ops[1].first)) / toFloat(ops[1].second) == 0x1p-126 - 0x1p-149);
  CHECK(static_cast<double>(toFloat(ops[2].first)) / toFloat(ops[2].second) < 0x1p-126 - 0x1p-150);
  CHECK(hex(toBits(toFloat(ops[1].first) / toFloat(ops[1].second))) == "007fffff");
  for (size_t i = 0; i < ops.size(); ++i)
    CHECK(hex(refDiv(ops[i].first, ops[i].second)) == hex(expected[i]));
  CHECK(stream<Vfdiv1>(ops, expected, 1, 1.0, 1.0, 11) == 0);
  CHECK(stream<Vfdiv13>(ops, expected, 13, 1.0, 1.0, 11) == 0);
}

// 400,000 random normal operands at the default latency, 50,000 at the others, plus 20,000 each of
// arbitrary bits, operands near 1.0 and range edges (fdiv) or near-squares (fsqrt) at every latency:
// 790,000 random cases per unit.
TEST_CASE("loom_fdiv LATENCY=1 is bit-exact", "[rtl][float][fdiv]") { divSuite<Vfdiv1>(1, 50000); }
TEST_CASE("loom_fdiv LATENCY=7 is bit-exact", "[rtl][float][fdiv]") { divSuite<Vfdiv7>(7, 50000); }
TEST_CASE("loom_fdiv LATENCY=13 is bit-exact", "[rtl][float][fdiv]") { divSuite<Vfdiv13>(13, 400000); }
TEST_CASE("loom_fdiv LATENCY=29 is bit-exact", "[rtl][float][fdiv]") { divSuite<Vfdiv29>(29, 50000); }
TEST_CASE("loom_fsqrt LATENCY=1 is bit-exact", "[rtl][float][fsqrt]") { sqrtSuite<Vfsqrt1>(1, 50000); }
TEST_CASE("loom_fsqrt LATENCY=7 is bit-exact", "[rtl][float][fsqrt]") { sqrtSuite<Vfsqrt7>(7, 50000); }
TEST_CASE("loom_fsqrt LATENCY=13 is bit-exact", "[rtl][float][fsqrt]") { sqrtSuite<Vfsqrt13>(13, 400000); }
TEST_CASE("loom_fsqrt LATENCY=28 is bit-exact", "[rtl][float][fsqrt]") { sqrtSuite<Vfsqrt28>(28, 50000); }
