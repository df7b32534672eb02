// SPDX-License-Identifier: Apache-2.0
// The OpenCL C builtin library on the CPU device, through the ICD loader: each builtin on scalars and
// on vectors (float4 and float16; int4, char16 and uint8) with random inputs and the awkward ones
// (INT_MIN and CHAR_MIN for abs, NaN for fmin / fmax, -0.0f for copysign, infinities, a denormal),
// compared lane by lane with a host reference: floats bit for bit (sqrt is correctly rounded; fmin
// and fmax with one NaN operand return the other).
#include "DifferentialSupport.h"

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>

using namespace e2e;

namespace {

// One kernel per gentype, the same body for scalars and vectors: o[0..7] are min, max, clamp and
// select, then the float or the integer builtins. `lo` and `hi` are one scalar per work-item
// (lo <= hi): the scalar-operand forms for vectors. Select's condition is `m` as the signed type, and
// the same bits as the unsigned one.
const char *Source = R"(
#define GENTYPE(NAME, T, S, I, U, COUNT, MORE)                                                        \
__kernel void NAME(__global const T *a, __global const T *b, __global const T *c,                     \
                   __global const S *bounds, __global const I *m, __global T *out) {                  \
  size_t i = get_global_id(0);                                                                        \
  T x = a[i], y = b[i], z = c[i];                                                                     \
  S lo = bounds[2 * i], hi = bounds[2 * i + 1];                                                       \
  __global T *o = out + COUNT * i;                                                                    \
  o[0] = min(x, y); o[1] = max(x, y); o[2] = min(x, lo); o[3] = max(x, hi); o[4] = clamp(x, lo, hi);  \
  o[5] = clamp(x, min(y, z), max(y, z));                                                              \
  o[6] = select(x, y, m[i]); o[7] = select(x, y, ((__global const U *)m)[i]);                         \
  MORE(U)                                                                                             \
}
#define FLOAT_BUILTINS(U)                                                                             \
  o[8] = sqrt(x); o[9] = fabs(x); o[10] = copysign(x, y); o[11] = fmin(x, y); o[12] = fmax(x, y);     \
  o[13] = fmin(x, lo); o[14] = fmax(x, hi); o[15] = mad(x, y, z);
#define INTEGER_BUILTINS(U) ((__global U *)o)[8] = abs(x);

GENTYPE(floats, float, float, int, uint, 16, FLOAT_BUILTINS)
GENTYPE(floats4, float4, float, int4, uint4, 16, FLOAT_BUILTINS)
GENTYPE(floats16, float16, float, int16, uint16, 16, FLOAT_BUILTINS)
GENTYPE(ints, int, int, int, uint, 9, INTEGER_BUILTINS)
GENTYPE(ints4, int4, int, int4, uint4, 9, INTEGER_BUILTINS)
GENTYPE(chars16, char16, char, char16, uchar16, 9, INTEGER_BUILTINS)
GENTYPE(uints8, uint8, uint, int8, uint8, 9, INTEGER_BUILTINS)

#define MUL24(NAME, T)                                                                                \
__kernel void NAME(__global const T *a, __global const T *b, __global const T *c, __global T *out) { \
  size_t i = get_global_id(0);                                                                        \
  out[2 * i] = mul24(a[i], b[i]);                                                                     \
  out[2 * i + 1] = mad24(a[i], b[i], c[i]);                                                           \
}
MUL24(mul24_int, int)
MUL24(mul24_int4, int4)
MUL24(mul24_uint, uint)
MUL24(mul24_uint2, uint2)
)";

constexpr size_t Lanes = 4096; // Per input; a kernel on W-lane vectors runs Lanes / W work-items.

std::mt19937 &randomBits() {
  static std::mt19937 generator(20240611);
  return generator;
}

/// `count` random values of an integer type over its whole range, starting with its extremes, -1, 0
/// and 1 (each input gets them at different lanes: the callers rotate).
template <typename T> std::vector<T> randomIntegers(size_t count, size_t rotate) {
  std::uniform_int_distribution<long long> pick(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  std::vector<T> values = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1), T(-1)};
  while (values.size() < count)
    values.push_back(T(pick(randomBits())));
  std::rotate(values.begin(), values.begin() + rotate % 5, values.begin() + 5);
  return values;
}

/// `count` random floats in [-1000, 1000] with some specials among them.
std::vector<float> randomFloats(size_t count, const std::vector<float> &specials) {
  std::uniform_real_distribution<float> pick(-1000.0f, 1000.0f);
  std::vector<float> values(specials);
  while (values.size() < count)
    values.push_back(pick(randomBits()));
  return values;
}

/// Per work-item scalar bounds lo <= hi.
template <typename S> std::vector<S> randomBounds(size_t items) {
  std::vector<S> bounds, raw;
  if constexpr (std::is_floating_point_v<S>)
    raw = randomFloats(2 * items, {});
  else
    raw = randomIntegers<S>(2 * items, 0);
  for (size_t i = 0; i < items; ++i) {
    bounds.push_back(std::min(raw[2 * i], raw[2 * i + 1]));
    bounds.push_back(std::max(raw[2 * i], raw[2 * i + 1]));
  }
  return bounds;
}

/// Whether a result is the reference's: the same bits, or for floats both NaN (any NaN).
template <typename T> bool same(T got, T want) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(want))
      return std::isnan(got);
  return std::memcmp(&got, &want, sizeof got) == 0;
}

/// What a kernel wrote: `perItem` values of `width` lanes per work-item, checked lane by lane against
/// the host; the first few mismatches are kept for the test's message.
template <typename T> struct Results {
  std::vector<T> values;
  size_t perItem, width;
  size_t wrong = 0;
  std::ostringstream first;

  T at(size_t lane, size_t k) const { return values[(perItem * (lane / width) + k) * width + lane % width]; }
  template <typename U> void expect(size_t lane, size_t k, const char *what, U want) {
    U got;
    static_assert(sizeof got == sizeof(T));
    T bits = at(lane, k);
    std::memcpy(&got, &bits, sizeof got);
    if (!same(got, want) && wrong++ < 10)
      first << what << " lane " << lane << ": got " << +got << ", want " << +want << "\n";
  }
};

template <typename T> cl_mem input(Setup &cl, const std::vector<T> &values) {
  return buffer(cl, values, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
}

/// Runs kernel `name` over Lanes / width work-items, on input buffers made of `inputs` and then an
/// output of `perItem` T values per work-item; returns the output.
template <typename T, typename... Inputs>
Results<T> run(Setup &cl, cl_program program, const char *name, size_t width, size_t perItem,
               const Inputs &...inputs) {
  const size_t items = Lanes / width;
  std::vector<cl_mem> buffers = {input(cl, inputs)...};
  buffers.push_back(buffer(cl, std::vector<T>(perItem * Lanes), CL_MEM_WRITE_ONLY));
  cl_kernel kernel = kernelNamed(program, name);
  for (size_t i = 0; i < buffers.size(); ++i)
    setArg(kernel, cl_uint(i), buffers[i]);
  clReleaseEvent(launch(cl, kernel, Range{{items}}));
  Results<T> results{readBack<T>(cl, buffers.back(), perItem * Lanes), perItem, width};
  clReleaseKernel(kernel);
  for (cl_mem mem : buffers)
    clReleaseMemObject(mem);
  return results;
}

/// The lane's select: scalars test c != 0, vectors c's most significant bit.
template <typename T, typename C> T selected(T a, T b, C c, size_t width) {
  using Signed = std::make_signed_t<C>;
  return (width == 1 ? c != 0 : Signed(c) < 0) ? b : a;
}

/// The signed integer type of a lane type's size (select's condition).
template <typename T> struct SignedOf { using type = std::make_signed_t<T>; };
template <> struct SignedOf<float> { using type = int; };

/// Kernel `name` (GENTYPE) on `width`-lane vectors of Lane against the host.
template <typename Lane> void checkGentype(Setup &cl, cl_program program, const char *name, size_t width) {
  INFO(name);
  constexpr bool isFloat = std::is_floating_point_v<Lane>;
  using Signed = typename SignedOf<Lane>::type;
  using Unsigned = std::make_unsigned_t<Signed>;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<Lane> a, b, c;
  if constexpr (isFloat) {
    // x: NaN, infinities, zeros of both signs, a denormal, a negative (sqrt gives NaN); y: NaN at
    // other lanes and -0.0f (copysign), never zero where x is.
    a = randomFloats(Lanes, {nan, inf, -inf, -0.0f, 0.0f, 1e-40f, -4.0f, 2.0f, 3.0f, 5.0f});
    b = randomFloats(Lanes, {1.0f, 2.0f, -3.0f, 4.0f, -5.0f, 6.0f, -0.0f, nan, -0.0f, nan});
    c = randomFloats(Lanes, {});
  } else {
    a = randomIntegers<Lane>(Lanes, 0);
    b = randomIntegers<Lane>(Lanes, 2);
    c = randomIntegers<Lane>(Lanes, 4);
  }
  std::vector<Lane> bounds = randomBounds<Lane>(Lanes / width);
  std::vector<Signed> m = randomIntegers<Signed>(Lanes, 1);
  Results<Lane> out = run<Lane>(cl, program, name, width, isFloat ? 16 : 9, a, b, c, bounds, m);

  // The host's min and max: for floats fmin and fmax, as the spec defines clamp.
  auto low = [](Lane p, Lane q) -> Lane {
    if constexpr (isFloat)
      return std::fmin(p, q);
    return std::min(p, q);
  };
  auto high = [](Lane p, Lane q) -> Lane {
    if constexpr (isFloat)
      return std::fmax(p, q);
    return std::max(p, q);
  };
  for (size_t lane = 0; lane < Lanes; ++lane) {
    const size_t item = lane / width;
    const Lane x = a[lane], y = b[lane], z = c[lane], lo = bounds[2 * item], hi = bounds[2 * item + 1];
    if (!std::isnan(x) && !std::isnan(y)) { // min, max and clamp leave NaN operands undefined.
      out.expect(lane, 0, "min", low(x, y));
      out.expect(lane, 1, "max", high(x, y));
      out.expect(lane, 2, "min(x, scalar)", low(x, lo));
      out.expect(lane, 3, "max(x, scalar)", high(x, hi));
      out.expect(lane, 4, "clamp(x, scalar, scalar)", low(high(x, lo), hi));
      out.expect(lane, 5, "clamp", low(high(x, low(y, z)), high(y, z)));
    }
    out.expect(lane, 6, "select(signed)", selected(x, y, m[lane], width));
    out.expect(lane, 7, "select(unsigned)", selected(x, y, Unsigned(m[lane]), width));
    if constexpr (isFloat) {
      out.expect(lane, 8, "sqrt", std::sqrt(x));
      out.expect(lane, 9, "fabs", std::fabs(x));
      out.expect(lane, 10, "copysign", std::copysign(x, y));
      out.expect(lane, 11, "fmin", std::fmin(x, y));
      out.expect(lane, 12, "fmax", std::fmax(x, y));
      out.expect(lane, 13, "fmin(x, scalar)", std::fmin(x, lo));
      out.expect(lane, 14, "fmax(x, scalar)", std::fmax(x, hi));
      const float product = x * y;
      out.expect(lane, 15, "mad", product + z);
    } else {
      out.expect(lane, 8, "abs", x < 0 ? Unsigned(Unsigned(0) - Unsigned(x)) : Unsigned(x));
    }
  }
  INFO(out.first.str());
  CHECK(out.wrong == 0);
}

/// mul24 and mad24 on 24-bit operands (signed [-2^23, 2^23), unsigned [0, 2^24)): the low 32 bits
/// of x * y (+ z).
template <typename Lane> void checkMul24(Setup &cl, cl_program program, const char *name, size_t width) {
  INFO(name);
  const long long low = std::is_signed_v<Lane> ? -(1LL << 23) : 0;
  const long long high = std::is_signed_v<Lane> ? (1LL << 23) - 1 : (1LL << 24) - 1;
  std::uniform_int_distribution<long long> pick(low, high);
  std::vector<Lane> a = {Lane(low), Lane(high), Lane(high), 0}, b = {Lane(low), Lane(high), Lane(low), 5},
                    c = randomIntegers<Lane>(Lanes, 0);
  while (a.size() < Lanes) {
    a.push_back(Lane(pick(randomBits())));
    b.push_back(Lane(pick(randomBits())));
  }
  Results<Lane> out = run<Lane>(cl, program, name, width, 2, a, b, c);

  for (size_t lane = 0; lane < Lanes; ++lane) {
    const uint32_t product = uint32_t(uint64_t(int64_t(a[lane]) * int64_t(b[lane])));
    out.expect(lane, 0, "mul24", Lane(product));
    out.expect(lane, 1, "mad24", Lane(product + uint32_t(c[lane])));
  }
  INFO(out.first.str());
  CHECK(out.wrong == 0);
}

/// Every kernel of Source, built with `options`, against the host.
void checkAll(const char *options) {
  CpuSetup cl;
  cl_program program = cl.build(Source, options);
  checkGentype<float>(cl, program, "floats", 1);
  checkGentype<float>(cl, program, "floats4", 4);
  checkGentype<float>(cl, program, "floats16", 16);
  checkGentype<int>(cl, program, "ints", 1);
  checkGentype<int>(cl, program, "ints4", 4);
  checkGentype<signed char>(cl, program, "chars16", 16);
  checkGentype<unsigned>(cl, program, "uints8", 8);
  checkMul24<int>(cl, program, "mul24_int", 1);
  checkMul24<int>(cl, program, "mul24_int4", 4);
  checkMul24<unsigned>(cl, program, "mul24_uint", 1);
  checkMul24<unsigned>(cl, program, "mul24_uint2", 2);
  clReleaseProgram(program);
}

} // namespace

TEST_CASE("builtins on the CPU device match the host (floats bit for bit)", "[e2e][builtins]") {
  checkAll("");
}

TEST_CASE("builtins built with -cl-opt-disable give the same results", "[e2e][builtins]") {
  checkAll("-cl-opt-disable");
}

TEST_CASE("mad_sat and integer-to-float conversions toward zero, up and down", "[e2e][builtins]") {
  const char *source = R"(
__kernel void saturate_and_round(__global const long *a, __global const long *b, __global const long *c,
                                 __global long *sat, __global float *rounded) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i], z = c[i];
  __global long *s = sat + 8 * i;
  s[0] = mad_sat(x, y, z);
  s[1] = (long)mad_sat((ulong)x, (ulong)y, (ulong)z);
  s[2] = mad_sat((int)x, (int)y, (int)z);
  s[3] = mad_sat((uint)x, (uint)y, (uint)z);
  s[4] = mad_sat((short)x, (short)y, (short)z);
  s[5] = mad_sat((uchar)x, (uchar)y, (uchar)z);
  int2 v = mad_sat((int2)((int)x, (int)y), (int2)((int)y, (int)z), (int2)((int)z, (int)x));
  s[6] = v.s0;
  s[7] = v.s1;
  __global float *r = rounded + 12 * i;
  r[0] = convert_float_rtz(x); r[1] = convert_float_rtp(x); r[2] = convert_float_rtn(x);
  r[3] = convert_float_rtz((ulong)x); r[4] = convert_float_rtp((ulong)x); r[5] = convert_float_rtn((ulong)x);
  r[6] = convert_float_rtz((int)x); r[7] = convert_float_rtp((int)x); r[8] = convert_float_rtn((int)x);
  float4 q = convert_float4_rtp((uint4)((uint)x, (uint)y, (uint)z, (uint)(x >> 32)));
  r[9] = q.s0; r[10] = q.s1; r[11] = q.s3;
}
)";
  // Random 64-bit values of every magnitude, and the edges.
  std::mt19937_64 random(41);
  std::vector<long> values{0, 1, -1, LONG_MIN, LONG_MAX, INT_MIN, INT_MAX, long(UINT_MAX), (1L << 24) + 1,
                           -(1L << 24) - 1, (1L << 53) + 1, -(1L << 62) - 3, 255, 65535, 32767, -32768};
  while (values.size() < 3 * 1024)
    values.push_back(long(random() >> (random() % 64)) * (random() % 2 ? 1 : -1));
  std::shuffle(values.begin(), values.end(), random);
  const size_t n = values.size() / 3;
  std::vector<long> a(values.begin(), values.begin() + n), b(values.begin() + n, values.begin() + 2 * n),
      c(values.begin() + 2 * n, values.end());

  Setup cl(cpuDevice());
  cl_program program = cl.build(source);
  cl_kernel kernel = kernelNamed(program, "saturate_and_round");
  cl_mem buffers[] = {buffer(cl, a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, std::vector<long>(8 * n), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR),
                      buffer(cl, std::vector<float>(12 * n), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR)};
  for (cl_uint k = 0; k < 5; ++k)
    setArg(kernel, k, buffers[k]);
  clReleaseEvent(launch(cl, kernel, {{n}}));
  const auto sat = readBack<long>(cl, buffers[3], 8 * n);
  const auto rounded = readBack<float>(cl, buffers[4], 12 * n);

  // mad_sat: the exact result in 128 bits, clamped.
  auto clamp = [](__int128 r, __int128 lo, __int128 hi) { return long(std::min(std::max(r, lo), hi)); };
  auto madSat = [&](auto x, auto y, auto z) {
    using T = decltype(x);
    return clamp(__int128(x) * __int128(y) + __int128(z), __int128(std::numeric_limits<T>::min()),
                 __int128(std::numeric_limits<T>::max()));
  };
  auto madSatU64 = [](uint64_t x, uint64_t y, uint64_t z) { // whose product may need all 128 bits
    const unsigned __int128 r = (unsigned __int128)x * y + z;
    return long(r > UINT64_MAX ? UINT64_MAX : uint64_t(r));
  };
  // The directed conversions: the host's own, under its rounding modes (volatile: at run time).
  auto directed = [](auto x, int mode) {
    const int saved = std::fegetround();
    std::fesetround(mode);
    volatile long double exact = x; // every 64-bit integer is exact in x87's 64-bit mantissa
    volatile float result = float(exact);
    std::fesetround(saved);
    return float(result);
  };
  const int modes[] = {FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  size_t mismatches = 0;
  for (size_t i = 0; i < n && mismatches < 10; ++i) {
    const long x = a[i], y = b[i], z = c[i];
    const long want[8] = {madSat(x, y, z),
                          madSatU64(uint64_t(x), uint64_t(y), uint64_t(z)),
                          madSat(int(x), int(y), int(z)),
                          madSat(unsigned(x), unsigned(y), unsigned(z)),
                          madSat(short(x), short(y), short(z)),
                          madSat((unsigned char)x, (unsigned char)y, (unsigned char)z),
                          madSat(int(x), int(y), int(z)),
                          madSat(int(y), int(z), int(x))};
    for (int k = 0; k < 8; ++k)
      if (sat[8 * i + k] != want[k]) {
        ++mismatches;
        UNSCOPED_INFO("mad_sat form " << k << " of " << x << ", " << y << ", " << z << ": " << sat[8 * i + k]
                                      << ", want " << want[k]);
      }
    float wantRounded[12];
    for (int m = 0; m < 3; ++m) {
      wantRounded[m] = directed(x, modes[m]);
      wantRounded[3 + m] = directed(uint64_t(x), modes[m]);
      wantRounded[6 + m] = directed(int(x), modes[m]);
    }
    wantRounded[9] = directed(unsigned(x), FE_UPWARD);
    wantRounded[10] = directed(unsigned(y), FE_UPWARD);
    wantRounded[11] = directed(unsigned(uint64_t(x) >> 32), FE_UPWARD);
    for (int k = 0; k < 12; ++k)
      if (std::memcmp(&rounded[12 * i + k], &wantRounded[k], sizeof(float)) != 0) {
        ++mismatches;
        UNSCOPED_INFO("conversion " << k << " of " << x << ": " << rounded[12 * i + k] << ", want "
                                    << wantRounded[k]);
      }
  }
  CHECK(mismatches == 0);
  for (cl_mem mem : buffers)
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}
