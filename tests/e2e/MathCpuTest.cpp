// SPDX-License-Identifier: Apache-2.0
// The math and relational builtins on the CPU device, through the ICD loader: every function on
// float and on float4 (so the vector forms are tested too), over random inputs and the awkward ones
// (zeros, infinities, NaN, a denormal, the largest float, halves and integers for the *pi
// functions), against the host: bit for bit where the device uses the C library (the same glibc) or
// the same double computation (within the spec's ULP bounds those with libmvec versions,
// runtime/devices/cpu/CpuProgram.cpp: vectorised, they are libmvec's, and log, log1p and cbrt, the
// float-arithmetic library's: checked vectorised, and over every denormal region), the relational functions
// exactly (1 for a true scalar, -1 for a true vector lane), and the functions with a pointer
// operand through __global and private pointers; then vector loads and stores, half-precision loads
// and stores (every half, every rounding mode, against the host's F16C conversions), remquo's seven
// quotient bits, a relaxed divide's bound, shuffle and shuffle2, the conversions (plain, saturated,
// with rounding modes), the common, geometric and integer functions.
#include "DifferentialSupport.h"
#include "TemporaryCacheDirectory.h"
#include "UlpError.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

using namespace e2e;

namespace {

struct FloatCase {
  const char *expression; ///< Of x and y (and n, an int), in OpenCL C.
  float (*host)(float x, float y, int n);
  /// For the functions the device may compute with libmvec's vector versions (in a loop it
  /// vectorises), and log, log1p and cbrt (the float-arithmetic library's): the spec's bound in ULPs
  /// against `reference`, instead of the host's bits (its special values still).
  double ulps = 0;
  double (*reference)(double x, double y) = nullptr;
};

constexpr double Pi = 3.14159265358979323846;

const FloatCase FloatCases[] = {
    {"acos(x)", [](float x, float, int) { return acosf(x); }, 4, [](double x, double) { return std::acos(x); }},
    {"acosh(x)", [](float x, float, int) { return acoshf(x); }, 4, [](double x, double) { return std::acosh(x); }},
    {"asin(x)", [](float x, float, int) { return asinf(x); }, 4, [](double x, double) { return std::asin(x); }},
    {"asinh(x)", [](float x, float, int) { return asinhf(x); }, 4, [](double x, double) { return std::asinh(x); }},
    {"atan(x)", [](float x, float, int) { return atanf(x); }, 5, [](double x, double) { return std::atan(x); }},
    {"atanh(x)", [](float x, float, int) { return atanhf(x); }, 5, [](double x, double) { return std::atanh(x); }},
    {"cbrt(x)", [](float x, float, int) { return cbrtf(x); }, 2, [](double x, double) { return std::cbrt(x); }},
    {"ceil(x)", [](float x, float, int) { return ceilf(x); }},
    {"cos(x)", [](float x, float, int) { return cosf(x); }, 4, [](double x, double) { return std::cos(x); }},
    {"cosh(x)", [](float x, float, int) { return coshf(x); }, 4, [](double x, double) { return std::cosh(x); }},
    {"erfc(x)", [](float x, float, int) { return erfcf(x); }, 16, [](double x, double) { return std::erfc(x); }},
    {"erf(x)", [](float x, float, int) { return erff(x); }, 16, [](double x, double) { return std::erf(x); }},
    {"exp(x)", [](float x, float, int) { return expf(x); }, 3, [](double x, double) { return std::exp(x); }},
    {"exp2(x)", [](float x, float, int) { return exp2f(x); }, 3, [](double x, double) { return std::exp2(x); }},
    {"exp10(x)", [](float x, float, int) { return exp10f(x); }, 3, [](double x, double) { return std::pow(10.0, x); }},
    {"expm1(x)", [](float x, float, int) { return expm1f(x); }, 3, [](double x, double) { return std::expm1(x); }},
    {"floor(x)", [](float x, float, int) { return floorf(x); }},
    {"lgamma(x)", [](float x, float, int) { int sign; return lgammaf_r(x, &sign); }},
    {"log(x)", [](float x, float, int) { return logf(x); }, 3, [](double x, double) { return std::log(x); }},
    {"log2(x)", [](float x, float, int) { return log2f(x); }, 3, [](double x, double) { return std::log2(x); }},
    {"log10(x)", [](float x, float, int) { return log10f(x); }, 3, [](double x, double) { return std::log10(x); }},
    {"log1p(x)", [](float x, float, int) { return log1pf(x); }, 2, [](double x, double) { return std::log1p(x); }},
    {"logb(x)", [](float x, float, int) { return logbf(x); }},
    {"rint(x)", [](float x, float, int) { return rintf(x); }},
    {"round(x)", [](float x, float, int) { return roundf(x); }},
    {"sin(x)", [](float x, float, int) { return sinf(x); }, 4, [](double x, double) { return std::sin(x); }},
    {"sinh(x)", [](float x, float, int) { return sinhf(x); }, 4, [](double x, double) { return std::sinh(x); }},
    {"tan(x)", [](float x, float, int) { return tanf(x); }, 5, [](double x, double) { return std::tan(x); }},
    {"tanh(x)", [](float x, float, int) { return tanhf(x); }, 5, [](double x, double) { return std::tanh(x); }},
    {"tgamma(x)", [](float x, float, int) { return tgammaf(x); }},
    {"trunc(x)", [](float x, float, int) { return truncf(x); }},
    {"atan2(x, y)", [](float x, float y, int) { return atan2f(x, y); }, 6,
     [](double x, double y) { return std::atan2(x, y); }},
    {"fdim(x, y)", [](float x, float y, int) { return fdimf(x, y); }},
    {"fmod(x, y)", [](float x, float y, int) { return fmodf(x, y); }},
    {"hypot(x, y)", [](float x, float y, int) { return hypotf(x, y); }, 4,
     [](double x, double y) { return std::hypot(x, y); }},
    {"nextafter(x, y)", [](float x, float y, int) { return nextafterf(x, y); }},
    {"pow(x, y)", [](float x, float y, int) { return powf(x, y); }, 16,
     [](double x, double y) { return std::pow(x, y); }},
    {"remainder(x, y)", [](float x, float y, int) { return remainderf(x, y); }},
    {"fma(x, y, x)", [](float x, float y, int) { return fmaf(x, y, x); }},
    {"pown(x, n)", [](float x, float, int n) {
       const float magnitude = float(std::pow(std::fabs(double(x)), double(n)));
       return n % 2 ? std::copysign(magnitude, x) : magnitude;
     }},
    {"rootn(x, n)", [](float x, float, int n) {
       if (n == 0 || (x < 0.0f && n % 2 == 0))
         return NAN;
       const float root = float(std::pow(std::fabs(double(x)), 1.0 / n));
       return n % 2 ? std::copysign(root, x) : root;
     }},
    {"powr(x, y)", [](float x, float y, int) {
       if (x < 0.0f || std::isnan(x) || std::isnan(y) || (x == 0.0f && y == 0.0f) || (std::isinf(x) && y == 0.0f) ||
           (x == 1.0f && std::isinf(y)))
         return NAN;
       return x == 0.0f ? (y < 0.0f ? INFINITY : 0.0f) : powf(x, y);
     }},
    {"ldexp(x, n)", [](float x, float, int n) { return ldexpf(x, n); }},
    {"native_exp(x)", [](float x, float, int) { return expf(x); }, 3, [](double x, double) { return std::exp(x); }},
    {"half_log(x)", [](float x, float, int) { return logf(x); }, 3, [](double x, double) { return std::log(x); }},
    {"native_divide(x, y)", [](float x, float y, int) { return x / y; }},
    {"native_recip(x)", [](float x, float, int) { return 1.0f / x; }},
    {"rsqrt(x)", [](float x, float, int) { return float(1.0 / std::sqrt(double(x))); }},
    // The *pi functions: exact zeros and infinities where the spec gives them (OpenCL C 7.5.1).
    {"sinpi(x)", [](float x, float, int) {
       const float r = x - 2.0f * rintf(0.5f * x);
       return r == rintf(r) ? std::copysign(0.0f, x) : float(std::sin(Pi * double(r)));
     }},
    {"cospi(x)", [](float x, float, int) {
       const float r = x - 2.0f * rintf(0.5f * x);
       return std::fabs(r) == 0.5f ? 0.0f : float(std::cos(Pi * double(r)));
     }},
    {"tanpi(x)", [](float x, float, int) {
       const float r = x - 2.0f * rintf(0.5f * x);
       if (r == rintf(r))
         return std::copysign(0.0f, r == 0.0f ? x : -x);
       return std::fabs(r) == 0.5f ? std::copysign(INFINITY, r) : float(std::tan(Pi * double(r)));
     }},
    {"atan2pi(x, y)", [](float x, float y, int) { return float(std::atan2(double(x), double(y)) / Pi); }},
    {"maxmag(x, y)", [](float x, float y, int) {
       return std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : fmaxf(x, y);
     }},
    {"minmag(x, y)", [](float x, float y, int) {
       return std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : fminf(x, y);
     }},
    {"frexp(x, &e)", [](float x, float, int) { int e; return frexpf(x, &e); }},
};

struct IntCase {
  const char *expression; ///< Of x and y, giving an int (a scalar) or an int4 (a vector).
  bool (*host)(float x, float y);
};

const IntCase IntCases[] = {
    {"isnan(x)", [](float x, float) { return std::isnan(x); }},
    {"isinf(x)", [](float x, float) { return std::isinf(x); }},
    {"isfinite(x)", [](float x, float) { return std::isfinite(x); }},
    {"isnormal(x)", [](float x, float) { return std::isnormal(x); }},
    {"signbit(x)", [](float x, float) { return std::signbit(x); }},
    {"isequal(x, y)", [](float x, float y) { return x == y; }},
    {"isnotequal(x, y)", [](float x, float y) { return x != y; }},
    {"isgreater(x, y)", [](float x, float y) { return std::isgreater(x, y); }},
    {"islessequal(x, y)", [](float x, float y) { return std::islessequal(x, y); }},
    {"islessgreater(x, y)", [](float x, float y) { return std::islessgreater(x, y); }},
    {"isordered(x, y)", [](float x, float y) { return !std::isunordered(x, y); }},
    {"isunordered(x, y)", [](float x, float y) { return std::isunordered(x, y); }},
};

/// One kernel on T (float or float4) and its int type: every case, each into its own output row.
std::string kernelSource(const char *name, const char *type, const char *intType) {
  std::ostringstream source;
  source << "__kernel void " << name << "(__global const " << type << " *a, __global const " << type
         << " *b, __global const " << intType << " *ns, __global " << type << " *out, __global " << intType
         << " *flags) {\n  size_t i = get_global_id(0), rows = get_global_size(0);\n  " << type
         << " x = a[i], y = b[i];\n  " << intType << " e, n_ = ns[i];\n#define n n_\n";
  for (size_t c = 0; c < std::size(FloatCases); ++c)
    source << "  out[" << c << " * rows + i] = " << FloatCases[c].expression << ";\n";
  for (size_t c = 0; c < std::size(IntCases); ++c)
    source << "  flags[" << c << " * rows + i] = " << IntCases[c].expression << ";\n";
  source << "#undef n\n}\n";
  return source.str();
}

bool sameFloat(float got, float want) {
  return (std::isnan(got) && std::isnan(want)) || std::memcmp(&got, &want, sizeof got) == 0;
}

/// Whether the device's `got` is right for `floatCase` at (x, y), where the host gives `want`: the
/// host's bits, or for a case with a bound, within it and with the host's special values (NaN, an
/// infinity, a zero's sign).
bool matches(const FloatCase &floatCase, float x, float y, float got, float want) {
  if (!floatCase.reference)
    return sameFloat(got, want);
  if (std::isnan(want) || std::isinf(want) || std::isnan(got) || std::isinf(got))
    return sameFloat(got, want);
  if (got == 0.0f && want == 0.0f)
    return std::signbit(got) == std::signbit(want);
  return loom::test::ulpError(got, floatCase.reference(x, y)) <= floatCase.ulps;
}

/// The operands x and y: the awkward values, then random ones in [-20, 20], 1024 in all.
std::pair<std::vector<float>, std::vector<float>> operands(unsigned seed) {
  std::vector<float> x = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, std::numeric_limits<float>::max(),
                          0.5f, -0.5f, 1.0f, -1.0f, 2.5f, -3.0f, 1e6f, 88.7f, -104.0f,
                          1.5f, -2.0f, -0.0f, -0.0f};
  std::vector<float> y = {1.0f, -2.0f, 3.0f, NAN, 0.5f, -0.0f, 2.0f, INFINITY, 1.0f, -1.0f, 0.0f, 7.0f, 2.0f,
                          1e-3f, -8.0f, 4.0f, 0.5f, 3.0f, -1.0f, 1.0f};
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> wide(-20.0f, 20.0f);
  while (x.size() < 1024) {
    x.push_back(wide(random));
    y.push_back(wide(random));
  }
  return {x, y};
}

void check(const char *name, unsigned lanes) {
  CpuSetup cl;
  cl_program program = cl.build(kernelSource(name, lanes == 1 ? "float" : "float4", lanes == 1 ? "int" : "int4"));
  const auto [x, y] = operands(lanes);
  std::vector<int> ns(x.size());
  for (size_t i = 0; i < ns.size(); ++i)
    ns[i] = int(i % 11) - 5;
  const size_t items = x.size() / lanes, count = x.size();
  cl_mem a = buffer(cl, x, CL_MEM_COPY_HOST_PTR), b = buffer(cl, y, CL_MEM_COPY_HOST_PTR),
         n = buffer(cl, ns, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<float>(std::size(FloatCases) * count), CL_MEM_WRITE_ONLY);
  cl_mem flags = buffer(cl, std::vector<int>(std::size(IntCases) * count), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, name);
  setArg(kernel, 0, a);
  setArg(kernel, 1, b);
  setArg(kernel, 2, n);
  setArg(kernel, 3, out);
  setArg(kernel, 4, flags);
  clReleaseEvent(launch(cl, kernel, {{items}}));
  auto floats = readBack<float>(cl, out, std::size(FloatCases) * count);
  auto ints = readBack<int>(cl, flags, std::size(IntCases) * count);
  for (size_t c = 0; c < std::size(FloatCases); ++c)
    for (size_t i = 0; i < count; ++i) {
      float want = FloatCases[c].host(x[i], y[i], ns[i]), got = floats[c * count + i];
      INFO(FloatCases[c].expression << " with x = " << x[i] << ", y = " << y[i] << ", n = " << ns[i] << " on "
                                    << (lanes == 1 ? "float" : "float4") << ": got " << got << ", want " << want);
      CHECK(matches(FloatCases[c], x[i], y[i], got, want));
    }
  const int isTrue = lanes == 1 ? 1 : -1;
  for (size_t c = 0; c < std::size(IntCases); ++c)
    for (size_t i = 0; i < count; ++i) {
      INFO(IntCases[c].expression << " with x = " << x[i] << ", y = " << y[i]);
      CHECK(ints[c * count + i] == (IntCases[c].host(x[i], y[i]) ? isTrue : 0));
    }
  for (cl_mem mem : {a, b, n, out, flags})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

} // namespace

TEST_CASE("math and relational builtins on float match the host", "[e2e][builtins]") { check("scalar", 1); }

TEST_CASE("math and relational builtins on float4 match the host lane by lane", "[e2e][builtins]") {
  check("vector", 4);
}

TEST_CASE("the functions with libmvec versions, each in a loop the vectoriser widens, are within their bounds",
          "[e2e][builtins]") {
  // The kernels above compute every case in one loop, which the vectoriser leaves scalar (too many
  // stores to check for overlap): here each case with a bound has its own kernel, which calls
  // libmvec's version.
  CpuSetup cl;
  std::ostringstream source;
  std::vector<size_t> bounded;
  for (size_t c = 0; c < std::size(FloatCases); ++c)
    if (FloatCases[c].reference) {
      bounded.push_back(c);
      source << "__kernel void bounded" << c << "(__global const float *a, __global const float *b, "
             << "__global float *out) {\n  size_t i = get_global_id(0);\n  float x = a[i], y = b[i];\n  out[i] = "
             << FloatCases[c].expression << ";\n}\n";
    }
  cl_program program = cl.build(source.str());
  const auto [x, y] = operands(1);
  cl_mem a = buffer(cl, x, CL_MEM_COPY_HOST_PTR), b = buffer(cl, y, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<float>(x.size()), CL_MEM_WRITE_ONLY);
  for (size_t c : bounded) {
    cl_kernel kernel = kernelNamed(program, ("bounded" + std::to_string(c)).c_str());
    setArg(kernel, 0, a);
    setArg(kernel, 1, b);
    setArg(kernel, 2, out);
    clReleaseEvent(launch(cl, kernel, {{x.size()}}));
    auto results = readBack<float>(cl, out, x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      float want = FloatCases[c].host(x[i], y[i], 0), got = results[i];
      INFO(FloatCases[c].expression << " with x = " << x[i] << ", y = " << y[i] << ": got " << got << ", want "
                                    << want);
      CHECK(matches(FloatCases[c], x[i], y[i], got, want));
    }
    clReleaseKernel(kernel);
  }
  for (cl_mem mem : {a, b, out})
    clReleaseMemObject(mem);
  clReleaseProgram(program);
}

namespace {

/// The machine code the CPU device generated for `source` (one kernel, `probe`, of a, b and out,
/// launched over 4096 work-items): the object file its first launch leaves in the program cache,
/// here a directory of its own.
std::string generatedObject(CpuSetup &cl, const TemporaryCacheDirectory &cache, const std::string &source) {
  const std::vector<std::string> listed = cache.objects();
  const std::set<std::string> before(listed.begin(), listed.end());
  cl_program program = cl.build(source);
  const std::vector<float> ones(4096, 1.0f);
  cl_mem a = buffer(cl, ones, CL_MEM_COPY_HOST_PTR), b = buffer(cl, ones, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<float>(ones.size()), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "probe");
  setArg(kernel, 0, a);
  setArg(kernel, 1, b);
  setArg(kernel, 2, out);
  clReleaseEvent(launch(cl, kernel, {{ones.size()}}));
  for (cl_mem mem : {a, b, out})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  std::vector<std::string> added;
  for (const std::string &path : cache.objects())
    if (!before.count(path))
      added.push_back(path);
  REQUIRE(added.size() == 1);
  std::ifstream file(added[0], std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

/// Every 61st denormal of each sign, the normals around FLT_MIN, random bit patterns, and the
/// awkward values: infinities, NaN, signed zeros, -1 and just around it (log1p), 1, the largest
/// float; a multiple of 4 (the float4 kernel's lanes).
std::vector<float> denormalSample() {
  std::vector<float> x = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, std::nextafter(-1.0f, 0.0f),
                          std::nextafter(-1.0f, -2.0f), std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(), FLT_MIN, -FLT_MIN, 0x1p-24f, -0x1p-24f,
                          0x1.fffffep-25f, 8.0f, -27.0f, 0.125f};
  auto fromBits = [](uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  };
  for (uint32_t bits = 1; bits < 0x00800000u; bits += 61) {
    x.push_back(fromBits(bits));
    x.push_back(fromBits(bits | 0x80000000u));
  }
  for (uint32_t bits = 0x00800000u; bits < 0x00810000u; bits += 7)
    x.push_back(fromBits(bits));
  std::mt19937 random(29);
  for (int k = 0; k < (1 << 18); ++k)
    x.push_back(fromBits(uint32_t(random())));
  while (x.size() % 4)
    x.push_back(2.0f);
  return x;
}

} // namespace

TEST_CASE("log, log1p and cbrt vectorise, within their bounds with denormals, with the C library's special values",
          "[e2e][builtins]") {
  // The CPU device computes them with the float-arithmetic library (builtins/math.cl), which the loop
  // vectoriser widens, where a call to glibc's logf, log1pf or cbrtf would keep the loop scalar. The
  // witness: exp beside them in the loop becomes a call to libmvec's vector exp (_ZGV*v_expf), which
  // it is only in a widened loop; tgamma (glibc's scalar tgammaf) shows a loop that is not.
  TemporaryCacheDirectory cache;
  {
    CpuSetup cl;
    auto probe = [&](const std::string &call) {
      return generatedObject(cl, cache,
                             "__kernel void probe(__global const float *a, __global const float *b, __global float "
                             "*out) {\n  size_t i = get_global_id(0);\n  out[i] = " + call + " + exp(b[i]);\n}\n");
    };
    // A symbol's name in the object's string table, NUL-terminated (and after a NUL: a whole name).
    auto has = [](const std::string &object, const std::string &name, bool whole) {
      return object.find((whole ? std::string(1, '\0') : std::string()) + name + '\0') != std::string::npos;
    };
    for (const char *function : {"log", "log1p", "cbrt"}) {
      const std::string object = probe(std::string(function) + "(a[i])");
      INFO(function << ": " << object.size() << " bytes of object code");
      CHECK(has(object, "v_expf", false));                       // the loop is widened
      CHECK_FALSE(has(object, std::string(function) + "f", true)); // and calls no logf, log1pf, cbrtf
    }
    const std::string scalarLoop = probe("tgamma(a[i])");
    CHECK_FALSE(has(scalarLoop, "v_expf", false));
    CHECK(has(scalarLoop, "tgammaf", true));

    // Precision and special values, scalar and float4 (lane by lane).
    const std::vector<float> x = denormalSample();
    cl_program program = cl.build(R"(
__kernel void scalars(__global const float *x, __global float *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = log(x[i]);
  out[n + i] = log1p(x[i]);
  out[2 * n + i] = cbrt(x[i]);
}
__kernel void vectors(__global const float4 *x, __global float4 *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[i] = log(x[i]);
  out[n + i] = log1p(x[i]);
  out[2 * n + i] = cbrt(x[i]);
})");
    cl_mem in = buffer(cl, x, CL_MEM_COPY_HOST_PTR);
    cl_mem out = buffer(cl, std::vector<float>(3 * x.size()), CL_MEM_WRITE_ONLY);
    const char *cases[] = {"log(x)", "log1p(x)", "cbrt(x)"};
    for (const char *kernelName : {"scalars", "vectors"}) {
      cl_kernel kernel = kernelNamed(program, kernelName);
      setArg(kernel, 0, in);
      setArg(kernel, 1, out);
      const size_t items = kernelName[0] == 's' ? x.size() : x.size() / 4;
      clReleaseEvent(launch(cl, kernel, {{items}}));
      const auto results = readBack<float>(cl, out, 3 * x.size());
      for (size_t f = 0; f < 3; ++f) {
        const FloatCase &floatCase =
            *std::find_if(std::begin(FloatCases), std::end(FloatCases),
                          [&](const FloatCase &c) { return std::strcmp(c.expression, cases[f]) == 0; });
        REQUIRE(floatCase.reference != nullptr);
        size_t wrong = 0;
        double worst = 0;
        for (size_t i = 0; i < x.size(); ++i) {
          const float got = results[f * x.size() + i], want = floatCase.host(x[i], 0.0f, 0);
          if (std::isfinite(got) && got != 0.0f)
            worst = std::max(worst, loom::test::ulpError(got, floatCase.reference(x[i], 0.0)));
          if (!matches(floatCase, x[i], 0.0f, got, want) && wrong++ < 10)
            FAIL_CHECK(cases[f] << " (" << kernelName << ") with x = " << std::hexfloat << x[i] << ": got " << got
                                << ", want " << want << " (" << std::defaultfloat
                                << loom::test::ulpError(got, floatCase.reference(x[i], 0.0)) << " ULP)");
        }
        INFO(cases[f] << " (" << kernelName << "): worst " << worst << " ULP of " << floatCase.ulps);
        CHECK(wrong == 0);
        CHECK(worst <= floatCase.ulps);
      }
      clReleaseKernel(kernel);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseProgram(program);
  }
}

TEST_CASE("pointer operands in every address space, any, all and bitselect", "[e2e][builtins]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void pointers(__global const float4 *a, __global float4 *out, __global int4 *exps, __global int *flags) {
  size_t i = get_global_id(0);
  float4 x = a[i], whole, c;
  __local float staged[1];
  float part;
  out[6 * i] = frexp(x, exps + i);
  out[6 * i + 1] = modf(x, &whole);
  out[6 * i + 2] = whole;
  out[6 * i + 3] = sincos(x, &c);
  out[6 * i + 4] = c;
  float s = sincos(x.x, staged);
  out[6 * i + 5] = (float4)(s, staged[0], fract(x.z, &part), part);
  int4 m = as_int4(x);
  flags[3 * i] = any(m);
  flags[3 * i + 1] = all(m);
  flags[3 * i + 2] = as_int(bitselect(x.x, x.y, as_float(0x0f0f0f0f)));
})");
  const std::vector<float> x = {-1.5f, 2.25f, -0.0f, 100.0f, 3.75f, -7.5f, -0.25f, -1e-3f, 8.0f, 0.5f, 1.0f, 2.0f};
  const size_t items = x.size() / 4;
  cl_mem a = buffer(cl, x, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<float>(6 * x.size()), CL_MEM_WRITE_ONLY);
  cl_mem exps = buffer(cl, std::vector<int>(x.size()), CL_MEM_WRITE_ONLY);
  cl_mem flags = buffer(cl, std::vector<int>(3 * items), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "pointers");
  setArg(kernel, 0, a);
  setArg(kernel, 1, out);
  setArg(kernel, 2, exps);
  setArg(kernel, 3, flags);
  clReleaseEvent(launch(cl, kernel, {{items}}));
  auto values = readBack<float>(cl, out, 6 * x.size());
  auto exponents = readBack<int>(cl, exps, x.size());
  auto bits = readBack<int>(cl, flags, 3 * items);
  for (size_t item = 0; item < items; ++item) {
    const float *v = &x[4 * item], *o = &values[24 * item];
    bool anyNegative = false, allNegative = true;
    for (int lane = 0; lane < 4; ++lane) {
      INFO("work-item " << item << ", lane " << lane);
      int e;
      CHECK(o[lane] == frexpf(v[lane], &e));
      CHECK(exponents[4 * item + lane] == e);
      float whole;
      CHECK(sameFloat(o[4 + lane], modff(v[lane], &whole)));
      CHECK(o[8 + lane] == whole);
      CHECK(o[12 + lane] == sinf(v[lane]));
      CHECK(o[16 + lane] == cosf(v[lane]));
      anyNegative |= std::signbit(v[lane]);
      allNegative &= std::signbit(v[lane]);
    }
    CHECK(o[20] == sinf(v[0]));
    CHECK(o[21] == cosf(v[0]));
    CHECK(o[22] == v[2] - floorf(v[2]));
    CHECK(o[23] == floorf(v[2]));
    CHECK(bits[3 * item] == int(anyNegative));
    CHECK(bits[3 * item + 1] == int(allNegative));
    uint32_t first, second;
    std::memcpy(&first, &v[0], 4);
    std::memcpy(&second, &v[1], 4);
    CHECK(uint32_t(bits[3 * item + 2]) == ((first & ~0x0f0f0f0fu) | (second & 0x0f0f0f0fu)));
  }
  for (cl_mem mem : {a, out, exps, flags})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("remquo gives the quotient's sign and seven low bits", "[e2e][builtins]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void quotients(__global const float4 *x, __global const float4 *y, __global float4 *r, __global int4 *q,
                        __global float *r1, __global int *q1) {
  size_t i = get_global_id(0);
  r[i] = remquo(x[i], y[i], q + i);
  int scalar;
  r1[i] = remquo(x[i].x, y[i].x, &scalar);
  q1[i] = scalar;
})");
  // Ties to even (2.5 y, 3.5 y), a quotient past 7 bits (1000 y: 104), signs, zeros, the specials,
  // then random operands a few powers of two apart.
  std::vector<float> x = {2.5f, 3.5f, -1000.0f, 1000.0f, -0.0f, 5.0f, INFINITY, 7.0f, 1e15f, 0x1p127f, -6.0f, 1.0f};
  std::vector<float> y = {1.0f, 1.0f, 1.0f, -0.125f, 3.0f, 0.0f, 2.0f, INFINITY, 3e-3f, 0x1.8p121f, -2.5f, NAN};
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  while (x.size() < 4096) {
    x.push_back(std::ldexp(mantissa(rng), int(rng() % 40) - 20) * (rng() % 2 ? 1.0f : -1.0f));
    y.push_back(std::ldexp(mantissa(rng), int(rng() % 16) - 8) * (rng() % 2 ? 1.0f : -1.0f));
  }
  const size_t items = x.size() / 4;
  cl_mem dx = buffer(cl, x, CL_MEM_COPY_HOST_PTR), dy = buffer(cl, y, CL_MEM_COPY_HOST_PTR);
  cl_mem dr = buffer(cl, std::vector<float>(x.size()), CL_MEM_WRITE_ONLY);
  cl_mem dq = buffer(cl, std::vector<int>(x.size()), CL_MEM_WRITE_ONLY);
  cl_mem dr1 = buffer(cl, std::vector<float>(items), CL_MEM_WRITE_ONLY);
  cl_mem dq1 = buffer(cl, std::vector<int>(items), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "quotients");
  for (cl_uint k = 0; k < 6; ++k)
    setArg(kernel, k, std::array<cl_mem, 6>{dx, dy, dr, dq, dr1, dq1}[k]);
  clReleaseEvent(launch(cl, kernel, {{items}}));
  const auto r = readBack<float>(cl, dr, x.size()), r1 = readBack<float>(cl, dr1, items);
  const auto q = readBack<int>(cl, dq, x.size()), q1 = readBack<int>(cl, dq1, items);
  // The reference: remainderf's remainder (exact), the quotient (x - r) / y exactly in long double
  // (these quotients stay far below 2^64).
  auto expectedQuotient = [](float a, float b, float rem) {
    if (std::isnan(rem) || std::isinf(b))
      return 0;
    const long double quotient = std::fabs(((long double)a - rem) / b);
    return int(std::fmod(quotient, 128.0L)) * (std::signbit(a) != std::signbit(b) ? -1 : 1);
  };
  const int fixedQuotients[] = {2, 4, -104, -64, 0, 0, 0, 0};
  for (size_t k = 0; k < x.size(); ++k) {
    INFO("remquo(" << x[k] << ", " << y[k] << ")");
    const float want = remainderf(x[k], y[k]);
    CHECK(sameFloat(r[k], want));
    CHECK(q[k] == expectedQuotient(x[k], y[k], want));
    if (k < std::size(fixedQuotients))
      CHECK(q[k] == fixedQuotients[k]);
    if (k % 4 == 0) {
      CHECK(sameFloat(r1[k / 4], want));
      CHECK(q1[k / 4] == q[k]);
    }
  }
  for (cl_mem mem : {dx, dy, dr, dq, dr1, dq1})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("a relaxed divide stays within 2.5 ulp", "[e2e][builtins]") {
  // -cl-fast-relaxed-math allows 2.5 ulp (OpenCL C 7.4); a vectorised divide by an estimated
  // reciprocal with one refinement step would give up to 3.
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void quotients(__global const float *x, __global const float *y, __global float *q) {
  size_t i = get_global_id(0);
  q[i] = x[i] / y[i];
})", "-cl-fast-relaxed-math");
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::vector<float> x(1 << 16), y(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    x[k] = std::ldexp(mantissa(rng), int(rng() % 60) - 30);
    y[k] = std::ldexp(mantissa(rng), int(rng() % 60) - 30) * (k % 2 ? -1.0f : 1.0f);
  }
  cl_mem dx = buffer(cl, x, CL_MEM_COPY_HOST_PTR), dy = buffer(cl, y, CL_MEM_COPY_HOST_PTR);
  cl_mem dq = buffer(cl, std::vector<float>(x.size()), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "quotients");
  setArg(kernel, 0, dx);
  setArg(kernel, 1, dy);
  setArg(kernel, 2, dq);
  clReleaseEvent(launch(cl, kernel, {{x.size()}}));
  const auto q = readBack<float>(cl, dq, x.size());
  double worst = 0;
  for (size_t k = 0; k < x.size(); ++k)
    worst = std::max(worst, loom::test::ulpError(q[k], double(x[k]) / double(y[k])));
  CHECK(worst <= 2.5);
  for (cl_mem mem : {dx, dy, dq})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_CASE("vector loads and stores, conversions plain, saturated and rounded", "[e2e][builtins]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void data(__global const float *f, __global const int *n, __global float *fo, __global int *io,
                   __global uchar *uo, __global short *so, __global uint *ui) {
  size_t g = get_global_id(0);
  float4 v = vload4(g, f);
  float3 w = vload3(g, f + 1);
  float copy[8];
  vstore8(vload8(0, f + 4 * g), 0, copy);
  vstore4(v * 2.0f, g, fo);
  vstore3(w, g, fo + 1024);
  fo[2048 + g] = copy[7];
  vstore4(convert_int4(v), g, io);
  vstore4(convert_int4_rte(v), g, io + 1024);
  vstore4(convert_int4_rtp(v), g, io + 2048);
  vstore4(convert_int4_sat_rtn(v), g, io + 3072);
  vstore4(convert_uchar4_sat(v), g, uo);
  int4 m = vload4(g, n);
  vstore4(convert_short4_sat(m), g, so);
  vstore4(convert_uint4_sat(m), g, ui);
  vstore4(convert_float4(m), g, fo + 3072);
  io[4096 + g] = convert_int_sat(v.x * 1e8f);
})");
  const size_t items = 200;
  std::vector<float> f(4 * items + 8);
  std::vector<int> n(4 * items);
  std::mt19937 random(3);
  std::uniform_real_distribution<float> values(-300.0f, 300.0f);
  std::uniform_int_distribution<int> ints(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  for (size_t k = 0; k < f.size(); ++k)
    f[k] = k % 5 == 0 ? float(int(k % 41) - 20) + 0.5f : values(random); // Halves test rounding to even.
  for (int &value : n)
    value = ints(random) >> (value & 3) * 8;
  f[0] = NAN;
  cl_mem fin = buffer(cl, f, CL_MEM_COPY_HOST_PTR), nin = buffer(cl, n, CL_MEM_COPY_HOST_PTR);
  cl_mem fo = buffer(cl, std::vector<float>(4096), CL_MEM_WRITE_ONLY);
  cl_mem io = buffer(cl, std::vector<int>(4096 + items), CL_MEM_WRITE_ONLY);
  cl_mem uo = buffer(cl, std::vector<uint8_t>(1024), CL_MEM_WRITE_ONLY);
  cl_mem so = buffer(cl, std::vector<int16_t>(1024), CL_MEM_WRITE_ONLY);
  cl_mem ui = buffer(cl, std::vector<uint32_t>(1024), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "data");
  cl_mem args[] = {fin, nin, fo, io, uo, so, ui};
  for (cl_uint a = 0; a < 7; ++a)
    setArg(kernel, a, args[a]);
  clReleaseEvent(launch(cl, kernel, {{items}}));
  auto floats = readBack<float>(cl, fo, 4096);
  auto integers = readBack<int>(cl, io, 4096 + items);
  auto bytes = readBack<uint8_t>(cl, uo, 1024);
  auto shorts = readBack<int16_t>(cl, so, 1024);
  auto unsigneds = readBack<uint32_t>(cl, ui, 1024);
  auto saturate = [](double value, double low, double high) {
    return std::isnan(value) ? 0.0 : std::min(std::max(value, low), high);
  };
  for (size_t g = 0; g < items; ++g) {
    INFO("work-item " << g);
    CHECK(sameFloat(floats[2048 + g], f[4 * g + 7]));
    CHECK(sameFloat(integers[4096 + g] == 0 && std::isnan(f[4 * g]) ? 0.0f : float(integers[4096 + g]),
                    float(int(saturate(double(f[4 * g] * 1e8f), -2147483648.0, 2147483647.0)))));
    for (int lane = 0; lane < 4; ++lane) {
      const size_t k = 4 * g + lane;
      const float x = f[k];
      INFO("lane " << lane << ", x = " << x << ", n = " << n[k]);
      CHECK(sameFloat(floats[k], x * 2.0f));
      if (lane < 3)
        CHECK(sameFloat(floats[1024 + 3 * g + lane], f[1 + 3 * g + lane]));
      if (!std::isnan(x)) {
        CHECK(integers[k] == int(std::trunc(x)));
        CHECK(integers[1024 + k] == int(std::nearbyint(x)));
        CHECK(integers[2048 + k] == int(std::ceil(x)));
        CHECK(integers[3072 + k] == int(std::floor(x)));
      } else {
        CHECK(integers[3072 + k] == 0);
      }
      CHECK(bytes[k] == uint8_t(saturate(std::trunc(double(x)), 0, 255)));
      CHECK(shorts[k] == int16_t(saturate(double(n[k]), -32768, 32767)));
      CHECK(unsigneds[k] == uint32_t(std::max(n[k], 0)));
      CHECK(floats[3072 + k] == float(n[k]));
    }
  }
  for (cl_mem mem : args)
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

namespace {

// The host's F16C conversions, the reference for the library's integer ones: imm 0 = to nearest even,
// 1 = down, 2 = up, 3 = toward zero (8: exceptions suppressed).
template <int Mode> __attribute__((target("f16c"))) uint16_t hostHalf(float x) {
  return uint16_t(_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(x), Mode | 8), 0));
}
__attribute__((target("f16c"))) float hostFloat(uint16_t h) { return _mm_cvtss_f32(_mm_cvtph_ps(_mm_set1_epi16(short(h)))); }

bool sameHalf(uint16_t got, uint16_t want) {
  auto isNan = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  return isNan(want) ? isNan(got) : got == want;
}

} // namespace

TEST_CASE("half-precision loads and stores in every rounding mode, shuffle and shuffle2", "[e2e][builtins]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void to_half(__global const float *f, __global half *rte, __global half *rtz, __global half *rtp,
                      __global half *rtn, __global half *plain, __global half *wide, __global half *aligned3) {
  size_t g = get_global_id(0);
  vstore_half_rte(f[g], g, rte);
  vstore_half_rtz(f[g], g, rtz);
  vstore_half_rtp(f[g], g, rtp);
  vstore_half_rtn(f[g], g, rtn);
  vstore_half(f[g], g, plain);
  if (g % 4 == 0)
    vstore_half4_rtz(vload4(g / 4, f), g / 4, wide);
  if (g % 3 == 0)
    vstorea_half3_rtp(vload3(g / 3, f), g / 3, aligned3);
}
__kernel void to_float(__global const half *h, __global float *out, __global float *wide, __global float *aligned3) {
  size_t g = get_global_id(0);
  out[g] = vload_half(g, h);
  if (g % 8 == 0)
    vstore8(vload_half8(g / 8, h), g / 8, wide);
  if (g % 4 == 0)
    vstore3(vloada_half3(g / 4, h), g / 4, aligned3);
}
__kernel void shuffles(__global int *o, __global float *f, __global char *c) {
  int4 x = (int4)(10, 11, 12, 13);
  vstore8(shuffle(x, (uint8)(3, 2, 1, 0, 7, 6, 0xfffffff5, 4)), 0, o);
  vstore4(shuffle2(x, (int4)(30, 31, 32, 33), (uint4)(0, 4, 7, 9)), 2, o);
  float16 v = vload16(0, f);
  vstore2(shuffle(v, (uint2)(15, 0x10 + 1)), 0, f + 16);
  char16 a = vload16(0, c), b = vload16(1, c);
  vstore16(shuffle2(a, b, (uchar16)(31, 0, 16, 15, 1, 17, 0x20 + 2, 0xff, 3, 4, 5, 6, 7, 8, 9, 10)), 2, c);
})");
  // Every half, then floats at random and where rounding is decided: halves' midpoints, just around
  // them, the largest half and beyond, subnormal halves and below, infinities, NaN, signed zeros.
  std::vector<float> f;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float x = hostFloat(uint16_t(h));
    f.push_back(x);
    if (std::isfinite(x)) {
      float next = hostFloat(uint16_t(h + 1));
      float mid = (x + next) / 2;
      f.push_back(mid);
      f.push_back(std::nextafter(mid, 0.0f));
      f.push_back(std::nextafter(mid, INFINITY));
    }
  }
  std::mt19937 random(11);
  std::uniform_int_distribution<uint32_t> bits;
  for (int k = 0; k < 100000; ++k) {
    uint32_t b = bits(random);
    float x;
    std::memcpy(&x, &b, 4);
    f.push_back(x);
  }
  for (float x : {65504.0f, 65519.99f, 65520.0f, 1e9f, 1e-9f, 5.9604645e-8f, 2.9802322e-8f, 2.9802326e-8f,
                  1e-45f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN})
    for (float sign : {1.0f, -1.0f})
      f.push_back(sign * x);
  while (f.size() % 12)
    f.push_back(1.0f);
  const size_t n = f.size();
  cl_mem in = buffer(cl, f, CL_MEM_COPY_HOST_PTR);
  std::vector<cl_mem> halves;
  for (int k = 0; k < 7; ++k)
    halves.push_back(buffer(cl, std::vector<uint16_t>(k == 6 ? n / 3 * 4 : n), CL_MEM_READ_WRITE));
  cl_kernel toHalf = kernelNamed(program, "to_half");
  setArg(toHalf, 0, in);
  for (cl_uint k = 0; k < 7; ++k)
    setArg(toHalf, k + 1, halves[k]);
  clReleaseEvent(launch(cl, toHalf, {{n}}));
  auto rte = readBack<uint16_t>(cl, halves[0], n), rtz = readBack<uint16_t>(cl, halves[1], n);
  auto rtp = readBack<uint16_t>(cl, halves[2], n), rtn = readBack<uint16_t>(cl, halves[3], n);
  auto plain = readBack<uint16_t>(cl, halves[4], n), wide = readBack<uint16_t>(cl, halves[5], n);
  auto aligned3 = readBack<uint16_t>(cl, halves[6], n / 3 * 4);
  size_t wrong = 0;
  for (size_t k = 0; k < n; ++k) {
    const float x = f[k];
    bool ok = sameHalf(rte[k], hostHalf<0>(x)) && sameHalf(rtn[k], hostHalf<1>(x)) &&
              sameHalf(rtp[k], hostHalf<2>(x)) && sameHalf(rtz[k], hostHalf<3>(x)) &&
              sameHalf(plain[k], hostHalf<0>(x)) && sameHalf(wide[k], hostHalf<3>(x)) &&
              sameHalf(aligned3[k / 3 * 4 + k % 3], hostHalf<2>(x));
    if (!ok && wrong++ < 10)
      FAIL_CHECK("float " << x << " (0x" << std::hex << [&] { uint32_t b; std::memcpy(&b, &x, 4); return b; }()
                          << "): rte " << rte[k] << " rtz " << rtz[k] << " rtp " << rtp[k] << " rtn " << rtn[k]);
  }
  CHECK(wrong == 0);

  // Every half back to float, exactly (NaN stays NaN).
  std::vector<uint16_t> every(0x10000);
  for (uint32_t h = 0; h < every.size(); ++h)
    every[h] = uint16_t(h);
  cl_mem hin = buffer(cl, every, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<float>(every.size()), CL_MEM_WRITE_ONLY);
  cl_mem outWide = buffer(cl, std::vector<float>(every.size()), CL_MEM_WRITE_ONLY);
  cl_mem out3 = buffer(cl, std::vector<float>(every.size() / 4 * 3), CL_MEM_WRITE_ONLY);
  cl_kernel toFloat = kernelNamed(program, "to_float");
  cl_mem floatArgs[] = {hin, out, outWide, out3};
  for (cl_uint k = 0; k < 4; ++k)
    setArg(toFloat, k, floatArgs[k]);
  clReleaseEvent(launch(cl, toFloat, {{every.size()}}));
  auto back = readBack<float>(cl, out, every.size()), backWide = readBack<float>(cl, outWide, every.size());
  auto back3 = readBack<float>(cl, out3, every.size() / 4 * 3);
  wrong = 0;
  for (uint32_t h = 0; h < every.size(); ++h) {
    const float want = hostFloat(uint16_t(h));
    bool ok = sameFloat(back[h], want) && sameFloat(backWide[h], want) &&
              (h % 4 == 3 || sameFloat(back3[h / 4 * 3 + h % 4], want));
    if (!ok && wrong++ < 10)
      FAIL_CHECK("half 0x" << std::hex << h << ": " << back[h] << " want " << want);
  }
  CHECK(wrong == 0);

  std::vector<int> ints(12, -1);
  std::vector<float> floats(18);
  for (int k = 0; k < 16; ++k)
    floats[k] = float(k) + 0.5f;
  std::vector<int8_t> chars(48);
  for (int k = 0; k < 32; ++k)
    chars[k] = int8_t(k * 3 - 40);
  cl_mem io = buffer(cl, ints, CL_MEM_COPY_HOST_PTR), fo = buffer(cl, floats, CL_MEM_COPY_HOST_PTR);
  cl_mem co = buffer(cl, chars, CL_MEM_COPY_HOST_PTR);
  cl_kernel shuffles = kernelNamed(program, "shuffles");
  setArg(shuffles, 0, io);
  setArg(shuffles, 1, fo);
  setArg(shuffles, 2, co);
  clReleaseEvent(launch(cl, shuffles, {{1}}));
  // Mask lanes use only the bits that index the inputs: 0xfffffff5 picks lane 1 of four.
  CHECK(readBack<int>(cl, io, 12) == std::vector<int>{13, 12, 11, 10, 13, 12, 11, 10, 10, 30, 33, 11});
  auto f2 = readBack<float>(cl, fo, 18);
  CHECK(f2[16] == 15.5f);
  CHECK(f2[17] == 1.5f);
  auto c2 = readBack<int8_t>(cl, co, 48);
  const int picks[16] = {31, 0, 16, 15, 1, 17, 2, 31, 3, 4, 5, 6, 7, 8, 9, 10};
  for (int k = 0; k < 16; ++k)
    CHECK(c2[32 + k] == chars[picks[k]]);

  for (cl_mem mem : halves)
    clReleaseMemObject(mem);
  for (cl_mem mem : {in, hin, out, outWide, out3, io, fo, co})
    clReleaseMemObject(mem);
  clReleaseKernel(toHalf);
  clReleaseKernel(toFloat);
  clReleaseKernel(shuffles);
  clReleaseProgram(program);
}

TEST_CASE("common and geometric functions match the spec's formulas", "[e2e][builtins]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
__kernel void shapes(__global const float4 *a, __global const float4 *b, __global float *out) {
  size_t i = get_global_id(0);
  float4 p = a[i], q = b[i];
  __global float *o = out + 16 * i;
  o[0] = dot(p, q);
  o[1] = length(p);
  o[2] = distance(p.xyz, q.xyz);
  float4 n = normalize(p);
  o[3] = n.x; o[4] = n.w;
  float3 c = cross(p.xyz, q.xyz);
  o[5] = c.x; o[6] = c.y; o[7] = c.z;
  o[8] = degrees(p.x);
  o[9] = radians(p.y);
  o[10] = mix(p.x, q.x, 0.25f);
  o[11] = step(q.y, p.y);
  o[12] = smoothstep(-1.0f, 2.0f, p.z);
  o[13] = sign(p.w);
  o[14] = length(p.xy * 1e30f);
  o[15] = fast_length(p.x);
})");
  // The last two: a vector whose length overflows and one whose squares underflow (the CTS
  // geometrics suite's normalize cases).
  std::vector<float> a = {3.0f, -4.0f, 0.5f, -0.0f, 1e-30f, 2e-30f, 0.0f, 0.0f, INFINITY, 1.0f, -2.0f, NAN,
                          0.25f, 7.0f, -1.5f, 2.0f, -3.07059e+38f, 2.23992e+38f, 0.0f, 0.0f,
                          2e-37f, -1e-37f, 0.0f, 3e-37f};
  std::vector<float> b = {1.0f, 2.0f, 3.0f, 4.0f, -1.0f, 0.5f, 0.0f, 8.0f, 2.0f, 2.0f, 2.0f, 2.0f,
                          -3.0f, 7.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
  const size_t items = a.size() / 4;
  cl_mem da = buffer(cl, a, CL_MEM_COPY_HOST_PTR), db = buffer(cl, b, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<float>(16 * items), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "shapes");
  setArg(kernel, 0, da);
  setArg(kernel, 1, db);
  setArg(kernel, 2, out);
  clReleaseEvent(launch(cl, kernel, {{items}}));
  auto o = readBack<float>(cl, out, 16 * items);
  auto lengthOf = [](std::vector<float> p) {
    float scale = 0;
    for (float v : p)
      scale = fmaxf(scale, std::fabs(v));
    if (scale == 0.0f || std::isinf(scale) || std::isnan(scale))
      return scale;
    float sum = 0;
    for (float v : p)
      sum += (v / scale) * (v / scale);
    return scale * std::sqrt(sum);
  };
  for (size_t item = 0; item < items; ++item) {
    const float *p = &a[4 * item], *q = &b[4 * item], *r = &o[16 * item];
    INFO("work-item " << item);
    CHECK(sameFloat(r[0], p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]));
    CHECK(sameFloat(r[1], lengthOf({p[0], p[1], p[2], p[3]})));
    CHECK(sameFloat(r[2], lengthOf({p[0] - q[0], p[1] - q[1], p[2] - q[2]})));
    std::vector<float> v(p, p + 4);
    bool infinite = std::any_of(v.begin(), v.end(), [](float x) { return std::isinf(x); });
    if (infinite)
      for (float &x : v)
        x = std::isinf(x) ? std::copysign(1.0f, x) : 0.0f;
    // normalize: scaled exactly so that the largest magnitude is in [1, 2), then divided by its length.
    float largest = 0;
    for (float x : v)
      largest = fmaxf(largest, std::fabs(x));
    if (largest > 0.0f && !std::isnan(largest)) {
      for (float &x : v)
        x = std::ldexp(x, -std::ilogb(largest));
      const float size = std::sqrt(((v[0] * v[0] + v[1] * v[1]) + v[2] * v[2]) + v[3] * v[3]);
      for (float &x : v)
        x /= size;
    }
    CHECK(sameFloat(r[3], v[0]));
    CHECK(sameFloat(r[4], v[3]));
    CHECK(sameFloat(r[5], p[1] * q[2] - p[2] * q[1]));
    CHECK(sameFloat(r[6], p[2] * q[0] - p[0] * q[2]));
    CHECK(sameFloat(r[7], p[0] * q[1] - p[1] * q[0]));
    CHECK(sameFloat(r[8], float(180.0f / float(M_PI)) * p[0]));
    CHECK(sameFloat(r[9], float(float(M_PI) / 180.0f) * p[1]));
    CHECK(sameFloat(r[10], p[0] + (q[0] - p[0]) * 0.25f));
    CHECK(r[11] == (p[1] < q[1] ? 0.0f : 1.0f));
    float t = std::min(std::max((p[2] + 1.0f) / 3.0f, 0.0f), 1.0f);
    CHECK(sameFloat(r[12], t * t * (3.0f - 2.0f * t)));
    CHECK(sameFloat(r[13], p[3] > 0 ? 1.0f : p[3] < 0 ? -1.0f : std::isnan(p[3]) ? 0.0f : std::copysign(0.0f, p[3])));
    CHECK(sameFloat(r[14], lengthOf({p[0] * 1e30f, p[1] * 1e30f})));
    CHECK(sameFloat(r[15], std::fabs(p[0])));
  }
  // Against the double-precision result, for the two vectors at the ends of the range.
  for (size_t item : {size_t(4), size_t(5)}) {
    const float *p = &a[4 * item];
    const double size = std::sqrt(double(p[0]) * p[0] + double(p[1]) * p[1] + double(p[2]) * p[2] + double(p[3]) * p[3]);
    CHECK(std::fabs(o[16 * item + 3] - p[0] / size) < 1e-6);
    CHECK(std::fabs(o[16 * item + 4] - p[3] / size) < 1e-6);
  }
  for (cl_mem mem : {da, db, out})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

namespace {

/// The integer functions of one gentype against the host (128-bit arithmetic for the references).
template <typename S> void checkIntegers(Setup &cl, cl_program program, const char *name, size_t lanes) {
  using U = std::make_unsigned_t<S>;
  constexpr int Bits = 8 * sizeof(S);
  const size_t count = 256 * lanes;
  std::vector<S> x(count), y(count);
  std::mt19937_64 random(Bits + lanes);
  const S extremes[] = {0, 1, S(-1), std::numeric_limits<S>::min(), std::numeric_limits<S>::max(), S(2), S(-2)};
  for (size_t i = 0; i < count; ++i) {
    x[i] = i < 49 ? extremes[i % 7] : S(random());
    y[i] = i < 49 ? extremes[i / 7] : S(random() >> (random() % Bits));
  }
  cl_mem dx = buffer(cl, x, CL_MEM_COPY_HOST_PTR), dy = buffer(cl, y, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<S>(10 * count), CL_MEM_WRITE_ONLY);
  cl_mem diff = buffer(cl, std::vector<U>(count), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, name);
  setArg(kernel, 0, dx);
  setArg(kernel, 1, dy);
  setArg(kernel, 2, out);
  setArg(kernel, 3, diff);
  clReleaseEvent(launch(cl, kernel, {{count / lanes}}));
  auto o = readBack<S>(cl, out, 10 * count);
  auto d = readBack<U>(cl, diff, count);
  const __int128 low = std::numeric_limits<S>::min(), high = std::numeric_limits<S>::max();
  auto saturate = [&](__int128 v) { return S(v < low ? low : v > high ? high : v); };
  for (size_t i = 0; i < count; ++i) {
    const S a = x[i], b = y[i];
    const U ua = U(a);
    INFO(name << " x = " << int64_t(a) << ", y = " << int64_t(b));
    int leading = 0, trailing = 0;
    while (leading < Bits && !((ua >> (Bits - 1 - leading)) & 1))
      ++leading;
    while (trailing < Bits && !((ua >> trailing) & 1))
      ++trailing;
    const int n = int(U(b) & U(Bits - 1));
    CHECK(o[i] == S(leading));
    CHECK(o[count + i] == S(trailing));
    CHECK(o[2 * count + i] == S(__builtin_popcountll(uint64_t(ua))));
    CHECK(o[3 * count + i] == S(n == 0 ? ua : U(U(ua << n) | U(ua >> (Bits - n)))));
    CHECK(o[4 * count + i] == saturate(__int128(a) + b));
    CHECK(o[5 * count + i] == saturate(__int128(a) - b));
    __int128 sum = __int128(a) + b, product = __int128(a) * b;
    CHECK(o[6 * count + i] == S(sum >= 0 ? sum / 2 : -((-sum + 1) / 2)));
    CHECK(o[7 * count + i] == S((sum + 1) >= 0 ? (sum + 1) / 2 : -((-(sum + 1) + 1) / 2)));
    const S hi = S(product >> Bits);
    CHECK(o[8 * count + i] == hi);
    CHECK(o[9 * count + i] == S(U(hi) + U(a)));
    CHECK(d[i] == U(a > b ? U(a) - U(b) : U(b) - U(a)));
  }
  for (cl_mem mem : {dx, dy, out, diff})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
}

} // namespace

TEST_CASE("integer functions on every width, scalars and vectors, against 128-bit references", "[e2e][builtins]") {
  CpuSetup cl;
  cl_program program = cl.build(R"(
#define INTEGERS(NAME, T, U)                                                                        \
__kernel void NAME(__global const T *x, __global const T *y, __global T *o, __global U *d) {        \
  size_t i = get_global_id(0), n = get_global_size(0);                                              \
  T a = x[i], b = y[i];                                                                             \
  o[i] = clz(a); o[n + i] = ctz(a); o[2 * n + i] = popcount(a); o[3 * n + i] = rotate(a, b);        \
  o[4 * n + i] = add_sat(a, b); o[5 * n + i] = sub_sat(a, b); o[6 * n + i] = hadd(a, b);            \
  o[7 * n + i] = rhadd(a, b); o[8 * n + i] = mul_hi(a, b); o[9 * n + i] = mad_hi(a, b, a);          \
  d[i] = abs_diff(a, b);                                                                            \
}
INTEGERS(ints, int, uint)
INTEGERS(chars16, char16, uchar16)
INTEGERS(longs2, long2, ulong2)
INTEGERS(ulongs, ulong, ulong)
INTEGERS(ushorts4, ushort4, ushort4)
__kernel void up(__global const short *hi, __global const ushort *lo, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = upsample(hi[i], lo[i]);
}
)", "-cl-std=CL2.0");
  checkIntegers<int32_t>(cl, program, "ints", 1);
  checkIntegers<int8_t>(cl, program, "chars16", 16);
  checkIntegers<int64_t>(cl, program, "longs2", 2);
  checkIntegers<uint64_t>(cl, program, "ulongs", 1);
  checkIntegers<uint16_t>(cl, program, "ushorts4", 4);
  const std::vector<int16_t> hi = {0, -1, 32767, -32768, 5};
  const std::vector<uint16_t> lo = {0, 65535, 1, 0, 40000};
  cl_mem dh = buffer(cl, hi, CL_MEM_COPY_HOST_PTR), dl = buffer(cl, lo, CL_MEM_COPY_HOST_PTR);
  cl_mem out = buffer(cl, std::vector<int32_t>(hi.size()), CL_MEM_WRITE_ONLY);
  cl_kernel kernel = kernelNamed(program, "up");
  setArg(kernel, 0, dh);
  setArg(kernel, 1, dl);
  setArg(kernel, 2, out);
  clReleaseEvent(launch(cl, kernel, {{hi.size()}}));
  auto joined = readBack<int32_t>(cl, out, hi.size());
  for (size_t i = 0; i < hi.size(); ++i)
    CHECK(joined[i] == int32_t((uint32_t(uint16_t(hi[i])) << 16) | lo[i]));
  for (cl_mem mem : {dh, dl, out})
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}
