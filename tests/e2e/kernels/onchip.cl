// SPDX-License-Identifier: Apache-2.0
// On-chip memories: private arrays indexed at run time and __local arrays, on the board (RAMs, the
// work-items taking turns) and the CPU device, compared with host references by OnChipBoardTest.cpp.
// Every kernel is (in a, in b, out, scalar) so the shared differential runner drives it.

// Each work-item fills a private array and reads it back in another order.
__kernel void private_reverse(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int buf[16];
  for (int k = 0; k < m; ++k)
    buf[k] = a[i * m + k];
  for (int k = 0; k < m; ++k)
    out[i * m + k] = buf[m - 1 - k] * 3 + b[k];
}

// A per-work-item insertion sort: data-dependent loops, reads and writes of one private array.
__kernel void private_sort(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int v[12];
  for (int k = 0; k < m; ++k) {
    int x = a[i * m + k] ^ b[k];
    int j = k;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      --j;
    }
    v[j] = x;
  }
  for (int k = 0; k < m; ++k)
    out[i * m + k] = v[k];
}

// Single work-item histogram in a __local array: a read-modify-write recurrence through on-chip RAM.
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void local_histogram(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int bins[64];
  for (int k = 0; k < 64; ++k)
    bins[k] = 0;
  for (int k = 0; k < n; ++k)
    bins[a[k] & 63] += b[k];
  for (int k = 0; k < 64; ++k)
    out[k] = bins[k];
}

// A circular window of the last 8 samples (a private array written under a condition), single
// work-item: a moving sum where odd samples are skipped.
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void window_sum(__global const int *a, __global const int *b, __global int *out, int n) {
  short window[8];
  for (int k = 0; k < 8; ++k)
    window[k] = (short)b[k];
  int sum = 0;
  for (int k = 0; k < n; ++k) {
    int slot = k & 7;
    if ((a[k] & 1) == 0) {
      sum += a[k] - window[slot];
      window[slot] = (short)a[k];
    }
    out[k] = sum;
  }
}

// A zero-initialised private array (a memset, expanded to a loop) updated at data-dependent indices.
__kernel void private_counts(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int counts[8] = {0};
  for (int k = 0; k < m; ++k)
    counts[a[i * m + k] & 7] += b[k];
  for (int k = 0; k < 8; ++k)
    out[i * 8 + k] = counts[k];
}
