// SPDX-License-Identifier: Apache-2.0
// Float accumulation (a loop-carried float add): single work-item. In qor.cl as it is; qor.py also
// builds it alone with -cl-fast-relaxed-math -Dgsum=gsum_fast (reassociated: interleaved partial sums).
__attribute__((max_global_work_dim(0)))
__kernel void gsum(__global const float *restrict a, __global float *restrict out, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i)
    sum += a[i];
  out[0] = sum;
}
