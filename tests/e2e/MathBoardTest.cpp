// SPDX-License-Identifier: Apache-2.0
// The math builtins in hardware (kernels/math.cl, compiled by loomc at build time): the board's
// results bit for bit those of its library (frontend/builtins/math/) compiled for the host and run
// with denormals flushed, so the synthesised units compute what the source says; and on both
// devices (the CPU device's from the C library) within the spec's bounds of a double reference
// (tests/FloatMath.h), over the awkward operands and random ones.
#include "DifferentialSupport.h"
#include "FloatMath.h"

#include <random>

using namespace e2e;
using namespace loom::test::floatmath;

namespace {

const Sources Math{LOOM_E2E_MATH_LOOM, LOOM_E2E_MATH_CL};

/// The operands: the specials, then random bit patterns and moderate values in turn.
struct Operands {
  std::vector<float> x, y;
  std::vector<int> n;
};
Operands operands(size_t count, float scale, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> moderate(-scale, scale);
  Operands o;
  for (size_t i = 0; i < count; ++i) {
    auto pick = [&](size_t j) {
      if (j < sizeof SpecialValues / sizeof SpecialValues[0])
        return SpecialValues[j];
      if (j % 2) {
        const uint32_t bits = random();
        float x;
        std::memcpy(&x, &bits, sizeof x);
        return x;
      }
      return moderate(random);
    };
    o.x.push_back(pick(i));
    o.y.push_back(pick((i * 7 + 3) % count));
    o.n.push_back(int(random() % 41) - 20);
  }
  return o;
}

struct Results {
  std::vector<float> out;
  std::vector<int> integers;
};

/// Runs `kernel` on `target` with the buffers (x[, y][, n], out[, integers]) its signature takes.
Results run(const Target &target, const char *name, const Operands &o, bool withY, bool withN, size_t functions,
            size_t integerOutputs) {
  Setup cl(target.device());
  cl_program program = programFor(cl, target, Math);
  cl_kernel kernel = kernelNamed(program, name);
  const size_t count = o.x.size();
  std::vector<cl_mem> buffers{buffer(cl, o.x, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR)};
  if (withY)
    buffers.push_back(buffer(cl, o.y, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  if (withN)
    buffers.push_back(buffer(cl, o.n, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  Results r{std::vector<float>(count * functions), std::vector<int>(count * integerOutputs)};
  const size_t outIndex = buffers.size();
  buffers.push_back(buffer(cl, r.out, CL_MEM_READ_WRITE));
  if (integerOutputs)
    buffers.push_back(buffer(cl, r.integers, CL_MEM_READ_WRITE));
  for (cl_uint i = 0; i < buffers.size(); ++i)
    setArg(kernel, i, buffers[i]);
  clReleaseEvent(launch(cl, kernel, Range{{count}}));
  r.out = readBack<float>(cl, buffers[outIndex], r.out.size());
  if (integerOutputs)
    r.integers = readBack<int>(cl, buffers.back(), r.integers.size());
  for (cl_mem mem : buffers)
    clReleaseMemObject(mem);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return r;
}

/// One output of a kernel: the host library's value for operands (x, y, n), and where the tables
/// have a reference for it, the function's error against it in ULPs and its bound.
struct Output {
  const char *name;
  std::function<float(float, float, int)> host;
  std::function<double(float, float, int, float)> error = nullptr;
  double bound = 0;
};

template <typename Table> const auto &named(const Table &table, const char *name) {
  for (const auto &f : table)
    if (std::string(f.name) == name)
      return f;
  FAIL("no reference for " << name);
  return table[0];
}
Output unary(const char *name) {
  const Unary &f = named(UnaryFunctions, name);
  return {name, [&f](float x, float, int) { return onBoard(f.board, x); },
          [&f](float x, float, int, float r) { return unaryError(f, x, r); }, f.bound};
}
Output binary(const char *name) {
  const Binary &f = named(BinaryFunctions, name);
  return {name, [&f](float x, float y, int) { return onBoard(f.board, x, y); },
          [&f](float x, float y, int, float r) { return binaryError(f, x, y, r); }, f.bound};
}
Output intOperand(const char *name) {
  const IntOperand &f = named(IntOperandFunctions, name);
  return {name, [&f](float x, float, int n) { return onBoard(f.board, x, n); },
          [&f](float x, float, int n, float r) { return intOperandError(f, x, n, r); }, f.bound};
}

/// OpenCL C's powr over the library's pow, as builtins/math.cl defines it for both targets.
float powrOf(float x, float y) {
  if (x < 0 || std::isnan(x) || std::isnan(y) || (x == 0 && y == 0) || (std::isinf(x) && y == 0) ||
      (x == 1 && std::isinf(y)))
    return NAN;
  if (x == 0)
    return y < 0 ? INFINITY : 0.0f;
  return onBoard(loom_pow, x, y);
}

bool sameFloat(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

/// Checks every output of a kernel run on both devices; returns the board's results.
Results check(const char *kernel, const Operands &o, bool withY, bool withN, const std::vector<Output> &outputs,
              size_t integerOutputs = 0) {
  const size_t count = o.x.size();
  Results board;
  for (const Target &target : Targets) {
    INFO("device: " << target.name << ", kernel " << kernel);
    const Results r = run(target, kernel, o, withY, withN, outputs.size(), integerOutputs);
    const bool onBoard = std::string(target.name) == "board";
    if (onBoard)
      board = r;
    for (size_t f = 0; f < outputs.size(); ++f) {
      INFO("function " << outputs[f].name);
      for (size_t i = 0; i < count; ++i) {
        const float x = o.x[i], y = o.y[i], got = r.out[f * count + i];
        INFO(std::hexfloat << "x " << x << ", y " << y << ", n " << o.n[i] << ": " << got);
        if (onBoard && !isDenormal(x) && !isDenormal(y))
          REQUIRE(sameFloat(got, outputs[f].host(x, y, o.n[i])));
        if (outputs[f].error)
          REQUIRE(outputs[f].error(x, y, o.n[i], got) <= outputs[f].bound);
      }
    }
  }
  return board;
}

} // namespace

TEST_CASE("exponentials and logarithms in hardware", "[e2e][board][math]") {
  check("exp_log", operands(1024, 40, 1), false, false,
        {unary("exp"), unary("exp2"), unary("exp10"), unary("expm1"), unary("log"), unary("log2"), unary("log10"),
         unary("log1p")});
}

TEST_CASE("powers and roots in hardware", "[e2e][board][math]") {
  check("powers", operands(1024, 8, 2), true, true,
        {binary("pow"),
         {"powr", [](float x, float y, int) { return powrOf(x, y); }},
         intOperand("pown"), intOperand("rootn"), unary("cbrt"), unary("rsqrt"), binary("hypot")});
}

TEST_CASE("trigonometric functions in hardware", "[e2e][board][math]") {
  check("trig", operands(1024, 20, 3), false, false,
        {unary("sin"), unary("cos"), unary("tan"), unary("sinpi"), unary("cospi"), unary("tanpi")});
}

TEST_CASE("inverse trigonometric functions in hardware", "[e2e][board][math]") {
  Operands o = operands(1024, 2, 4);
  // Two denormals together, the CTS's pair: the board's compares see their bits, its units zeros
  // (atan2 gave neither the flushed -pi nor the exact -pi/2 there).
  o.x.back() = -0x1.fffffcp-127f;
  o.y.back() = -0x1.ffcp-139f;
  check("inverse_trig", o, true, false,
        {unary("asin"), unary("acos"), unary("atan"), unary("asinpi"), unary("acospi"), unary("atanpi"),
         binary("atan2"), binary("atan2pi")});
}

TEST_CASE("hyperbolic functions in hardware", "[e2e][board][math]") {
  check("hyperbolic", operands(1024, 12, 5), false, false,
        {unary("sinh"), unary("cosh"), unary("tanh"), unary("asinh"), unary("acosh"), unary("atanh")});
}

TEST_CASE("erf, erfc, tgamma and lgamma_r in hardware", "[e2e][board][math]") {
  const Operands o = operands(1024, 12, 6);
  const Results board = check("special", o, false, false,
                              {unary("erf"), unary("erfc"), unary("tgamma"), unary("lgamma")}, 1);
  for (size_t i = 0; i < o.x.size(); ++i) {
    int sign = 0;
    onBoard(loom_lgamma_r_c, o.x[i], &sign);
    INFO(std::hexfloat << o.x[i]);
    CHECK(board.integers[i] == sign);
  }
}

TEST_CASE("rounding, a float's fields, remainders, fma and vector forms in hardware", "[e2e][board][math]") {
  const Operands o = operands(1024, 300, 7);
  const size_t count = o.x.size();
  auto next = [&](float x) {
    for (size_t i = 0; i < count; ++i)
      if (std::memcmp(&o.x[i], &x, sizeof x) == 0)
        return o.x[(i + 1) % count];
    return 0.0f;
  };
  const Results board = check(
      "exact", o, true, true,
      {unary("ceil"), unary("floor"), unary("rint"), unary("round"), unary("trunc"), unary("logb"), binary("fdim"),
       binary("fmod"), binary("remainder"), binary("nextafter"), intOperand("ldexp"),
       {"fma", [&](float x, float y, int) { return onBoard(loom_fma, x, y, next(x)); }},
       {"remquo", [](float x, float y, int) { int q; return onBoard(loom_remquo_c, x, y, &q); }},
       {"frexp", [](float x, float, int) { int e; return onBoard(loom_frexp_c, x, &e); }},
       {"float4 exp", [](float x, float y, int) {
         return onBoard([=] { return loom_exp(x) + loom_exp(y) + loom_exp(-x) + loom_exp(0.5f * y); });
       }},
       {"float2 pow", [](float x, float y, int) {
         return onBoard([=] { return loom_pow(std::fabs(x), 0.5f) - loom_pow(std::fabs(y), 1.5f); });
       }}},
      3);
  for (size_t i = 0; i < count; ++i) {
    const float x = o.x[i], y = o.y[i];
    if (isDenormal(x) || isDenormal(y))
      continue;
    INFO(std::hexfloat << x << ", " << y);
    int quotient = 0, exponent = 0;
    onBoard(loom_remquo_c, x, y, &quotient);
    onBoard(loom_frexp_c, x, &exponent);
    CHECK(board.integers[i] == quotient);
    CHECK(board.integers[count + i] == exponent);
    CHECK(board.integers[2 * count + i] == onBoard(loom_ilogb, x));
  }
}
