// SPDX-License-Identifier: Apache-2.0
// Benchmark: the precision of the board's math library (frontend/builtins/math/, the float
// arithmetic the hardware flow synthesises), compiled for the host and run with denormals flushed as
// the board's units flush them (tests/FloatMath.h): single-argument functions over every float (or
// every `step`-th bit pattern), two-operand ones over the awkward values crossed and 2^32 / step / 16
// random pairs, with the largest error in ULPs, where it occurs, and the spec's bound.
// usage: bench_float_math_ulp [step] [function...]
#include "FloatMath.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace loom::test::floatmath;

namespace {

struct Worst {
  double ulps = 0;
  float x = 0, y = 0;
  int n = 0;
  void take(double error, float ex, float ey, int en) {
    if (error > ulps || std::isnan(error)) {
      ulps = std::isnan(error) ? INFINITY : error;
      x = ex, y = ey, n = en;
    }
  }
};

/// `scan(begin, end, worst)` over [0, count) on two threads.
template <typename Scan> Worst inParallel(uint64_t count, Scan scan) {
  Worst halves[2];
  std::thread other(scan, count / 2, count, std::ref(halves[1]));
  scan(0, count / 2, halves[0]);
  other.join();
  return halves[1].ulps > halves[0].ulps ? halves[1] : halves[0];
}

float randomFloat(std::mt19937 &random) {
  const uint32_t bits = random();
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// Integer operands: the small and extreme ones, then random.
int intOperand(uint64_t i, std::mt19937 &random) {
  static const int Specials[] = {0, 1, -1, 2, -2, 3, -3, 4, 5, 7, 8, 16, 24, 25, 31, -31, 127, 128, -126, -149,
                                 255, -255, 1 << 24, (1 << 24) + 1, 0x7fffffff, int(0x80000000u)};
  constexpr size_t count = sizeof Specials / sizeof Specials[0];
  return i % 4 ? Specials[i % count] : int(random() % 512) - 256;
}

void report(const char *name, const Worst &worst, double bound, unsigned &failed) {
  const bool within = worst.ulps <= bound;
  failed += !within;
  std::printf("ulp %-9s max %9.3f ULP at (%a, %a, %d)  bound %4g  %s\n", name, worst.ulps, double(worst.x),
              double(worst.y), worst.n, bound, within ? "ok" : "OVER");
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  const uint64_t step = argc > 1 ? std::max<uint64_t>(1, std::strtoull(argv[1], nullptr, 10)) : 1;
  std::vector<std::string> only(argv + std::min(argc, 2), argv + argc);
  auto wanted = [&](const char *name) { return only.empty() || std::find(only.begin(), only.end(), name) != only.end(); };
  const uint64_t patterns = (uint64_t(1) << 32) / step, pairs = std::max<uint64_t>(patterns / 16, 1 << 16);
  constexpr size_t specials = sizeof SpecialValues / sizeof SpecialValues[0];
  std::printf("the board's math library on the host, denormals flushed: %llu inputs per function, %llu pairs\n",
              (unsigned long long)patterns, (unsigned long long)pairs);
  unsigned failed = 0;
  for (const Unary &f : UnaryFunctions) {
    if (!wanted(f.name))
      continue;
    report(f.name, inParallel(patterns, [&](uint64_t begin, uint64_t end, Worst &worst) {
             for (uint64_t i = begin; i < end; ++i) {
               const uint32_t bits = uint32_t(i * step);
               float x;
               std::memcpy(&x, &bits, sizeof x);
               worst.take(unaryError(f, x, onBoard(f.board, x)), x, 0, 0);
             }
           }),
           f.bound, failed);
  }
  for (const Binary &f : BinaryFunctions) {
    if (!wanted(f.name))
      continue;
    report(f.name, inParallel(pairs, [&](uint64_t begin, uint64_t end, Worst &worst) {
             std::mt19937 random(uint32_t(begin + 1));
             for (uint64_t i = begin; i < end; ++i) {
               const bool special = i < specials * specials;
               const float x = special ? SpecialValues[i / specials] : randomFloat(random);
               // Half the random pairs have operands of similar magnitude, where most functions turn.
               const float y = special ? SpecialValues[i % specials]
                               : i % 2 ? x * float(std::ldexp(1.0, int(random() % 16) - 8)) * ((random() & 1) ? 1.f : -1.f)
                                       : randomFloat(random);
               worst.take(binaryError(f, x, y, onBoard(f.board, x, y)), x, y, 0);
             }
           }),
           f.bound, failed);
  }
  for (const IntOperand &f : IntOperandFunctions) {
    if (!wanted(f.name))
      continue;
    report(f.name, inParallel(pairs, [&](uint64_t begin, uint64_t end, Worst &worst) {
             std::mt19937 random(uint32_t(begin + 1));
             for (uint64_t i = begin; i < end; ++i) {
               const float x = i < specials ? SpecialValues[i] : randomFloat(random);
               const int n = intOperand(i, random);
               worst.take(intOperandError(f, x, n, onBoard(f.board, x, n)), x, 0, n);
             }
           }),
           f.bound, failed);
  }
  std::printf("ulp functions over their bound: %u\n", failed);
  return failed ? 1 : 0;
}
