// SPDX-License-Identifier: Apache-2.0
// The OpenCL C builtin library in hardware (kernels/library.cl, compiled by loomc at build time).
// Relational, common, geometric, integer, vector data, shuffle and math builtins run on the board and
// on the CPU device, each checked against a host reference computed here, not by the device library:
// bit for bit where the spec makes the result exact, and within the spec's bounds (OpenCL C 3.0
// section 7.4) otherwise. The board flushes float denormals (no CL_FP_DENORM), so its checks allow a
// result below FLT_MIN to be a zero, and let a comparison see a denormal operand as a zero.
#include "DifferentialSupport.h"
#include "../UlpError.h"

#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>

using namespace e2e;
using loom::test::ulpError;

namespace {

const Sources Library{LOOM_E2E_LIBRARY_LOOM, LOOM_E2E_LIBRARY_CL, LOOM_E2E_LIBRARY_OPTIONS};
constexpr double Pi = 3.14159265358979323846;

using Bytes = std::vector<uint8_t>;

template <typename T> Bytes bytesOf(const std::vector<T> &values) {
  Bytes bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

/// Runs kernel `name` of library.cl over `items` work-items on `target`. Its arguments are the
/// `inputs`, then one buffer per `outputs` entry of that many T, all bits set at first so that what
/// no work-item wrote shows; returns those buffers, one after the other.
template <typename T>
std::vector<T> run(const Target &target, const char *name, const std::vector<Bytes> &inputs,
                   std::vector<size_t> outputs, size_t items) {
  Setup cl(target.device());
  cl_program program = programFor(cl, target, Library);
  cl_kernel kernel = kernelNamed(program, name);
  std::vector<cl_mem> buffers;
  for (const Bytes &in : inputs)
    buffers.push_back(buffer(cl, in, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  for (size_t count : outputs)
    buffers.push_back(buffer(cl, Bytes(count * sizeof(T), 0xff), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));
  for (cl_uint k = 0; k < buffers.size(); ++k)
    setArg(kernel, k, buffers[k]);
  clReleaseEvent(launch(cl, kernel, Range{{items}}));
  std::vector<T> results;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const std::vector<T> out = readBack<T>(cl, buffers[inputs.size() + k], outputs[k]);
    results.insert(results.end(), out.begin(), out.end());
  }
  for (cl_mem mem : buffers)
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return results;
}

/// Checks `ok(k)` for every k < count, reporting the first few k that fail with `describe(k)`.
void checkAll(size_t count, const std::function<bool(size_t)> &ok, const std::function<std::string(size_t)> &describe) {
  size_t failures = 0;
  for (size_t k = 0; k < count; ++k)
    if (!ok(k) && ++failures <= 5)
      FAIL_CHECK(describe(k));
  CHECK(failures == 0);
}

template <typename... Values> std::string text(const Values &...values) {
  std::ostringstream out;
  out << std::hexfloat;
  (out << ... << values);
  return out.str();
}

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
float floatOf(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}
bool isDenormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL; }
float flushed(float x) { return isDenormal(x) ? std::copysign(0.0f, x) : x; }
/// Bit for bit, or both NaN (the spec leaves a NaN's payload open).
bool sameFloat(float got, float want) { return bitsOf(got) == bitsOf(want) || (std::isnan(got) && std::isnan(want)); }
/// Within `bound` ULPs of `exact`, or a zero where `exact` is below FLT_MIN (a flushed result).
bool withinUlps(float got, double exact, double bound) {
  return (got == 0.0f && std::fabs(exact) < FLT_MIN) || ulpError(got, exact) <= bound;
}

/// A float whose magnitude is 2^e for e uniform in [low, high) times a random significand, of
/// either sign.
float logUniform(std::mt19937 &random, int low, int high) {
  const int exponent = low + int(random() % unsigned(high - low));
  const float magnitude = std::ldexp(1.0f + float(random() % (1u << 23)) * 0x1p-23f, exponent);
  return random() % 2 ? -magnitude : magnitude;
}
float uniform(std::mt19937 &random, float low, float high) {
  return std::uniform_real_distribution<float>(low, high)(random);
}

/// One output of a float kernel: whether work-item `i`'s lane `lane` result `got` is right.
struct FloatCheck {
  const char *name;
  std::function<bool(size_t i, int lane, float got)> ok;
};

/// Checks a kernel's outputs: output f of work-item i's lane l is out[(f * items + i) * lanes + l].
void checkOutputs(const std::vector<float> &out, size_t items, int lanes, const std::vector<FloatCheck> &checks,
                  const std::function<std::string(size_t i, int lane)> &operands) {
  REQUIRE(out.size() == checks.size() * items * lanes);
  for (size_t f = 0; f < checks.size(); ++f) {
    INFO(checks[f].name);
    const size_t base = f * items * lanes;
    checkAll(
        items * lanes, [&](size_t k) { return checks[f].ok(k / lanes, int(k % lanes), out[base + k]); },
        [&](size_t k) {
          return text(checks[f].name, ", lane ", k % lanes, " of ", operands(k / lanes, int(k % lanes)), ": ", out[base + k]);
        });
  }
}

// ---- Relational functions.

/// The relational builtins in kernel order, as the spec defines them (comparisons of a NaN false).
const std::function<bool(float, float)> Relations[] = {
    [](float x, float) { return std::isnan(x); },
    [](float x, float) { return std::isinf(x); },
    [](float x, float) { return std::isfinite(x); },
    [](float x, float) { return std::isnormal(x); },
    [](float x, float) { return std::signbit(x); },
    [](float x, float y) { return x == y; },
    [](float x, float y) { return x != y; },
    [](float x, float y) { return x > y; },
    [](float x, float y) { return x >= y; },
    [](float x, float y) { return x < y; },
    [](float x, float y) { return x <= y; },
    [](float x, float y) { return x < y || x > y; },
    [](float x, float y) { return !std::isnan(x) && !std::isnan(y); },
    [](float x, float y) { return std::isnan(x) || std::isnan(y); },
};

// ---- float to half and back, in double arithmetic (exact: a float, a half and their spacings all are).

enum class Rounding { Rte, Rtz, Rtp, Rtn };

/// The half of `x` rounded as `mode` says; a NaN gives a quiet NaN (its payload is left open).
uint16_t halfOf(float x, Rounding mode) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x))
    return sign | 0x7e00;
  const bool away = mode == Rounding::Rte || (mode == Rounding::Rtp && !sign) || (mode == Rounding::Rtn && sign);
  const double magnitude = std::fabs(double(x));
  // The half spacing at x: 2^(e - 10), with e the exponent of x, no less than a subnormal half's.
  const int exponent = magnitude == 0 ? -14 : std::max(std::ilogb(magnitude), -14);
  const double spacing = std::ldexp(1.0, exponent - 10), steps = magnitude / spacing;
  const double whole = std::floor(steps), rest = steps - whole;
  const bool up = mode == Rounding::Rte ? rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) == 1.0) : rest > 0 && away;
  const double rounded = (whole + up) * spacing;
  if (rounded > 65504.0 || std::isinf(magnitude)) // Beyond the largest half: infinity, or the largest half.
    return sign | (away || std::isinf(magnitude) ? 0x7c00 : 0x7bff);
  if (rounded < 0x1p-14)
    return sign | uint16_t(rounded / 0x1p-24);
  const int e = std::ilogb(rounded);
  return sign | uint16_t((e + 15) << 10) | uint16_t(rounded / std::ldexp(1.0, e - 10) - 1024);
}

float floatOfHalf(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  const float magnitude = exponent == 0x1f ? (mantissa ? NAN : INFINITY)
                          : exponent == 0  ? std::ldexp(float(mantissa), -24)
                                           : std::ldexp(float(1024 + mantissa), exponent - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

/// The same half, or both NaN.
bool sameHalf(uint16_t got, uint16_t want) {
  auto isNan = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  return got == want || (isNan(got) && isNan(want));
}

/// Floats where the rounding modes part: the values of random halves, the midpoints to their next
/// halves and the floats either side of those, the largest half and beyond, subnormal halves and
/// below, float denormals, infinities, NaN and zeros; `count` of them.
std::vector<float> halfRoundingCases(size_t count, unsigned seed) {
  std::vector<float> cases;
  for (float x : {65504.0f, 65519.996f, 65520.0f, 65536.0f, 1e9f, FLT_MAX, INFINITY, NAN, 0x1p-24f, 0x1p-25f,
                  0x1.8p-25f, 0x1.000002p-25f, 0x1p-26f, 0x1.ffcp-15f, 0x1.ffep-15f, 0x1p-14f, 0x1p-140f, 0.0f, 1.0f,
                  0x1.002p0f, 0x1.006p0f, 0x1.001p0f, 2049.0f, 2051.0f, 0x1.fffffep-1f})
    for (float sign : {1.0f, -1.0f})
      cases.push_back(sign * x);
  std::mt19937 random(seed);
  while (cases.size() < count) {
    const uint16_t h = uint16_t(random() % 0x7bff) | (random() % 2 ? 0x8000 : 0);
    const float value = floatOfHalf(h), next = floatOfHalf(uint16_t(h + 1)), mid = (value + next) / 2;
    for (float x : {value, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)})
      cases.push_back(x);
  }
  cases.resize(count);
  return cases;
}

// ---- Geometric functions: double references and the spec's bounds.

using Vector4 = std::array<float, 4>;
using Exact4 = std::array<double, 4>;

template <typename T> double lengthOf(const std::array<T, 4> &v, int lanes) {
  double sum = 0;
  for (int l = 0; l < lanes; ++l)
    sum += double(v[l]) * double(v[l]);
  return std::sqrt(sum);
}
/// u - v, exactly.
Exact4 difference(const Vector4 &u, const Vector4 &v) {
  return {double(u[0]) - v[0], double(u[1]) - v[1], double(u[2]) - v[2], double(u[3]) - v[3]};
}
double largestMagnitude(const Vector4 &u, const Vector4 &v, int lanes) {
  double largest = 0;
  for (int l = 0; l < lanes; ++l)
    largest = std::max({largest, std::fabs(double(u[l])), std::fabs(double(v[l]))});
  return largest;
}
template <typename T> bool finite(const std::array<T, 4> &v) {
  return std::all_of(v.begin(), v.end(), [](T x) { return std::isfinite(x); });
}
/// The sum of squares, where the fast_ functions are defined: in [FLT_MIN, FLT_MAX].
template <typename T> bool fastDomain(const std::array<T, 4> &v, int lanes) {
  const double sum = lengthOf(v, lanes) * lengthOf(v, lanes);
  return finite(v) && sum >= FLT_MIN && sum <= FLT_MAX;
}
/// The spec's absolute bound of dot (terms = 2n - 1) and cross (terms = 3): terms * max^2 * FLT_EPSILON
/// for the largest operand magnitude max; plus FLT_MIN, as a result below it may flush to zero.
bool withinAbsolute(float got, double exact, double largest, int terms) {
  return std::fabs(double(got) - exact) <= terms * largest * largest * FLT_EPSILON + FLT_MIN;
}
/// Where dot and cross have a bound: finite operands whose bound is finite.
bool productDomain(const Vector4 &u, const Vector4 &v) {
  const double largest = largestMagnitude(u, v, 4);
  return finite(u) && finite(v) && 7 * largest * largest * FLT_EPSILON < FLT_MAX;
}

/// Lane `lane` of normalize(v) over its first `lanes` lanes, exactly, as the spec defines it: v for
/// a zero vector, NaN for one with a NaN, and for one with infinities the normalized vector of its
/// infinities as +-1 and its other lanes as +-0.
double normalizedLane(Vector4 v, int lanes, int lane) {
  bool infinite = false, zero = true;
  for (int l = 0; l < lanes; ++l) {
    if (std::isnan(v[l]))
      return NAN;
    infinite |= std::isinf(v[l]);
    zero &= v[l] == 0;
  }
  if (zero)
    return v[lane];
  if (infinite)
    for (int l = 0; l < lanes; ++l)
      v[l] = std::isinf(v[l]) ? std::copysign(1.0f, v[l]) : std::copysign(0.0f, v[l]);
  return double(v[lane]) / lengthOf(v, lanes);
}

/// Geometric operands: special vectors (zero, huge, tiny, with infinite or NaN lanes, exact lengths),
/// then random ones scaled by powers of two from 2^-40 to 2^40.
std::vector<Vector4> geometricOperands(size_t count, unsigned seed) {
  std::vector<Vector4> v = {{0, 0, 0, 0},
                            {-0.0f, 0, -0.0f, 0},
                            {1e30f, -2e30f, 3e30f, 1e30f},
                            {1e-30f, 2e-30f, -3e-30f, 1e-30f},
                            {3e38f, 1e38f, 0, 0},
                            {FLT_MAX, FLT_MAX, 0, 0},
                            {1, INFINITY, -2, 3},
                            {-INFINITY, 5, INFINITY, 0},
                            {1, NAN, 0, 2},
                            {1e10f, 1, 1e-10f, 0},
                            {3, 4, 0, 0},
                            {0, 0, 1, 0},
                            {-2, 0, 0, 0}};
  std::mt19937 random(seed);
  while (v.size() < count) {
    const float scale = std::ldexp(1.0f, int(random() % 81) - 40);
    Vector4 x;
    for (float &lane : x)
      lane = uniform(random, -100, 100) * scale;
    v.push_back(x);
  }
  return v;
}

// ---- Integer functions: references in 128-bit arithmetic.

/// S's type of twice its width, of its signedness (upsample's result).
template <typename S>
using Twice = std::conditional_t<
    sizeof(S) == 1, std::conditional_t<std::is_signed_v<S>, int16_t, uint16_t>,
    std::conditional_t<sizeof(S) == 2, std::conditional_t<std::is_signed_v<S>, int32_t, uint32_t>,
                       std::conditional_t<std::is_signed_v<S>, int64_t, uint64_t>>>;

/// abs, abs_diff, hadd, rhadd, mul_hi, mad_hi and (below 64 bits) upsample of (a, b, c), each
/// widened to 64 bits as the kernel widens it to ulong.
template <typename S> std::vector<uint64_t> integerReference(S a, S b, S c) {
  using U = std::make_unsigned_t<S>;
  using Wide = std::conditional_t<std::is_signed_v<S>, __int128, unsigned __int128>;
  constexpr int bits = 8 * sizeof(S);
  const Wide x = a, y = b, high = (x * y) >> bits;
  std::vector<uint64_t> r = {uint64_t(U(x < 0 ? -x : x)), uint64_t(U(x > y ? x - y : y - x)),
                             uint64_t(S((x + y) >> 1)), uint64_t(S((x + y + 1) >> 1)), uint64_t(S(high)),
                             uint64_t(S(U(high) + U(c)))};
  if constexpr (bits < 64)
    r.push_back(uint64_t(Twice<S>(uint64_t(U(a)) << bits | uint64_t(U(b)))));
  return r;
}

/// The integer kernel of S over its edge values paired with each other, then random operands.
template <typename S> void checkIntegers(const char *kernel) {
  using Limits = std::numeric_limits<S>;
  const S edges[] = {Limits::min(), S(Limits::min() + 1), S(-1), 0, 1, 2, S(Limits::max() - 1), Limits::max(),
                     S(Limits::min() / 2), S(Limits::max() / 2 + 1)};
  constexpr size_t edgeCount = sizeof edges / sizeof edges[0];
  const size_t n = 2048;
  std::mt19937_64 random(sizeof(S) * 2 + std::is_signed_v<S>);
  std::vector<S> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    const bool paired = i < edgeCount * edgeCount;
    a[i] = paired ? edges[i / edgeCount] : S(random());
    b[i] = paired ? edges[i % edgeCount] : S(random());
    c[i] = i % 3 ? S(random()) : edges[i % edgeCount];
  }
  const size_t outputs = sizeof(S) < 8 ? 7 : 6;
  std::vector<uint64_t> want(outputs * n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<uint64_t> r = integerReference(a[i], b[i], c[i]);
    for (size_t f = 0; f < outputs; ++f)
      want[f * n + i] = r[f];
  }
  const char *names[] = {"abs", "abs_diff", "hadd", "rhadd", "mul_hi", "mad_hi", "upsample"};
  for (const Target &target : Targets) {
    INFO("device: " << target.name << ", kernel " << kernel);
    const auto got = run<uint64_t>(target, kernel, {bytesOf(a), bytesOf(b), bytesOf(c)}, {outputs * n}, n);
    checkAll(
        want.size(), [&](size_t k) { return got[k] == want[k]; },
        [&](size_t k) {
          const size_t i = k % n;
          return text(names[k / n], " of ", +a[i], ", ", +b[i], ", ", +c[i], ": 0x", std::hex, got[k], " want 0x",
                      want[k]);
        });
  }
}

// ---- The half_ and native_ variants.

/// A variant's operands in its documented domain (results normal, so no flushing), and its
/// double-precision reference.
struct Variant {
  const char *name;
  std::function<bool(float x, float y)> inDomain;
  std::function<double(double x, double y)> reference;
};
bool normalResult(double r) { return std::fabs(r) >= FLT_MIN && std::fabs(r) <= FLT_MAX; }
const Variant Variants[] = {
    {"exp", [](float x, float) { return normalResult(std::exp(double(x))); },
     [](double x, double) { return std::exp(x); }},
    {"log", [](float x, float) { return x >= FLT_MIN && x <= FLT_MAX; }, [](double x, double) { return std::log(x); }},
    // half_sin and half_cos: |x| <= 2^16.
    {"sin", [](float x, float) { return std::fabs(x) <= 0x1p16f; }, [](double x, double) { return std::sin(x); }},
    {"cos", [](float x, float) { return std::fabs(x) <= 0x1p16f; }, [](double x, double) { return std::cos(x); }},
    {"sqrt", [](float x, float) { return x >= FLT_MIN && x <= FLT_MAX; },
     [](double x, double) { return std::sqrt(x); }},
    {"rsqrt", [](float x, float) { return x >= FLT_MIN && x <= FLT_MAX; },
     [](double x, double) { return 1 / std::sqrt(x); }},
    {"recip", [](float x, float) { return normalResult(x) && normalResult(1 / double(x)); },
     [](double x, double) { return 1 / x; }},
    {"divide", [](float x, float y) { return normalResult(x) && normalResult(y) && normalResult(double(x) / y); },
     [](double x, double y) { return x / y; }},
    // powr: x >= 0 (here normal), a normal result.
    {"powr", [](float x, float y) { return x >= FLT_MIN && std::isfinite(y) && normalResult(std::pow(double(x), y)); },
     [](double x, double y) { return std::pow(x, y); }},
};

/// Runs `kernel` (half_math or native_math) and checks each variant within `bound` ULPs, on its
/// domain, on both devices; every in-domain result must be finite.
void checkVariants(const char *kernel, double bound) {
  const size_t n = 4096;
  std::mt19937 random(17);
  std::vector<float> x(n), y(n);
  const float specials[] = {1.0f, 2.0f, 0.5f, 3.14159265f, -3.14159265f, 1e-3f, 100.0f, 65536.0f, -65536.0f};
  for (size_t i = 0; i < n; ++i) {
    // Half the operands positive (the domain of log, sqrt, powr), magnitudes from 2^-20 to 2^20.
    x[i] = i < std::size(specials) ? specials[i] : logUniform(random, -20, 20);
    if (i % 2)
      x[i] = std::fabs(x[i]);
    y[i] = i % 3 ? uniform(random, -12, 12) : logUniform(random, -20, 20);
  }
  const size_t count = std::size(Variants);
  for (const Target &target : Targets) {
    INFO("device: " << target.name << ", kernel " << kernel);
    const auto out = run<float>(target, kernel, {bytesOf(x), bytesOf(y)}, {count * n}, n);
    for (size_t f = 0; f < count; ++f) {
      const Variant &v = Variants[f];
      INFO(v.name);
      size_t checked = 0;
      checkAll(
          n,
          [&](size_t i) {
            if (!v.inDomain(x[i], y[i]))
              return true;
            ++checked;
            const float got = out[f * n + i];
            return std::isfinite(got) && ulpError(got, v.reference(x[i], y[i])) <= bound;
          },
          [&](size_t i) {
            return text(v.name, "(", x[i], ", ", y[i], "): ", out[f * n + i], ", ",
                        ulpError(out[f * n + i], v.reference(x[i], y[i])), " ulp");
          });
      CHECK(checked > n / 8); // the domain is not empty
    }
  }
}

} // namespace

TEST_CASE("relational builtins on float (1/0) and float4 (-1/0 per lane) over pairs of special values",
          "[e2e][board][library]") {
  const float values[] = {0.0f,      -0.0f,      1.0f,     -1.0f,       1.5f,     0x1.000002p0f, -2.0f,
                          FLT_MIN,   -FLT_MIN,   0x1p-140f, -0x1p-140f, 0x1.fffffcp-127f, FLT_MAX, -FLT_MAX,
                          INFINITY,  -INFINITY,  NAN,      -NAN,        3.0f,     1e-30f,        0x1p-149f};
  std::vector<float> x, y;
  for (float a : values)
    for (float b : values)
      x.push_back(a), y.push_back(b);
  while (x.size() % 4)
    x.push_back(1.0f), y.push_back(2.0f);
  const size_t n = x.size(), functions = std::size(Relations);
  for (const Target &target : Targets) {
    // The board's compares may see a denormal operand as a zero (the spec allows flushing it).
    auto want = [&](size_t f, size_t i, bool got) {
      return got == Relations[f](x[i], y[i]) || (target.fromBinary && got == Relations[f](flushed(x[i]), flushed(y[i])));
    };
    for (const int lanes : {1, 4}) {
      INFO("device: " << target.name << ", " << (lanes == 1 ? "float" : "float4"));
      const auto out = run<int>(target, lanes == 1 ? "relational_float" : "relational_float4",
                                {bytesOf(x), bytesOf(y)}, {functions * n}, n / lanes);
      // A true vector lane is -1, a true scalar 1.
      const int truth = lanes == 1 ? 1 : -1;
      checkAll(
          out.size(),
          [&](size_t k) {
            const size_t f = k / n, i = k % n;
            return (out[k] == truth || out[k] == 0) && want(f, i, out[k] == truth);
          },
          [&](size_t k) { return text("function ", k / n, " of ", x[k % n], ", ", y[k % n], ": ", out[k]); });
    }
  }
}

TEST_CASE("select (int, uint, float, char, long; scalar and vector conditions), bitselect, any and all",
          "[e2e][board][library]") {
  const size_t n = 1024;
  std::mt19937 random(2);
  std::vector<int32_t> a(4 * n), b(4 * n), c(4 * n);
  const int32_t picks[] = {0, 1, INT_MIN, -1, 0x80, 0x8000, 0x7fffffff};
  for (size_t k = 0; k < 4 * n; ++k) {
    a[k] = int32_t(random()), b[k] = int32_t(random());
    // Conditions whose lanes' top bits are all set, all clear (yet non-zero), or mixed.
    const uint32_t bits = random();
    switch (k / 4 % 4) {
    case 0: c[k] = int32_t(bits); break;
    case 1: c[k] = int32_t(bits | 0x80808080u); break;
    case 2: c[k] = int32_t((bits & 0x7f7f7f7fu) | 1); break;
    default: c[k] = picks[bits % std::size(picks)]; break;
    }
  }
  // Each lane of `laneBytes` bytes from q where r's lane has its top bit set, else from p.
  auto byTopBit = [](const int32_t *p, const int32_t *q, const int32_t *r, size_t laneBytes, int32_t *out) {
    uint8_t pb[16], qb[16], rb[16], o[16];
    std::memcpy(pb, p, 16), std::memcpy(qb, q, 16), std::memcpy(rb, r, 16);
    for (size_t lane = 0; lane < 16 / laneBytes; ++lane)
      std::memcpy(o + lane * laneBytes, ((rb[(lane + 1) * laneBytes - 1] & 0x80) ? qb : pb) + lane * laneBytes,
                  laneBytes);
    std::memcpy(out, o, 16);
  };
  // Whether any (every) lane of `laneBytes` bytes among the first `lanes` has its top bit set.
  auto topBits = [](const int32_t *r, size_t laneBytes, size_t lanes, bool every) {
    uint8_t rb[16];
    std::memcpy(rb, r, 16);
    size_t set = 0;
    for (size_t lane = 0; lane < lanes; ++lane)
      set += rb[(lane + 1) * laneBytes - 1] >> 7;
    return int32_t(every ? set == lanes : set > 0);
  };
  const size_t outputs = 10;
  std::vector<int32_t> want(outputs * 4 * n);
  for (size_t i = 0; i < n; ++i) {
    const int32_t *p = &a[4 * i], *q = &b[4 * i], *r = &c[4 * i];
    auto slot = [&](size_t f) { return &want[(f * n + i) * 4]; };
    byTopBit(p, q, r, 4, slot(0)), byTopBit(p, q, r, 4, slot(1)), byTopBit(p, q, r, 4, slot(2));
    byTopBit(p, q, r, 1, slot(3)), byTopBit(p, q, r, 8, slot(4));
    for (int l = 0; l < 4; ++l) {
      slot(5)[l] = slot(6)[l] = (p[l] & ~r[l]) | (q[l] & r[l]);
      slot(7)[l] = r[l] ? q[l] : p[l];
    }
    slot(7)[3] = int16_t(r[3]) ? int16_t(q[3]) : int16_t(p[3]);
    const int32_t votes[8] = {topBits(r, 4, 4, false), topBits(r, 4, 4, true),  topBits(r, 1, 16, false),
                              topBits(r, 2, 8, true),  topBits(r, 4, 1, false), topBits(r, 4, 3, true),
                              topBits(r, 8, 2, false), topBits(r, 1, 16, true)};
    std::memcpy(slot(8), votes, 16), std::memcpy(slot(9), votes + 4, 16);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto got = run<int32_t>(target, "selects", {bytesOf(a), bytesOf(b), bytesOf(c)}, {outputs * 4 * n}, n);
    checkAll(
        want.size(), [&](size_t k) { return got[k] == want[k]; },
        [&](size_t k) {
          const size_t i = k / 4 % n;
          return text("output ", k / (4 * n), " lane ", k % 4, " of conditions ", std::hex, c[4 * i], " ", c[4 * i + 1],
                      " ", c[4 * i + 2], " ", c[4 * i + 3], ": ", got[k], " want ", want[k]);
        });
  }
}

TEST_CASE("common builtins on float4 and float: degrees, radians, mix, step, smoothstep, sign, clamp, min, max",
          "[e2e][board][library]") {
  const size_t n = 1024, lanes = 4 * n;
  std::mt19937 random(3);
  std::vector<float> x(lanes), e0(lanes), e1(lanes), a(lanes);
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, INFINITY,
                            -INFINITY, NAN, 1e30f, 180.0f, -90.0f, 3.14159265f};
  for (size_t k = 0; k < lanes; ++k) {
    e0[k] = uniform(random, -100, 100);
    e1[k] = e0[k] + uniform(random, 0.01f, 200);
    a[k] = k % 8 == 0 ? float(k / 8 % 2) : uniform(random, 0, 1);
    // Edges and points between them (step, smoothstep and clamp part there), specials, random.
    switch (k % 4) {
    case 0: x[k] = k / 4 < std::size(specials) ? specials[k / 4] : logUniform(random, -30, 30); break;
    case 1: x[k] = e0[k] + (e1[k] - e0[k]) * uniform(random, 0, 1); break;
    case 2: x[k] = random() % 2 ? e0[k] : e1[k]; break;
    default: x[k] = uniform(random, -300, 300); break;
    }
  }
  // Lane `lane` of work-item i's operands, or lane `from` of it where the kernel passes a scalar.
  auto at = [](const std::vector<float> &v, size_t i, int lane) { return v[4 * i + lane]; };
  auto mixOf = [](float x, float y, float t) { return x + (y - x) * t; };
  auto stepOf = [](float edge, float v) { return v < edge ? 0.0f : 1.0f; };
  // smoothstep's accuracy is the implementation's: its formula's own error, within 2^-20 (16 ulps
  // of 1), from an operand's rounding and a divide within the spec's 2.5 ulps. NaN is undefined.
  auto smoothOk = [](float e0, float e1, float v, float got) {
    if (std::isnan(v))
      return true;
    const double t = std::clamp((double(v) - e0) / (double(e1) - e0), 0.0, 1.0);
    return std::fabs(got - t * t * (3 - 2 * t)) <= 0x1p-20;
  };
  auto signOf = [](float v) { return v > 0 ? 1.0f : v < 0 ? -1.0f : std::isnan(v) ? 0.0f : std::copysign(0.0f, v); };
  // clamp is fmin(fmax(x, lo), hi) for every x; min and max are undefined for infinite or NaN operands.
  auto clampOf = [](float v, float lo, float hi) { return std::fmin(std::fmax(v, lo), hi); };
  auto minOk = [](float v, float y, float got) { return !std::isfinite(v) || sameFloat(got, y < v ? y : v); };
  auto maxOk = [](float v, float y, float got) { return !std::isfinite(v) || sameFloat(got, v < y ? y : v); };
  auto degreesOk = [](float v, float got) { return withinUlps(got, v * (180 / Pi), 2); };
  auto radiansOk = [](float v, float got) { return withinUlps(got, v * (Pi / 180), 2); };
  const std::vector<FloatCheck> checks = {
      {"degrees", [&](size_t i, int l, float got) { return degreesOk(at(x, i, l), got); }},
      {"radians", [&](size_t i, int l, float got) { return radiansOk(at(x, i, l), got); }},
      {"mix", [&](size_t i, int l, float got) { return sameFloat(got, mixOf(at(e0, i, l), at(e1, i, l), at(a, i, l))); }},
      {"mix, scalar a",
       [&](size_t i, int l, float got) { return sameFloat(got, mixOf(at(e0, i, l), at(e1, i, l), at(a, i, 0))); }},
      {"step", [&](size_t i, int l, float got) { return sameFloat(got, stepOf(at(e0, i, l), at(x, i, l))); }},
      {"step, scalar edge", [&](size_t i, int l, float got) { return sameFloat(got, stepOf(at(e0, i, 0), at(x, i, l))); }},
      {"smoothstep", [&](size_t i, int l, float got) { return smoothOk(at(e0, i, l), at(e1, i, l), at(x, i, l), got); }},
      {"smoothstep, scalar edges",
       [&](size_t i, int l, float got) { return smoothOk(at(e0, i, 0), at(e1, i, 0), at(x, i, l), got); }},
      {"sign", [&](size_t i, int l, float got) { return sameFloat(got, signOf(at(x, i, l))); }},
      {"clamp",
       [&](size_t i, int l, float got) { return sameFloat(got, clampOf(at(x, i, l), at(e0, i, l), at(e1, i, l))); }},
      {"clamp, scalar bounds",
       [&](size_t i, int l, float got) { return sameFloat(got, clampOf(at(x, i, l), at(e0, i, 0), at(e1, i, 0))); }},
      {"min", [&](size_t i, int l, float got) { return minOk(at(x, i, l), at(e0, i, l), got); }},
      {"max", [&](size_t i, int l, float got) { return maxOk(at(x, i, l), at(e1, i, l), got); }},
      {"min, scalar y", [&](size_t i, int l, float got) { return minOk(at(x, i, l), at(e0, i, 1), got); }},
      {"max, scalar y", [&](size_t i, int l, float got) { return maxOk(at(x, i, l), at(e1, i, 1), got); }},
      {"degrees, radians, mix, sign on float",
       [&](size_t i, int l, float got) {
         const float v = at(x, i, l);
         return l == 0 ? degreesOk(v, got)
                : l == 1 ? radiansOk(v, got)
                : l == 2 ? sameFloat(got, mixOf(at(e0, i, 2), at(e1, i, 2), at(a, i, 2)))
                         : sameFloat(got, signOf(v));
       }},
      {"step, smoothstep, clamp, max on float",
       [&](size_t i, int l, float got) {
         const float v = at(x, i, l), lo = at(e0, i, l), hi = at(e1, i, l);
         return l == 0 ? sameFloat(got, stepOf(lo, v))
                : l == 1 ? smoothOk(lo, hi, v, got)
                : l == 2 ? sameFloat(got, clampOf(v, lo, hi))
                         : maxOk(v, hi, got);
       }},
  };
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto out =
        run<float>(target, "common_functions", {bytesOf(x), bytesOf(e0), bytesOf(e1), bytesOf(a)}, {checks.size() * lanes}, n);
    checkOutputs(out, n, 4, checks, [&](size_t i, int l) {
      return text("x ", at(x, i, l), ", edges ", at(e0, i, l), " ", at(e1, i, l), ", a ", at(a, i, l));
    });
  }
}

TEST_CASE("geometric builtins: dot, cross, length, distance, normalize on float4, float3, float2 and their fast_ forms",
          "[e2e][board][library]") {
  const size_t n = 1024;
  const std::vector<Vector4> p = geometricOperands(n, 4), q = geometricOperands(n + 13, 5);
  const std::vector<Vector4> qs(q.begin() + 13, q.end()); // random ones: p's specials against ordinary vectors
  // The spec's bounds (section 7.4, the CTS's geometrics test's): length 2.75 + 0.5n ulps, distance
  // 2.5 + 2n, normalize 2 + n for n lanes.
  auto lengthOk = [](const Vector4 &v, int lanes, float got) { return withinUlps(got, lengthOf(v, lanes), 2.75 + 0.5 * lanes); };
  auto distanceOk = [](const Vector4 &u, const Vector4 &v, int lanes, float got) {
    return withinUlps(got, lengthOf(difference(u, v), lanes), 2.5 + 2 * lanes);
  };
  auto normalizeOk = [](const Vector4 &v, int lanes, int lane, float got) {
    // A zero vector is returned as it is; another zero lane is a zero (ULPs do not see its sign).
    const double exact = normalizedLane(v, lanes, lane);
    const bool zeroVector = std::all_of(v.begin(), v.begin() + lanes, [](float x) { return x == 0; });
    return std::isnan(exact) ? std::isnan(got)
           : zeroVector      ? sameFloat(got, v[lane])
           : exact == 0      ? got == 0
                             : withinUlps(got, exact, 2 + lanes);
  };
  auto dotOk = [](const Vector4 &u, const Vector4 &v, int lanes, float got) {
    double exact = 0;
    for (int l = 0; l < lanes; ++l)
      exact += double(u[l]) * v[l];
    return !productDomain(u, v) || withinAbsolute(got, exact, largestMagnitude(u, v, lanes), 2 * lanes - 1);
  };
  auto crossOk = [](const Vector4 &u, const Vector4 &v, int lane, float got) {
    const int j = (lane + 1) % 3, k = (lane + 2) % 3;
    const double exact = double(u[j]) * v[k] - double(u[k]) * v[j];
    return !productDomain(u, v) || withinAbsolute(got, exact, largestMagnitude(u, v, 3), 3);
  };
  const std::vector<FloatCheck> checks = {
      {"cross(float3), dot(float3)",
       [&](size_t i, int l, float got) { return l < 3 ? crossOk(p[i], qs[i], l, got) : dotOk(p[i], qs[i], 3, got); }},
      {"cross(float4)",
       [&](size_t i, int l, float got) { return l < 3 ? crossOk(p[i], qs[i], l, got) : sameFloat(got, 0.0f); }},
      {"dot, length, distance (float4), length(float2)",
       [&](size_t i, int l, float got) {
         return l == 0 ? dotOk(p[i], qs[i], 4, got)
                : l == 1 ? lengthOk(p[i], 4, got)
                : l == 2 ? distanceOk(p[i], qs[i], 4, got)
                         : lengthOk(p[i], 2, got);
       }},
      {"normalize(float4)", [&](size_t i, int l, float got) { return normalizeOk(p[i], 4, l, got); }},
      {"normalize(float3), distance(float3)",
       [&](size_t i, int l, float got) { return l < 3 ? normalizeOk(p[i], 3, l, got) : distanceOk(p[i], qs[i], 3, got); }},
  };
  // The fast_ forms: fast_length 8191.5 + n ulps, fast_distance 8191.5 + 2n, fast_normalize 8192 + n,
  // where the sum of squares is in [FLT_MIN, FLT_MAX] (the spec leaves the rest undefined or to the
  // implementation).
  auto fastOk = [](const auto &v, int lanes, double exact, double bound, float got) {
    return !fastDomain(v, lanes) || withinUlps(got, exact, bound);
  };
  const std::vector<FloatCheck> fastChecks = {
      {"fast_normalize(float4)",
       [&](size_t i, int l, float got) { return fastOk(p[i], 4, normalizedLane(p[i], 4, l), 8192 + 4, got); }},
      {"fast_length (float4, float3), fast_distance (float4, float)",
       [&](size_t i, int l, float got) {
         const Exact4 d = difference(p[i], qs[i]);
         return l == 0 ? fastOk(p[i], 4, lengthOf(p[i], 4), 8191.5 + 4, got)
                : l == 1 ? fastOk(d, 4, lengthOf(d, 4), 8191.5 + 8, got)
                : l == 2 ? fastOk(p[i], 3, lengthOf(p[i], 3), 8191.5 + 3, got)
                         : fastOk(d, 1, lengthOf(d, 1), 8191.5 + 2, got);
       }},
  };
  std::vector<float> pf, qf;
  for (size_t i = 0; i < n; ++i)
    pf.insert(pf.end(), p[i].begin(), p[i].end()), qf.insert(qf.end(), qs[i].begin(), qs[i].end());
  auto operands = [&](size_t i, int) {
    return text("(", p[i][0], ", ", p[i][1], ", ", p[i][2], ", ", p[i][3], "), (", qs[i][0], ", ", qs[i][1], ", ",
                qs[i][2], ", ", qs[i][3], ")");
  };
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    checkOutputs(run<float>(target, "geometric", {bytesOf(pf), bytesOf(qf)}, {checks.size() * 4 * n}, n), n, 4,
                 checks, operands);
    checkOutputs(run<float>(target, "fast_geometric", {bytesOf(pf), bytesOf(qf)}, {fastChecks.size() * 4 * n}, n), n,
                 4, fastChecks, operands);
  }
}

TEST_CASE("integer builtins abs, abs_diff, hadd, rhadd, mul_hi, mad_hi, upsample on every integer type, edges "
          "included",
          "[e2e][board][library]") {
  checkIntegers<int8_t>("integer_char");
  checkIntegers<uint8_t>("integer_uchar");
  checkIntegers<int16_t>("integer_short");
  checkIntegers<uint16_t>("integer_ushort");
  checkIntegers<int32_t>("integer_int");
  checkIntegers<uint32_t>("integer_uint");
  checkIntegers<int64_t>("integer_long");
  checkIntegers<uint64_t>("integer_ulong");
}

TEMPLATE_TEST_CASE("vloadN and vstoreN (N = 2, 3, 4, 8, 16) one element past aligned addresses",
                   "[e2e][board][library]", uint32_t, uint8_t) {
  const size_t n = 256, region = 16 * n + 2;
  std::mt19937 random(6);
  std::vector<TestType> in(16 * n + 1);
  for (TestType &v : in)
    v = TestType(random());
  // Regions the kernel leaves alone keep the runner's all-ones bits.
  std::vector<TestType> want(5 * region, TestType(~TestType(0)));
  const size_t widths[] = {2, 3, 4, 8, 16};
  for (size_t k = 0; k < 5; ++k)
    for (size_t e = 0; e < widths[k] * n; ++e)
      want[k * region + 1 + e] = TestType(in[1 + e] + widths[k]);
  const char *kernel = sizeof(TestType) == 4 ? "vector_stores_uint" : "vector_stores_uchar";
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto got = run<TestType>(target, kernel, {bytesOf(in)}, {want.size()}, n);
    checkAll(
        want.size(), [&](size_t k) { return got[k] == want[k]; },
        [&](size_t k) { return text("width ", widths[k / region], " element ", k % region, ": ", +got[k], " want ", +want[k]); });
  }
}

TEST_CASE("vstore_half in the default, _rte, _rtz, _rtp and _rtn modes: ties, overflow, subnormal halves, NaN",
          "[e2e][board][library]") {
  const size_t n = 8192;
  const std::vector<float> x = halfRoundingCases(n, 7);
  const Rounding modes[] = {Rounding::Rte, Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn};
  const char *names[] = {"default", "rte", "rtz", "rtp", "rtn"};
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto got = run<uint16_t>(target, "half_rounding", {bytesOf(x)}, {5 * n}, n);
    checkAll(
        got.size(), [&](size_t k) { return sameHalf(got[k], halfOf(x[k % n], modes[k / n])); },
        [&](size_t k) {
          return text(names[k / n], " of ", x[k % n], ": 0x", std::hex, got[k], " want 0x", halfOf(x[k % n], modes[k / n]));
        });
  }
}

TEST_CASE("half vectors: vstore_halfN and vstorea_halfN (3 at a 4-half step) in several modes, vload_halfN and "
          "vloada_half3 of every half",
          "[e2e][board][library]") {
  // Stores: 16 floats a work-item, regions of 16 n + 16 halves; unwritten halves keep all bits set.
  const size_t n = 512, region = 16 * n + 16; // aligned for vstorea_half8
  const std::vector<float> x = halfRoundingCases(16 * n, 8);
  std::vector<uint16_t> want(5 * region, 0xffff);
  std::vector<bool> written(want.size());
  auto expect = [&](size_t at, float v, Rounding mode) { want[at] = halfOf(v, mode), written[at] = true; };
  for (size_t i = 0; i < n; ++i) {
    for (size_t l = 0; l < 4; ++l)
      expect(4 * i + l, x[4 * i + l], Rounding::Rtz);
    for (size_t l = 0; l < 3; ++l) {
      expect(region + 1 + 3 * i + l, x[3 * i + l], Rounding::Rtp);
      expect(2 * region + 4 * i + l, x[3 * i + l], Rounding::Rtn);
    }
    for (size_t l = 0; l < 8; ++l)
      expect(3 * region + 8 * i + l, x[8 * i + l], Rounding::Rte);
    for (size_t l = 0; l < 16; ++l)
      expect(4 * region + 16 * i + l, x[16 * i + l], Rounding::Rtn);
  }
  // Loads: every half, with 4096 work-items of vload_half16; regions of 16 * 4096 floats.
  const size_t items = 4096, floats = 16 * items;
  std::vector<uint16_t> every(floats);
  for (size_t h = 0; h < every.size(); ++h)
    every[h] = uint16_t(h);
  std::vector<float> loaded(4 * floats, floatOf(~0u));
  std::vector<bool> read(loaded.size());
  auto load = [&](size_t at, size_t h) { loaded[at] = floatOfHalf(every[h]), read[at] = true; };
  for (size_t h = 0; h < floats; ++h)
    load(h, h);
  for (size_t i = 0; i < items; ++i) {
    load(floats + i, i * 17 % floats);
    for (size_t l = 0; l < 3; ++l)
      load(2 * floats + 3 * i + l, 4 * i + l), load(3 * floats + 3 * i + l, 1 + 3 * i + l);
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto stored = run<uint16_t>(target, "half_vector_stores", {bytesOf(x)}, {want.size()}, n);
    checkAll(
        want.size(), [&](size_t k) { return written[k] ? sameHalf(stored[k], want[k]) : stored[k] == 0xffff; },
        [&](size_t k) { return text("store region ", k / region, " half ", k % region, ": 0x", std::hex, stored[k], " want 0x", want[k]); });
    const auto got = run<float>(target, "half_loads", {bytesOf(every)}, {loaded.size()}, items);
    checkAll(
        loaded.size(), [&](size_t k) { return read[k] ? sameFloat(got[k], loaded[k]) : bitsOf(got[k]) == ~0u; },
        [&](size_t k) { return text("load region ", k / floats, " float ", k % floats, ": ", got[k], " want ", loaded[k]); });
  }
}

TEST_CASE("shuffle and shuffle2 (uint, char, ushort, float, ulong; 2 to 16 lanes) and as_T across vector widths",
          "[e2e][board][library]") {
  const size_t n = 1024;
  std::mt19937 random(9);
  std::vector<uint32_t> a(8 * n), b(8 * n), m(8 * n);
  for (size_t k = 0; k < 8 * n; ++k)
    a[k] = random(), b[k] = random(), m[k] = random(); // mask lanes use only their low bits
  // shuffle (y null) or shuffle2 of `lanes` lanes of L by `count` mask lanes of M, into `out`.
  auto shuffled = [](auto *out, const auto *x, const auto *y, size_t lanes, const auto *mask, size_t count) {
    for (size_t k = 0; k < count; ++k) {
      const size_t index = size_t(mask[k]) & ((y ? 2 * lanes : lanes) - 1);
      out[k] = index < lanes ? x[index] : y[index - lanes];
    }
  };
  std::vector<uint32_t> want(9 * 8 * n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t *x = &a[8 * i], *y = &b[8 * i], *mask = &m[8 * i];
    auto slot = [&](size_t f) { return &want[(f * n + i) * 8]; };
    // Byte views of the operands, as the kernel's as_T sees them.
    auto view = [](const uint32_t *words, auto lane) {
      std::array<decltype(lane), 32 / sizeof lane> lanes;
      std::memcpy(lanes.data(), words, 32);
      return lanes;
    };
    const auto xc = view(x, int8_t()), yc = view(y, int8_t());
    const auto mc = view(mask, uint8_t());
    const auto xs = view(x, uint16_t()), ys = view(y, uint16_t()), ms = view(mask, uint16_t());
    const auto xl = view(x, int64_t()), yl = view(y, int64_t());
    const auto xul = view(x, uint64_t()), mul = view(mask, uint64_t());
    const uint32_t *null = nullptr;
    shuffled(slot(0), x, null, 8, mask, 8);
    shuffled(slot(1), x, null, 4, mask, 4), shuffled(slot(1) + 4, x, y, 4, mask + 4, 4);
    shuffled(slot(2), x, y, 8, mask, 8);
    int8_t chars[32];
    shuffled(chars, xc.data(), (const int8_t *)nullptr, 16, mc.data(), 16);
    shuffled(chars + 16, xc.data() + 16, yc.data() + 16, 16, mc.data() + 16, 16);
    std::memcpy(slot(3), chars, 32);
    shuffled(slot(4), x, null, 8, mask, 4);
    shuffled(slot(4) + 4, y, null, 4, mask + 6, 2); // float lanes: their bits
    uint16_t shorts[4];
    shuffled(shorts, xs.data() + 8, ys.data() + 8, 4, ms.data() + 8, 4);
    std::memcpy(slot(4) + 6, shorts, 8);
    uint64_t longs[4];
    shuffled(longs, xul.data(), (const uint64_t *)nullptr, 4, mul.data(), 4);
    std::memcpy(slot(5), longs, 32);
    uint16_t plusOne[16];
    for (size_t l = 0; l < 16; ++l)
      plusOne[l] = uint16_t(xs[l] + 1);
    std::memcpy(slot(6), plusOne, 32);
    int8_t differences[16];
    for (size_t l = 0; l < 16; ++l)
      differences[l] = int8_t(xc[l] - yc[l]);
    const int64_t sums[2] = {int64_t(uint64_t(xl[2]) + uint64_t(yl[2])), int64_t(uint64_t(xl[3]) + uint64_t(yl[3]))};
    std::memcpy(slot(7), differences, 16), std::memcpy(slot(7) + 4, sums, 16);
    const int64_t shifted = xl[1] >> 8;
    uint32_t *o = slot(8);
    o[0] = __builtin_bswap32(x[0]), o[1] = x[1] >> 16 | x[1] << 16;
    std::memcpy(o + 2, &shifted, 8);
    o[4] = y[6], o[5] = y[5], o[6] = y[4], o[7] = y[6];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    const auto got = run<uint32_t>(target, "shuffles", {bytesOf(a), bytesOf(b), bytesOf(m)}, {want.size()}, n);
    checkAll(
        want.size(), [&](size_t k) { return got[k] == want[k]; },
        [&](size_t k) {
          return text("output ", k / (8 * n), " word ", k % 8, " of item ", k / 8 % n, ": 0x", std::hex, got[k],
                      " want 0x", want[k]);
        });
  }
}

TEST_CASE("maxmag, minmag, modf and fract (both outputs), lgamma, lgamma_r (and its sign), nan", "[e2e][board][library]") {
  const size_t n = 2048;
  std::mt19937 random(10);
  const float specials[] = {0.0f,  -0.0f,   1.0f,     2.0f,          -1.0f,          -2.5f,   0.5f,
                            -0.5f, 1e-10f,  -1e-10f,  0x1.fffffep22f, -0x1.fffffep22f, 0x1p23f, -3.5f,
                            -100.5f, 1e30f, -1e30f, 0x1.fffffep-1f, -0x1.fffffep-1f, 1e-37f, INFINITY, -INFINITY, NAN};
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = i < std::size(specials) ? specials[i] : i % 2 ? uniform(random, -50, 50) : logUniform(random, -30, 30);
    // y: x's negation or x itself (equal magnitudes), or a value of its own.
    y[i] = i % 5 == 0 ? -x[i] : i % 5 == 1 ? x[i] : i % 5 == 2 ? uniform(random, -50, 50) : logUniform(random, -30, 30);
  }
  // fmax and fmin of equal magnitudes; zeros of both signs may give either.
  auto magnitudeOk = [](float got, float x, float y, bool larger) {
    const float want = std::fabs(x) > std::fabs(y)   ? (larger ? x : y)
                       : std::fabs(y) > std::fabs(x) ? (larger ? y : x)
                       : larger                     ? std::fmax(x, y)
                                                    : std::fmin(x, y);
    return sameFloat(got, want) || (x == 0 && y == 0 && got == 0);
  };
  // modf: the fraction with x's sign (+-0 for an infinity) and the whole part.
  auto modfParts = [](float v) {
    const float whole = std::trunc(v);
    return std::pair{std::isinf(v) ? std::copysign(0.0f, v) : std::copysign(v - whole, v), whole};
  };
  // fract (section 7.5): below 1 and not below 0, +-0 for +-0 and +-inf, NaN for NaN; floor(x) beside.
  auto fractParts = [](float v) {
    const float whole = std::floor(v);
    const float fraction = std::isnan(v) ? v : std::isinf(v) || v == 0 ? std::copysign(0.0f, v)
                                                                     : std::fmin(v - whole, 0x1.fffffep-1f);
    return std::pair{fraction, whole};
  };
  // lgamma: the spec sets no bound (nor the CTS); where it is not near a zero of lgamma, 16 ulps
  // (tgamma's bound), else an absolute 2^-20. Poles and infinities are +inf, as C99 says.
  auto lgammaOk = [](float v, float got) {
    const double exact = std::lgamma(double(v));
    if (std::isinf(exact) || std::isnan(exact))
      return sameFloat(got, float(exact));
    return ulpError(got, exact) <= 16 || std::fabs(got - exact) <= 0x1p-20;
  };
  const std::vector<FloatCheck> checks = {
      {"maxmag", [&](size_t i, int, float got) { return magnitudeOk(got, x[i], y[i], true); }},
      {"minmag", [&](size_t i, int, float got) { return magnitudeOk(got, x[i], y[i], false); }},
      {"modf", [&](size_t i, int, float got) { return sameFloat(got, modfParts(x[i]).first); }},
      {"modf's whole part", [&](size_t i, int, float got) { return sameFloat(got, modfParts(x[i]).second); }},
      {"fract", [&](size_t i, int, float got) { return sameFloat(got, fractParts(x[i]).first); }},
      {"fract's floor", [&](size_t i, int, float got) { return sameFloat(got, fractParts(x[i]).second); }},
      {"lgamma", [&](size_t i, int, float got) { return lgammaOk(x[i], got); }},
      {"lgamma_r", [&](size_t i, int, float got) { return lgammaOk(x[i], got); }},
      // A quiet NaN (the code may be in its significand).
      {"nan", [&](size_t, int, float got) { return std::isnan(got) && (bitsOf(got) & 0x400000u); }},
  };
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    // The outputs, then lgamma_r's int signs (as float bits).
    const auto out = run<float>(target, "math_exact", {bytesOf(x), bytesOf(y)}, {checks.size() * n, n}, n);
    const std::vector<float> floats(out.begin(), out.begin() + checks.size() * n);
    checkOutputs(floats, n, 1, checks, [&](size_t i, int) { return text(x[i], ", ", y[i]); });
    // lgamma and lgamma_r are one function; lgamma_r's sign is that of gamma(x) where x is not a pole.
    checkAll(
        n, [&](size_t i) { return sameFloat(floats[6 * n + i], floats[7 * n + i]); },
        [&](size_t i) { return text("lgamma ", floats[6 * n + i], " and lgamma_r ", floats[7 * n + i], " of ", x[i]); });
    checkAll(
        n,
        [&](size_t i) {
          const float v = x[i];
          if (!std::isfinite(v) || (v <= 0 && v == std::floor(v)))
            return true;
          const int sign = bitsOf(out[checks.size() * n + i]);
          return sign == (v > 0 || int64_t(std::floor(v)) % 2 == 0 ? 1 : -1);
        },
        [&](size_t i) { return text("lgamma_r's sign of ", x[i], ": ", int(bitsOf(out[checks.size() * n + i]))); });
  }
}

TEST_CASE("half_ variants of exp, log, sin, cos, sqrt, rsqrt, recip, divide, powr within 8192 ulps on their domains",
          "[e2e][board][library]") {
  checkVariants("half_math", 8192);
}

// native_ accuracy is the implementation's (section 6.15.2.1). We hold them to what makes them the
// same functions at all: finite where the function is, and within half_'s 8192 ulps (2^-10 relative,
// a half's own precision) on half_'s domains; a result off by more is another function.
TEST_CASE("native_ variants of exp, log, sin, cos, sqrt, rsqrt, recip, divide, powr: finite, within 8192 ulps",
          "[e2e][board][library]") {
  checkVariants("native_math", 8192);
}
