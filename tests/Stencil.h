// SPDX-License-Identifier: Apache-2.0
// The 2D 5-point stencil with a copied border that the CPU-vs-PoCL benchmark measures and the CPU
// device's tests check (its border test makes the vectoriser mask the neighbour loads), and its host
// reference. With small integer inputs the weights, powers of two, give exact results.
#pragma once

#include <cstddef>

namespace loom::test {

inline const char *const StencilSource = R"(
__kernel void stencil(__global const float *in, __global float *out, int width) {
  int x = get_global_id(0), y = get_global_id(1), height = get_global_size(1);
  int i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
    out[i] = in[i];
  else
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
)";

/// What the stencil writes at (`x`, `y`) of a `width` by `height` grid `in`.
inline float stencilAt(const float *in, size_t width, size_t height, size_t x, size_t y) {
  const size_t i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
    return in[i];
  return 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}

} // namespace loom::test
