// SPDX-License-Identifier: Apache-2.0
// Rows of a matrix, each folded by a multiply-add recurrence (s = s * 3 + x: the multiply's latency
// an iteration), a work-item a row. In qor.cl as it is (work-items interleave in the loop and hide
// the recurrence); qor.py also builds it alone with -DONE_ROW_AT_A_TIME -Drows=rows_once, where
// #pragma max_interleaving 1 lets one work-item at a time into the loop.
__kernel void rows(__global const int *restrict a, __global int *restrict out, int m) {
  int j = get_global_id(0);
  int s = 0;
#ifdef ONE_ROW_AT_A_TIME
  #pragma max_interleaving 1
#endif
  for (int k = 0; k < m; ++k)
    s = s * 3 + a[j * m + k];
  out[j] = s;
}
