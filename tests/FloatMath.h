// SPDX-License-Identifier: Apache-2.0
// The board's float-arithmetic math library (frontend/builtins/math/), compiled for the host, and
// what checks it: each function with its double-precision reference and the spec's bound (OpenCL C
// 3.0, section 7.4, single precision, full profile), and the check of one result under the board's
// flush-to-zero rules (a denormal input may read as a zero of its sign, a denormal result may flush
// to a zero), as the Khronos CTS applies them to a device without CL_FP_DENORM. The host must run
// with denormals flushed (MXCSR FTZ and DAZ: FlushDenormals) for its copy to compute as the board.
#pragma once

#include "UlpError.h"

#include <xmmintrin.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

// The library's functions (overloadable OpenCL C, so their names mangle as these C++ ones do).
#define LOOM_FLOAT_MATH_UNARY(X)                                                                   \
  X(acos) X(acosh) X(acospi) X(asin) X(asinh) X(asinpi) X(atan) X(atanh) X(atanpi) X(cbrt) X(ceil) \
  X(cos) X(cosh) X(cospi) X(erf) X(erfc) X(exp) X(exp2) X(exp10) X(expm1) X(floor) X(lgamma)      \
  X(log) X(log2) X(log10) X(log1p) X(logb) X(rint) X(round) X(rsqrt) X(sin) X(sinh) X(sinpi)      \
  X(tan) X(tanh) X(tanpi) X(tgamma) X(trunc)
#define LOOM_FLOAT_MATH_BINARY(X)                                                                  \
  X(atan2) X(atan2pi) X(fdim) X(fmod) X(hypot) X(nextafter) X(pow) X(remainder)
#define LOOM_FLOAT_MATH_INT_OPERAND(X) X(pown) X(rootn) X(ldexp)
#define LOOM_DECLARE_UNARY(F) float loom_##F(float);
#define LOOM_DECLARE_BINARY(F) float loom_##F(float, float);
#define LOOM_DECLARE_INT_OPERAND(F) float loom_##F(float, int);
LOOM_FLOAT_MATH_UNARY(LOOM_DECLARE_UNARY)
LOOM_FLOAT_MATH_BINARY(LOOM_DECLARE_BINARY)
LOOM_FLOAT_MATH_INT_OPERAND(LOOM_DECLARE_INT_OPERAND)
float loom_fma(float, float, float);
int loom_ilogb(float);
// The ones with a pointer operand, under the C names tests/frontend/FloatMathLibrary.cl gives them.
extern "C" {
float loom_frexp_c(float, int *);
float loom_remquo_c(float, float, int *);
float loom_lgamma_r_c(float, int *);
}
#undef LOOM_DECLARE_UNARY
#undef LOOM_DECLARE_BINARY
#undef LOOM_DECLARE_INT_OPERAND

namespace loom::test::floatmath {

constexpr double Pi = 3.14159265358979323846;

/// Sets the calling thread's MXCSR to flush denormals (DAZ and FTZ), as the board's units do, for
/// its lifetime.
struct FlushDenormals {
  unsigned saved = _mm_getcsr();
  FlushDenormals() { _mm_setcsr(saved | 0x8040u); }
  ~FlushDenormals() { _mm_setcsr(saved); }
};

/// x - 2 round(x / 2): exact, in [-1, 1], with the sine and cosine of pi x.
inline double reducedHalfTurns(double x) { return x - 2.0 * std::nearbyint(0.5 * x); }
// The *pi functions are exact zeros and infinities where pi x is a multiple of pi / 2, which the
// double pi x is not.
inline double sinpiReference(double x) {
  const double r = reducedHalfTurns(x);
  return r == std::nearbyint(r) ? 0.0 : std::sin(Pi * r);
}
inline double cospiReference(double x) {
  const double r = reducedHalfTurns(x);
  return std::fabs(r) == 0.5 ? 0.0 : std::cos(Pi * r);
}
inline double tanpiReference(double x) {
  const double r = reducedHalfTurns(x);
  return r == std::nearbyint(r) ? 0.0 : std::fabs(r) == 0.5 ? std::copysign(INFINITY, r) : std::tan(Pi * r);
}

/// Whether x is a denormal, from its bits (under DAZ a denormal compares equal to zero).
inline bool isDenormal(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7f800000u) == 0 && (bits & 0x007fffffu) != 0;
}

/// `function(arguments...)` with denormals flushed, as the board's units compute.
template <typename Function, typename... Arguments> auto onBoard(Function function, Arguments... arguments) {
  FlushDenormals flush;
  return function(arguments...);
}

struct Unary {
  const char *name;
  float (*board)(float);
  double (*reference)(double);
  double bound; ///< ULPs.
};
struct Binary {
  const char *name;
  float (*board)(float, float);
  double (*reference)(double, double);
  double bound;
};
struct IntOperand {
  const char *name;
  float (*board)(float, int);
  double (*reference)(double, int);
  double bound;
};

// The references: glibc's double functions (within a double ULP) where C has the function.
inline const Unary UnaryFunctions[] = {
    {"acos", loom_acos, [](double x) { return std::acos(x); }, 4},
    {"acosh", loom_acosh, [](double x) { return std::acosh(x); }, 4},
    {"acospi", loom_acospi, [](double x) { return std::acos(x) / Pi; }, 5},
    {"asin", loom_asin, [](double x) { return std::asin(x); }, 4},
    {"asinh", loom_asinh, [](double x) { return std::asinh(x); }, 4},
    {"asinpi", loom_asinpi, [](double x) { return std::asin(x) / Pi; }, 5},
    {"atan", loom_atan, [](double x) { return std::atan(x); }, 5},
    {"atanh", loom_atanh, [](double x) { return std::atanh(x); }, 5},
    {"atanpi", loom_atanpi, [](double x) { return std::atan(x) / Pi; }, 5},
    {"cbrt", loom_cbrt, [](double x) { return std::cbrt(x); }, 2},
    {"ceil", loom_ceil, [](double x) { return std::ceil(x); }, 0},
    {"cos", loom_cos, [](double x) { return std::cos(x); }, 4},
    {"cosh", loom_cosh, [](double x) { return std::cosh(x); }, 4},
    {"cospi", loom_cospi, cospiReference, 4},
    {"erf", loom_erf, [](double x) { return std::erf(x); }, 16},
    {"erfc", loom_erfc, [](double x) { return std::erfc(x); }, 16},
    {"exp", loom_exp, [](double x) { return std::exp(x); }, 3},
    {"exp2", loom_exp2, [](double x) { return std::exp2(x); }, 3},
    {"exp10", loom_exp10, [](double x) { return std::pow(10.0, x); }, 3},
    {"expm1", loom_expm1, [](double x) { return std::expm1(x); }, 3},
    {"floor", loom_floor, [](double x) { return std::floor(x); }, 0},
    {"lgamma", loom_lgamma, [](double x) { return std::lgamma(x); }, INFINITY}, // no bound in the spec
    {"log", loom_log, [](double x) { return std::log(x); }, 3},
    {"log2", loom_log2, [](double x) { return std::log2(x); }, 3},
    {"log10", loom_log10, [](double x) { return std::log10(x); }, 3},
    {"log1p", loom_log1p, [](double x) { return std::log1p(x); }, 2},
    {"logb", loom_logb, [](double x) { return std::logb(x); }, 0},
    {"rint", loom_rint, [](double x) { return std::nearbyint(x); }, 0},
    {"round", loom_round, [](double x) { return std::round(x); }, 0},
    {"rsqrt", loom_rsqrt, [](double x) { return 1.0 / std::sqrt(x); }, 2},
    {"sin", loom_sin, [](double x) { return std::sin(x); }, 4},
    {"sinh", loom_sinh, [](double x) { return std::sinh(x); }, 4},
    {"sinpi", loom_sinpi, sinpiReference, 4},
    {"tan", loom_tan, [](double x) { return std::tan(x); }, 5},
    {"tanh", loom_tanh, [](double x) { return std::tanh(x); }, 5},
    {"tanpi", loom_tanpi, tanpiReference, 6},
    {"tgamma", loom_tgamma, [](double x) { return std::tgamma(x); }, 16},
    {"trunc", loom_trunc, [](double x) { return std::trunc(x); }, 0},
};

inline const Binary BinaryFunctions[] = {
    {"atan2", loom_atan2, [](double y, double x) { return std::atan2(y, x); }, 6},
    {"atan2pi", loom_atan2pi, [](double y, double x) { return std::atan2(y, x) / Pi; }, 6},
    {"fdim", loom_fdim, [](double x, double y) { return std::fdim(x, y); }, 0.5}, // correctly rounded
    {"fmod", loom_fmod, [](double x, double y) { return std::fmod(x, y); }, 0},
    {"hypot", loom_hypot, [](double x, double y) { return std::hypot(x, y); }, 4},
    // nextafter's reference is the float one: a double step is not a float step.
    {"nextafter", loom_nextafter, [](double x, double y) { return double(std::nextafter(float(x), float(y))); }, 0},
    {"pow", loom_pow, [](double x, double y) { return std::pow(x, y); }, 16},
    {"remainder", loom_remainder, [](double x, double y) { return std::remainder(x, y); }, 0},
};

inline const IntOperand IntOperandFunctions[] = {
    {"pown", loom_pown, [](double x, int n) { return std::pow(x, double(n)); }, 16},
    {"rootn", loom_rootn,
     [](double x, int n) {
       if (n == 0 || (x < 0 && n % 2 == 0))
         return double(NAN);
       const double root = std::pow(std::fabs(x), 1.0 / n);
       return n % 2 ? std::copysign(root, x) : root;
     },
     16},
    {"ldexp", loom_ldexp, [](double x, int n) { return std::ldexp(x, n); }, 0.5}, // rounded where denormal
};

/// x with a denormal flushed to a zero of its sign: what a flushing unit reads.
inline double flushed(float x) { return isDenormal(x) ? std::copysign(0.0, x) : double(x); }

/// The error of `result` in ULPs, the smallest the flush-to-zero rules allow: against the reference
/// of the operands as they are and with each denormal one flushed (`reference(flushMask)`, bit k for
/// operand k), and zero when the reference is below FLT_MIN and the result is a zero (a flushed
/// denormal result).
template <typename Reference>
double flushedUlpError(float result, unsigned operands, Reference reference) {
  double best = INFINITY;
  for (unsigned mask = 0; mask < (1u << operands); ++mask) {
    const double exact = reference(mask);
    const double error = (result == 0.0f && std::fabs(exact) < FLT_MIN) ? 0.0 : ulpError(result, exact);
    best = std::fmin(best, error);
  }
  return best;
}
inline double operand(float x, unsigned mask, unsigned k) { return mask >> k & 1 ? flushed(x) : double(x); }

inline double unaryError(const Unary &f, float x, float result) {
  return flushedUlpError(result, 1, [&](unsigned mask) { return f.reference(operand(x, mask, 0)); });
}
inline double binaryError(const Binary &f, float x, float y, float result) {
  return flushedUlpError(result, 2, [&](unsigned mask) { return f.reference(operand(x, mask, 0), operand(y, mask, 1)); });
}
inline double intOperandError(const IntOperand &f, float x, int n, float result) {
  return flushedUlpError(result, 1, [&](unsigned mask) { return f.reference(operand(x, mask, 0), n); });
}

/// The awkward operands: zeros, infinities, NaN, the extremes, a denormal, ones, halves, integers
/// and the points where functions change branch.
inline const float SpecialValues[] = {
    0.0f, -0.0f, INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, 0x1p-140f, -0x1p-140f,
    1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, 1.5f, -1.5f, 0x1.fffffep-1f, 0x1.000002p0f,
    10.0f, -10.0f, 100.0f, 0x1p23f, 0x1.fffffep22f, 0x1p24f, -0x1p24f, 0x1p-24f, 0x1p30f, 0x1p64f,
    0x1p100f, 88.72f, -87.3f, -103.9f, 1e-10f, 3.14159265f, 1.57079633f, -1.57079633f, 0.7853982f};

} // namespace loom::test::floatmath
