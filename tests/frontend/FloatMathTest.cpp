// SPDX-License-Identifier: Apache-2.0
// The board's float-arithmetic math library (frontend/builtins/math/), compiled for the host and run
// with denormals flushed as the board's units flush them (tests/FloatMath.h): every function within
// the spec's bound over sampled inputs and the awkward ones, signs of zero kept, fma rounded once,
// and the functions with a second result (frexp, remquo, lgamma_r) against the C library. The
// exhaustive sweep is the benchmark bench_float_math_ulp; the board itself runs the same source in
// the e2e math test.
#include "FloatMath.h"

#include <catch2/catch.hpp>

#include <climits>
#include <random>
#include <sstream>

using namespace loom::test::floatmath;

namespace {

constexpr size_t SpecialCount = sizeof SpecialValues / sizeof SpecialValues[0];

float fromBits(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// Every 2^14-th bit pattern (from an odd start, so not only round numbers), then the specials.
std::vector<float> sampledFloats() {
  std::vector<float> inputs(SpecialValues, SpecialValues + SpecialCount);
  for (uint64_t bits = 0x1235; bits < (uint64_t(1) << 32); bits += 1 << 14)
    inputs.push_back(fromBits(uint32_t(bits)));
  return inputs;
}

/// The specials crossed, then random pairs, half of them of similar magnitude.
std::vector<std::pair<float, float>> sampledPairs() {
  std::vector<std::pair<float, float>> pairs;
  for (float x : SpecialValues)
    for (float y : SpecialValues)
      pairs.emplace_back(x, y);
  std::mt19937 random(11);
  for (int i = 0; i < (1 << 17); ++i) {
    const float x = fromBits(random());
    pairs.emplace_back(x, i % 2 ? fromBits(random()) : x * std::ldexp(1.0f, int(random() % 16) - 8));
  }
  return pairs;
}

std::string describe(const char *name, double error, float x, float y = 0) {
  std::ostringstream out;
  out << name << " off by " << error << " ulp at " << std::hexfloat << x << ", " << y;
  return out.str();
}

} // namespace

TEST_CASE("every single-argument function is within its bound, flushing as the board", "[floatmath]") {
  const std::vector<float> inputs = sampledFloats();
  for (const Unary &f : UnaryFunctions) {
    INFO(f.name);
    double worst = 0;
    float at = 0;
    for (float x : inputs) {
      const double error = unaryError(f, x, onBoard(f.board, x));
      if (!(error <= worst))
        worst = error, at = x;
    }
    CHECK_FALSE((worst > f.bound || std::isnan(worst)));
    if (worst > f.bound)
      WARN(describe(f.name, worst, at));
  }
}

TEST_CASE("every two-operand function is within its bound, flushing as the board", "[floatmath]") {
  const auto pairs = sampledPairs();
  for (const Binary &f : BinaryFunctions) {
    INFO(f.name);
    for (const auto &[x, y] : pairs) {
      const double error = binaryError(f, x, y, onBoard(f.board, x, y));
      if (error > f.bound || std::isnan(error))
        FAIL(describe(f.name, error, x, y));
    }
  }
  std::mt19937 random(12);
  for (const IntOperand &f : IntOperandFunctions) {
    INFO(f.name);
    for (const auto &[x, unused] : pairs) {
      for (int n : {0, 1, -1, 2, -2, 3, -3, 7, 24, -25, 128, -150, 255, 1 << 24, (1 << 24) + 1, 0x7fffffff,
                    int(random() % 1024) - 512}) {
        const double error = intOperandError(f, x, n, onBoard(f.board, x, n));
        if (error > f.bound || std::isnan(error))
          FAIL(describe(f.name, error, x, float(n)));
      }
    }
  }
}

TEST_CASE("odd functions keep the sign of a zero, as C99's Annex F asks", "[floatmath]") {
  for (const char *name : {"asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt", "ceil", "erf", "expm1",
                           "floor", "log1p", "rint", "round", "sin", "sinh", "sinpi", "tan", "tanh", "tanpi",
                           "trunc"}) {
    INFO(name);
    const Unary *f = nullptr;
    for (const Unary &candidate : UnaryFunctions)
      if (std::string(candidate.name) == name)
        f = &candidate;
    REQUIRE(f != nullptr);
    for (float zero : {0.0f, -0.0f}) {
      const float result = onBoard(f->board, zero);
      CHECK(result == 0.0f);
      CHECK(std::signbit(result) == std::signbit(zero));
    }
  }
}

TEST_CASE("fma rounds once: the host's fused multiply-add, bit for bit", "[floatmath]") {
  FlushDenormals flush; // the host's FMA instruction then flushes as the board does
  std::mt19937 random(13);
  auto check = [](float a, float b, float c) {
    const float got = loom_fma(a, b, c), want = std::fma(a, b, c);
    // At the flush threshold the board may keep 2^-126 where the host flushes, or the reverse.
    const bool atThreshold = std::fabs(want) <= FLT_MIN && std::fabs(got) <= FLT_MIN;
    if (!(std::memcmp(&got, &want, sizeof got) == 0 || (std::isnan(got) && std::isnan(want)) || atThreshold)) {
      std::ostringstream out;
      out << std::hexfloat << "fma(" << a << ", " << b << ", " << c << ") = " << got << ", not " << want;
      FAIL(out.str());
    }
  };
  for (float a : SpecialValues)
    for (float b : SpecialValues)
      for (float c : {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, FLT_MAX, FLT_MIN, 0x1p-100f})
        check(a, b, c);
  for (int i = 0; i < (1 << 20); ++i) {
    const float a = fromBits(random()), b = fromBits(random());
    // A third of the addends cancel the product but for its rounding error, a third are unrelated,
    // a third of nearby magnitude.
    const float c = i % 3 == 0 ? -(a * b) : i % 3 == 1 ? fromBits(random()) : a * b * std::ldexp(1.0f, int(random() % 50) - 25);
    check(a, b, c);
  }
}

TEST_CASE("frexp, ilogb, remquo and lgamma_r's second results match the C library", "[floatmath]") {
  for (float x : sampledFloats()) {
    if (isDenormal(x))
      continue; // a denormal reads as zero on the board
    int e = 0, want = 0;
    const float m = onBoard(loom_frexp_c, x, &e);
    const float wantM = std::frexp(x, &want);
    INFO(std::hexfloat << x);
    CHECK((m == wantM || (std::isnan(m) && std::isnan(wantM))));
    CHECK(e == want);
    CHECK(onBoard(loom_ilogb, x) == (std::isnan(x) ? INT_MAX : std::ilogb(x)));
    if (x > -40 && x < 40 && x != std::trunc(x)) { // lgamma_r's sign, away from the poles
      int sign = 0, wantSign = 0;
      onBoard(loom_lgamma_r_c, x, &sign);
      lgammaf_r(x, &wantSign);
      CHECK(sign == wantSign);
    }
  }
  for (const auto &[x, y] : sampledPairs()) {
    if (isDenormal(x) || isDenormal(y))
      continue;
    int quotient = 0, want = 0;
    const float r = onBoard(loom_remquo_c, x, y, &quotient), wantR = std::remquo(x, y, &want);
    INFO(std::hexfloat << x << ", " << y);
    // A denormal remainder flushes on the board.
    CHECK((std::memcmp(&r, &wantR, sizeof r) == 0 || (std::isnan(r) && std::isnan(wantR)) ||
           (isDenormal(wantR) && r == 0)));
    if ((std::abs(want) & 7) != 0) { // the C library gives at least the 3 low bits, and the sign then
      CHECK((quotient < 0) == (want < 0));
      CHECK((std::abs(quotient) & 7) == (std::abs(want) & 7));
    } else {
      CHECK((std::abs(quotient) & 7) == 0);
    }
  }
}
