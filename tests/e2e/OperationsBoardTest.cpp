// SPDX-License-Identifier: Apache-2.0
// Operations on the board: float division and square root (correctly rounded), the common builtins
// of the builtin library, switch statements (lowered to branches), integer division at every width,
// a struct argument passed by value, __constant pointer arguments read at indices the data chooses,
// compiled by loomc at build time (with -cl-fp32-correctly-rounded-divide-sqrt, which both devices
// take: CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) and compared with the CPU device and a host reference.
#include "DifferentialSupport.h"

#include <algorithm>
#include <cfenv>
#include <climits>
#include <limits>
#include <cmath>
#include <cstring>
#include <random>

using namespace e2e;

namespace {

const Sources Operations{LOOM_E2E_OPERATIONS_LOOM, LOOM_E2E_OPERATIONS_CL, LOOM_E2E_OPERATIONS_OPTIONS};

/// Index of the first element whose bits differ (any NaN matches any NaN: the board's NaN is the
/// canonical one, the CPU's keeps x86's sign), or -1.
long firstFloatMismatch(const std::vector<float> &got, const std::vector<float> &want) {
  for (size_t i = 0; i < want.size(); ++i) {
    uint32_t g, w;
    std::memcpy(&g, &got[i], 4);
    std::memcpy(&w, &want[i], 4);
    if (g != w && !(std::isnan(got[i]) && std::isnan(want[i])))
      return long(i);
  }
  return -1;
}

} // namespace

TEST_CASE("float division, square root, fmin/fmax, copysign and mad under a switch: board == CPU == host",
          "[e2e][board][operations]") {
  const size_t n = 2800;
  const int k = 3;
  std::mt19937 random(11);
  // Normal magnitudes in [2^-10, 2^10] of either sign: no result is denormal, so flushing does not show.
  auto value = [&] {
    float magnitude = std::ldexp(1.0f + float(random() % 8388608) / 8388608.0f, int(random() % 21) - 10);
    return random() % 2 ? -magnitude : magnitude;
  };
  std::vector<float> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = value();
    b[i] = value();
  }
  for (size_t i : {2u, 10u, 23u, 31u}) // fmin/fmax with one NaN operand return the other.
    (i % 2 ? a[i] : b[i]) = std::nanf("");
  b[7 * 5] = 0.0f;  // x / 0 is an infinity.
  a[7 * 6 + 4] = -0.0f;
  for (size_t i = 0; i < n; ++i) {
    const float x = a[i], y = b[i];
    switch (i % 7) {
    case 0: want[i] = x / y; break;
    case 1: want[i] = std::sqrt(std::fabs(x)); break;
    case 2: want[i] = std::fmin(x, y); break;
    case 3: want[i] = std::fmax(x, y); break;
    case 4: want[i] = std::copysign(x, y); break;
    case 5: want[i] = x * y + float(k); break;
    default: want[i] = -x;
    }
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstFloatMismatch(runTwoInputs<float>(Operations, target, "float_ops", a, b, k), want) == -1);
  }
}

TEST_CASE("integer builtins, divisions at 8/16/32/64 bits and a switch in a loop: board == CPU == host",
          "[e2e][board][operations]") {
  const size_t n = 3000;
  const int k = 7;
  std::mt19937 random(12);
  std::vector<int> a(n), b(n), ops(n), divisions(n), states(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int(random() % 2000001) - 1000000;
    b[i] = int(random() % 2001) - 1000;
  }
  a[2] = INT_MIN; // abs(INT_MIN) is INT_MIN again (as an int).
  for (size_t i = 0; i < n; ++i) {
    const int x = a[i], y = b[i];
    switch (i % 6) {
    case 0: ops[i] = std::min(x, y); break;
    case 1: ops[i] = std::max(x, y); break;
    case 2: ops[i] = int(x < 0 ? 0u - unsigned(x) : unsigned(x)); break;
    case 3: ops[i] = std::clamp(x, -k, k); break;
    case 4: ops[i] = (x >> 16) * (y >> 16); break;
    default: ops[i] = (x >> 16) * (y >> 16) + k;
    }
    const int yy = y | 1;
    const signed char c = (signed char)x, d = (signed char)yy;
    const short s = (short)x, t = (short)yy;
    const long l = long(x) * k, m = yy;
    const unsigned u = unsigned(x), v = unsigned(yy);
    divisions[i] = (c / d) + (c % d) * 3 + (s / t) * 5 + (s % t) * 7 + int(l / m) + int(l % m) * 11 +
                   int((u / v) & 0xffff) + int(u % v) * 13;
  }
  int state = 0, count = 0, total = 0;
  for (size_t j = 0; j < n; ++j) {
    const int v = a[j] % 100;
    switch (state) {
    case 0: state = v > 0 ? 1 : 2; break;
    case 1: total += v; state = v > 50 ? 2 : 1; break;
    case 2: ++count; state = v < -50 ? 0 : 3; break;
    default: total -= v; state = 0;
    }
    states[j] = total * 4 + state + count * 1000;
  }
  std::vector<int> small(n);
  for (size_t j = 0; j < n; ++j)
    small[j] = a[j] % 100;
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "int_ops", a, b, k), ops) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "divisions", a, b, k), divisions) == -1);
    CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "state_machine", small, b, int(n), {{1}}), states) ==
          -1);
  }
}

namespace {

template <typename T> int leadingZeros(T x) {
  constexpr int bits = sizeof(T) * 8;
  for (int n = 0; n < bits; ++n)
    if (x & (T(1) << (bits - 1 - n)))
      return n;
  return bits;
}
template <typename T> int trailingZeros(T x) {
  constexpr int bits = sizeof(T) * 8;
  for (int n = 0; n < bits; ++n)
    if (x & (T(1) << n))
      return n;
  return bits;
}
template <typename T> int ones(T x) {
  int n = 0;
  for (; x; x &= x - 1)
    ++n;
  return n;
}
template <typename T> T rotated(T x, T by) {
  constexpr unsigned bits = sizeof(T) * 8;
  const unsigned s = unsigned(by) % bits;
  return s ? T(x << s | x >> (bits - s)) : x;
}
/// OpenCL C's saturating a + b (or a - b), from the exact result in 64 bits (128 for the unsigned
/// 32-bit multiply-add).
template <typename T> T saturated(long long exact) {
  return T(std::clamp<long long>(exact, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

} // namespace

TEST_CASE("clz, ctz, popcount, rotate and saturating arithmetic at every width: board == CPU == host",
          "[e2e][board][operations]") {
  const size_t n = 2000;
  const int k = 1 << 30;
  std::mt19937 random(14);
  std::vector<int> a(n), b(n), want(n);
  for (size_t i = 0; i < n; ++i) {
    // Random bits, then few-bit values (long runs of zeros), and the extremes.
    a[i] = i % 3 ? int(random()) : int(random() % 300) << (random() % 24);
    b[i] = i % 5 ? int(random()) : int(random() % 70) - 35;
  }
  a[0] = 0, b[0] = 0, a[1] = INT_MIN, b[1] = -1, a[2] = INT_MAX, b[2] = INT_MAX, a[3] = -1, b[3] = 1;
  for (size_t i = 0; i < n; ++i) {
    const int x = a[i], y = b[i];
    const unsigned u = unsigned(x), v = unsigned(y);
    const uint64_t w = uint64_t(u) << 32 | v;
    const uint8_t c = uint8_t(x);
    const int16_t s = int16_t(x), t = int16_t(y);
    unsigned r = leadingZeros(u) + trailingZeros(u) * 3 + ones(u) * 5 + leadingZeros(w) * 7 + trailingZeros(w) * 11 +
            ones(w) * 13;
    r += leadingZeros(c) + trailingZeros(c) * 17 + ones(uint16_t(s)) * 19 + leadingZeros(uint16_t(s)) * 23;
    r ^= int(rotated(u, v)) ^ int(rotated(w, uint64_t(int64_t(y)))) ^ rotated(c, uint8_t(y)) ^
         int16_t(rotated(uint16_t(s), uint16_t(t)));
    r += saturated<int>((long long)x + y) ^ saturated<int>((long long)x - y) ^
         int(saturated<unsigned>((long long)u + v)) ^ int(saturated<unsigned>((long long)u - v)) ^
         saturated<int16_t>(s + t) ^ saturated<uint8_t>(c - uint8_t(y));
    const unsigned __int128 unsignedMad = (unsigned __int128)u * v + unsigned(k);
    r += saturated<int>((long long)x * y + k) ^
         int(unsignedMad > 0xffffffffu ? 0xffffffffu : unsigned(unsignedMad));
    want[i] = int(r);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "integer_bits", a, b, k), want) == -1);
  }
}

namespace {

/// `value` converted to float in rounding `mode` (FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD) by the
/// host's conversion instruction; volatile keeps the conversion between the mode's changes.
template <typename I> float floatRounded(I value, int mode) {
  std::fesetround(mode);
  volatile I in = value;
  volatile float out = float(in);
  std::fesetround(FE_TONEAREST);
  return out;
}

/// OpenCL C's convert_T_sat of an integral-valued double (NaN to 0); `saturated` above is the integer one.
template <typename T> T saturatedFrom(double x) {
  if (std::isnan(x))
    return 0;
  if (x <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (x >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return T(x);
}

int floatBits(float f) {
  int bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

/// What case `k` of kernel `conversions` gives for x and y.
int expectedConversion(int k, float x, int y) {
  const float bounded = std::fmin(std::fmax(x, -1e9f), 1e9f);
  switch (k) {
  case 0: return saturatedFrom<int>(std::trunc(double(x)));
  case 1: return int(std::nearbyint(double(bounded)));
  case 2: return int(std::ceil(double(bounded)));
  case 3: return int(std::floor(double(bounded)));
  case 4: return saturatedFrom<int>(std::nearbyint(double(x)));
  case 5: return int(saturatedFrom<uint32_t>(std::ceil(double(x))));
  case 6: return saturatedFrom<int16_t>(std::floor(double(x))) + 65536 * saturatedFrom<uint8_t>(std::nearbyint(double(x)));
  case 7: {
    const int64_t l = saturatedFrom<int64_t>(std::floor(double(x * 0x1p20f)));
    return int(l ^ (l >> 32));
  }
  case 8: return saturated<int8_t>(y) + 256 * saturated<uint16_t>(y);
  case 9: return floatBits(floatRounded(y, FE_TOWARDZERO));
  case 10: return floatBits(floatRounded(uint64_t(uint32_t(y)) * 0x10001u, FE_UPWARD));
  case 11: return floatBits(floatRounded(int64_t(y) * -123457, FE_DOWNWARD));
  default: {
    const float lanes[4] = {x, -x, x * 0.5f, x + 0.5f};
    uint32_t r[4];
    for (int lane = 0; lane < 4; ++lane)
      r[lane] = uint32_t(saturatedFrom<int>(std::ceil(double(lanes[lane]))));
    return int(r[0] ^ (r[1] * 3u) ^ (r[2] * 5u) ^ (r[3] * 7u));
  }
  }
}

} // namespace

TEST_CASE("convert_T with saturation and every rounding mode, float and integer sources: board == CPU == host",
          "[e2e][board][operations]") {
  std::vector<float> a = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, 255.5f,
                          256.5f, -128.5f, 32767.5f, -32768.5f, 65535.5f, 2147483520.0f, 2147483648.0f,
                          -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f, 1e9f + 64, -1e9f - 64,
                          9.2e18f, -9.3e18f, 0x1p43f, -0x1p43f, 0x1.fffffep42f};
  std::vector<int> b = {0, -1, INT_MIN, INT_MAX, 127, 128, -128, -129, 65535, 65536, 16777217, -16777217, 33554435};
  std::mt19937 random(21);
  std::uniform_int_distribution<int> exponent(-20, 40), integer(INT_MIN, INT_MAX), sign(0, 1);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  while (a.size() < 2000) {
    const float magnitude = std::ldexp(mantissa(random), exponent(random));
    a.push_back(a.size() % 4 == 0 ? float(integer(random) >> 9) + 0.5f : sign(random) ? -magnitude : magnitude);
  }
  while (b.size() < a.size())
    b.push_back(integer(random));
  for (int k = 0; k <= 12; ++k) {
    INFO("case " << k);
    std::vector<int> want(a.size());
    for (size_t i = 0; i < a.size(); ++i)
      want[i] = expectedConversion(k, a[i], b[i]);
    for (const Target &target : Targets) {
      INFO("device: " << target.name);
      CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "conversions", a, b, k), want) == -1);
    }
  }
}

TEST_CASE("a struct argument passed by value: board == CPU == host", "[e2e][board][operations]") {
  // The kernel's Params as the host lays it out (OpenCL C's alignment rules are C's here).
  struct Params {
    cl_int scale;
    cl_float gain;
    cl_short offset;
    cl_char shift;
    cl_long bias;
    cl_int table[4];
  };
  const Params p{-7, 0.75f, -1234, 3, cl_long(0x12345678) << 32 | 0x9abcdef0, {11, -22, 33, -44}};
  const size_t n = 500;
  auto a = randomInts(n, -100000, 100000, 51), b = randomInts(n, -1 << 20, 1 << 20, 52);
  std::vector<int> expected(n);
  for (size_t i = 0; i < n; ++i) {
    int v = a[i] * p.scale + p.offset + (b[i] >> p.shift) + p.table[0] - p.table[3];
    expected[i] = v + int(p.bias >> 32) + int(p.gain * float(b[i])) + (i & 1 ? p.table[2] : p.table[1]);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "struct_argument", a, b, p), expected) == -1);
  }
}

TEST_CASE("__constant pointer arguments read at data-dependent indices: board == CPU == host",
          "[e2e][board][operations]") {
  const size_t n = 2000;
  std::mt19937 random(61);
  // x beyond [0, 1) on both sides takes the clamped first and last segments.
  std::uniform_real_distribution<float> unit(-0.5f, 1.5f), coefficient(-2.0f, 2.0f);
  const int segments = 16;
  std::vector<float> x(n), coeffs(4 * segments), curve(n);
  for (float &v : x)
    v = unit(random);
  for (float &c : coeffs)
    c = coefficient(random);
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float *c = &coeffs[4 * std::clamp(int(v * float(segments)), 0, segments - 1)];
    curve[i] = ((c[3] * v + c[2]) * v + c[1]) * v + c[0];
  }
  const int mask = 255;
  const auto a = randomInts(n, INT_MIN / 2, INT_MAX / 2, 62), table = randomInts(mask + 1, -1000000, 1000000, 63);
  std::vector<int> lookedUp(n);
  for (size_t i = 0; i < n; ++i) {
    const int first = table[size_t(a[i] & mask)];
    lookedUp[i] = first + table[size_t((first ^ a[i]) & mask)] * 3;
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<float>(Operations, target, "constant_polynomial", x, coeffs, segments), curve) ==
          -1);
    CHECK(firstMismatch(runTwoInputs<int>(Operations, target, "constant_lookup", a, table, mask), lookedUp) == -1);
  }
}
