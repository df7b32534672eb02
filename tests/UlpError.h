// SPDX-License-Identifier: Apache-2.0
// The error of a single-precision result in ULPs against a reference computed in double precision,
// as the OpenCL C specification measures its math functions' bounds (and the Khronos CTS does): the
// distance from the exact result in units of the float spacing at the reference's magnitude (the
// denormal spacing below FLT_MIN). glibc's double functions are within a double ULP of the exact
// result, 2^-29 of a float ULP, so a double reference decides every bound of the spec.
#pragma once

#include <cfloat>
#include <cmath>

namespace loom::test {

/// ULPs between `result` and `reference`; infinity when one is NaN or infinite and the other is not
/// the same. A reference beyond FLT_MAX accepts the infinity of its sign.
inline double ulpError(float result, double reference) {
  if (std::isnan(reference) || std::isnan(result))
    return std::isnan(reference) && std::isnan(result) ? 0.0 : INFINITY;
  if (std::isinf(result) || std::isinf(reference) || std::fabs(reference) > FLT_MAX) {
    const bool sameInfinity = std::isinf(result) && std::signbit(result) == std::signbit(reference) &&
                              (std::isinf(reference) || std::fabs(reference) > FLT_MAX);
    if (sameInfinity || double(result) == reference)
      return 0.0;
    if (std::isinf(result) || std::isinf(reference))
      return INFINITY;
  }
  int exponent = reference == 0.0 ? FLT_MIN_EXP - 1 : std::ilogb(reference);
  if (exponent < FLT_MIN_EXP - 1)
    exponent = FLT_MIN_EXP - 1; // denormals: the smallest spacing
  return std::fabs(double(result) - reference) / std::ldexp(1.0, exponent - (FLT_MANT_DIG - 1));
}

} // namespace loom::test
