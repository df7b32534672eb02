// SPDX-License-Identifier: Apache-2.0
// Verilated tests of loom_idiv (through idiv_units.v: udiv, urem, sdiv and srem at once): bit-exact
// against the host's C++ operators at 8 (every operand pair), 16, 32 and 64 bits and at latencies
// that merge steps, give one step a stage and add delay registers, with the unit's defined results
// for x / 0 and INT_MIN / -1; full rate (one result per cycle) and random back-pressure.

#include "RtlTestSupport.h"

#include "Vidiv16_20.h"
#include "Vidiv16_5.h"
#include "Vidiv32_1.h"
#include "Vidiv32_34.h"
#include "Vidiv64_3.h"
#include "Vidiv64_34.h"
#include "Vidiv8_1.h"
#include "Vidiv8_10.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

using loomrtl::Rng;

namespace {

using Ops = std::vector<std::pair<uint64_t, uint64_t>>;
/// udiv, urem, sdiv, srem of one operand pair, WIDTH bits each.
using Results = std::array<uint64_t, 4>;

uint64_t mask(unsigned width) { return width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }
int64_t signExtend(uint64_t v, unsigned width) {
  return width == 64 ? int64_t(v) : int64_t(v << (64 - width)) >> (64 - width);
}

/// The host's operators on WIDTH-bit operands; x / 0 gives all ones and x % 0 gives x, and
/// INT_MIN / -1 gives INT_MIN and INT_MIN % -1 gives 0 (undefined in C, defined by the unit).
Results reference(uint64_t a, uint64_t b, unsigned width) {
  const uint64_t m = mask(width);
  a &= m;
  b &= m;
  if (b == 0)
    return {m, a, m, a};
  const int64_t sa = signExtend(a, width), sb = signExtend(b, width);
  const uint64_t intMin = uint64_t(1) << (width - 1);
  if (a == intMin && sb == -1)
    return {a / b, a % b, intMin, 0};
  return {a / b, a % b, uint64_t(sa / sb) & m, uint64_t(sa % sb) & m};
}

/// Streams `ops` through the four units (loomrtl::streamLockstep checks the timing contract, and
/// here that the four pipelines agree) and compares every result with the reference. Returns the
/// number of mismatching operand pairs (the first few are reported).
template <class M>
int stream(const Ops &ops, unsigned width, int latency, double pValid, double pReady, uint32_t seed) {
  int reported = 0;
  return loomrtl::streamLockstep<M>(
      ops.size(), latency, pValid, pReady, seed,
      [&](M &m, size_t i, Rng &rng) {
        m.a = (i < ops.size() ? ops[i].first : rng.u64()) & mask(width);
        m.b = (i < ops.size() ? ops[i].second : rng.u64()) & mask(width);
      },
      [](M &m) { return m.agree != 0; },
      [&](M &m, size_t i) {
        const Results got{uint64_t(m.udiv), uint64_t(m.urem), uint64_t(m.sdiv), uint64_t(m.srem)};
        const Results want = reference(ops[i].first, ops[i].second, width);
        if (got == want)
          return true;
        if (++reported <= 8)
          FAIL_CHECK(width << "-bit " << std::hex << ops[i].first << ", " << ops[i].second << ": udiv " << got[0]
                           << " urem " << got[1] << " sdiv " << got[2] << " srem " << got[3] << ", expected "
                           << want[0] << " " << want[1] << " " << want[2] << " " << want[3]);
        return false;
      });
}

/// Every pair of 8-bit operands.
Ops allPairs8() {
  Ops ops;
  for (uint64_t a = 0; a < 256; ++a)
    for (uint64_t b = 0; b < 256; ++b)
      ops.emplace_back(a, b);
  return ops;
}

/// Every pair of corner values (0, 1, 2, -1, -2, INT_MIN, INT_MIN + 1, INT_MAX, small and large
/// neighbours), then random pairs whose magnitudes spread over every bit length, so that quotients
/// of every length (and divisors above the dividend) come up.
Ops cornerAndRandom(unsigned width, size_t count, uint32_t seed) {
  const uint64_t m = mask(width), intMin = uint64_t(1) << (width - 1);
  const std::vector<uint64_t> corners{0, 1, 2, 3, 7, m, m - 1, m - 6, intMin, intMin + 1, intMin - 1, intMin - 2,
                                      m / 3, intMin / 3};
  Ops ops;
  for (uint64_t a : corners)
    for (uint64_t b : corners)
      ops.emplace_back(a & m, b & m);
  Rng rng(seed);
  while (ops.size() < count) {
    const uint64_t a = rng.u64() >> rng.range(0, 63), b = rng.u64() >> rng.range(0, 63);
    ops.emplace_back((rng.coin(0.3) ? ~a : a) & m, (rng.coin(0.3) ? ~b : b) & m);
  }
  return ops;
}

/// Full rate, then random valid and ready.
template <class M> void checkUnit(const Ops &ops, unsigned width, int latency, uint32_t seed) {
  CHECK(stream<M>(ops, width, latency, 1.0, 1.0, seed) == 0);
  CHECK(stream<M>(ops, width, latency, 0.7, 0.6, seed + 1) == 0);
}

} // namespace

TEST_CASE("loom_idiv: every 8-bit operand pair, all steps in one stage and delay registers", "[idiv]") {
  const Ops ops = allPairs8();
  checkUnit<Vidiv8_1>(ops, 8, 1, 11);
  checkUnit<Vidiv8_10>(ops, 8, 10, 12);
}

TEST_CASE("loom_idiv: 16-bit corners and random pairs, merged steps and delay registers", "[idiv]") {
  const Ops ops = cornerAndRandom(16, 20000, 21);
  checkUnit<Vidiv16_5>(ops, 16, 5, 22);
  checkUnit<Vidiv16_20>(ops, 16, 20, 23);
}

TEST_CASE("loom_idiv: 32-bit corners and random pairs, combinational and the default board's latency", "[idiv]") {
  const Ops ops = cornerAndRandom(32, 20000, 31);
  checkUnit<Vidiv32_1>(ops, 32, 1, 32);
  checkUnit<Vidiv32_34>(ops, 32, 34, 33);
}

TEST_CASE("loom_idiv: 64-bit corners and random pairs, many steps a stage and the default latency", "[idiv]") {
  const Ops ops = cornerAndRandom(64, 20000, 41);
  checkUnit<Vidiv64_3>(ops, 64, 3, 42);
  checkUnit<Vidiv64_34>(ops, 64, 34, 43);
}

TEST_CASE("loom_idiv: the reference gives the unit's defined results", "[idiv]") {
  // x / 0 is all ones, x % 0 is x; INT_MIN / -1 is INT_MIN, INT_MIN % -1 is 0.
  CHECK(reference(0x85, 0, 8) == Results{0xff, 0x85, 0xff, 0x85});
  CHECK(reference(0x80, 0xff, 8) == Results{0, 0x80, 0x80, 0});
  CHECK(reference(uint64_t(-7), 2, 64) == Results{uint64_t(-7) / 2, 1, uint64_t(-3), uint64_t(-1)});
}
