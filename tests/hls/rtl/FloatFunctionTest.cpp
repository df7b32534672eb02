// SPDX-License-Identifier: Apache-2.0
// Verilated tests of the combinational float functions (loom_fcmp, loom_itof, loom_ftoi) through the
// float_functions wrapper: bit-exact against the host's IEEE comparisons and C conversions (round to
// nearest even into float, toward zero out of it), on special values and random bit patterns.
#include "RtlTestSupport.h"
#include "Vfloat_functions.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using loomrtl::toBits;
using loomrtl::toFloat;

namespace {


/// A Verilated model of the wrapper and its context.
struct Model {
  VerilatedContext context;
  Vfloat_functions top{&context};
  void eval(uint32_t a, uint32_t b, uint64_t integer) {
    top.a = a;
    top.b = b;
    top.integer_in = integer;
    top.eval();
  }
};

/// LLVM's fcmp predicate `p` on the host: bit 0 equal, bit 1 greater, bit 2 less, bit 3 unordered.
bool hostCompare(unsigned p, float a, float b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  return (unordered && (p & 8)) || (!unordered && a < b && (p & 4)) || (!unordered && a > b && (p & 2)) ||
         (!unordered && a == b && (p & 1));
}

std::vector<uint32_t> specialFloats() {
  return {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x3f800000u,
          0xbf800000u, 0x3f000000u, 0xbf000000u, 0x3fffffffu, 0x4b000000u, 0x4b7fffffu, 0x4effffffu,
          0x4f000000u, 0xcf000000u, 0xcf000001u, 0x4f800000u, 0x5effffffu, 0x5f000000u, 0xdf000000u,
          0x5f800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
          0x7f800001u, 0x3effffffu, 0x3f7fffffu, 0xbf7fffffu};
}

} // namespace

TEST_CASE("loom_fcmp agrees with IEEE comparisons for every predicate") {
  Model model;
  std::vector<uint32_t> values = specialFloats();
  std::mt19937 random(7);
  for (int i = 0; i < 400; ++i)
    values.push_back(uint32_t(random()));
  for (uint32_t a : values)
    for (uint32_t b : values) {
      model.eval(a, b, 0);
      for (unsigned p = 0; p < 16; ++p) {
        INFO("a=" << std::hex << a << " b=" << b << " predicate " << std::dec << p);
        REQUIRE(bool((model.top.compare >> p) & 1) == hostCompare(p, toFloat(a), toFloat(b)));
      }
    }
}

TEST_CASE("loom_itof rounds 32- and 64-bit integers to nearest even") {
  Model model;
  std::vector<uint64_t> values = {0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0x00ffffff, 0x01000001,
                                  0x01000003, 0x7fffffbf, 0x7fffffc0, 0xfffffff0ull << 32,
                                  0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
                                  0x0020000000000001ull, 0x0020000020000000ull, 0x0020000060000000ull};
  std::mt19937_64 random(8);
  for (int i = 0; i < 20000; ++i) {
    uint64_t v = random();
    values.push_back(v >> (random() % 64)); // all magnitudes
  }
  for (uint64_t v : values) {
    INFO("integer " << std::hex << v);
    model.eval(0, 0, v);
    REQUIRE(model.top.from_s32 == toBits(float(int32_t(uint32_t(v)))));
    REQUIRE(model.top.from_u32 == toBits(float(uint32_t(v))));
    REQUIRE(model.top.from_s64 == toBits(float(int64_t(v))));
    REQUIRE(model.top.from_u64 == toBits(float(v)));
  }
}

TEST_CASE("loom_ftoi truncates toward zero in range; NaN and out of range are defined") {
  Model model;
  std::vector<uint32_t> values = specialFloats();
  std::mt19937 random(9);
  for (int i = 0; i < 20000; ++i)
    values.push_back(uint32_t(random()));
  for (uint32_t bits : values) {
    const float f = toFloat(bits);
    INFO("float " << std::hex << bits << " (" << f << ")");
    model.eval(bits, 0, 0);
    const bool nan = std::isnan(f);
    if (!nan && f > -2147483649.0f && f < 2147483648.0f)
      REQUIRE(int32_t(model.top.to_s32) == int32_t(f));
    else
      REQUIRE(model.top.to_s32 == 0x80000000u);
    if (!nan && f > -1.0f && f < 4294967296.0f)
      REQUIRE(model.top.to_u32 == uint32_t(f));
    else
      REQUIRE(model.top.to_u32 == 0u);
    if (!nan && f >= -9223372036854775808.0f && f < 9223372036854775808.0f)
      REQUIRE(int64_t(model.top.to_s64) == int64_t(f));
    else
      REQUIRE(model.top.to_s64 == 0x8000000000000000ull);
    if (!nan && f > -1.0f && f < 18446744073709551616.0f)
      REQUIRE(model.top.to_u64 == uint64_t(f));
    else
      REQUIRE(model.top.to_u64 == 0u);
  }
}
