// SPDX-License-Identifier: Apache-2.0
// c = a + b, one work-item per element: the first kernel every OpenCL toolchain runs.
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
