// SPDX-License-Identifier: Apache-2.0
// QoR kernels with work-group barriers (built as OpenCL C 2.0 for work_group_reduce_add): each runs
// a work-group per invocation, each region between barriers a pass of its work-items.

// Each group reverses its part of `a` through __local memory: 2 regions.
static void reverse_through(__local float *tile, __global const float *restrict a, __global float *restrict out) {
  const int lid = get_local_id(0), size = get_local_size(0);
  tile[lid] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[size - 1 - lid];
}

__kernel void local_reverse(__global const float *restrict a, __global float *restrict out) {
  __local float tile[256];
  reverse_through(tile, a, out);
}

// The same, 4 work-items a cycle (num_simd_work_items) in groups of 256.
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) __attribute__((num_simd_work_items(4)))
void local_reverse_simd4(__global const float *restrict a, __global float *restrict out) {
  __local float tile[256];
  reverse_through(tile, a, out);
}

// The classic tree reduction, a partial sum per group: 8 regions (Clang unrolls the 6 halvings).
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void tree_sum(__global const int *restrict a, __global int *restrict sums) {
  __local int partial[64];
  const int lid = get_local_id(0);
  partial[lid] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 32; stride > 0; stride >>= 1) {
    if (lid < stride)
      partial[lid] += partial[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = partial[0];
}

// The same sum with the work-group function: 3 passes of the work-items.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void group_sum(__global const int *restrict a, __global int *restrict sums) {
  const int total = work_group_reduce_add(a[get_global_id(0)]);
  if (get_local_id(0) == 0)
    sums[get_group_id(0)] = total;
}

// A tile and its halo copied in with async_work_group_copy, then a 4-point window per work-item:
// 2 regions.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void async_window(__global const float *restrict a, __global float *restrict out) {
  __local float tile[64 + 3];
  event_t copied = async_work_group_copy(tile, a + get_group_id(0) * 64, 64 + 3, 0);
  wait_group_events(1, &copied);
  const int lid = get_local_id(0);
  out[get_global_id(0)] = ((tile[lid] + tile[lid + 1]) + tile[lid + 2]) + tile[lid + 3];
}

// A 1024-float tile a group (16 elements a work-item) in and out with async_work_group_copy, which
// moves bursts of 64 bytes: 3 regions of one pass of the 64 work-items each.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void async_tile(__global const float *restrict a, __global float *restrict out) {
  __local float tile[1024];
  const size_t base = get_group_id(0) * 1024;
  event_t in = async_work_group_copy(tile, a + base, 1024, 0);
  wait_group_events(1, &in);
  const int lid = get_local_id(0);
  tile[lid] += tile[1023 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(out + base, tile, 1024, 0);
  wait_group_events(1, &back);
}

// The classic __local-tiled sgemm: per tile step, a region loading a 16 x 16 tile of each matrix and
// a region of 16 multiply-adds a work-item (unrolled), then a region storing c: 2 n/16 + 1 regions.
#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void tiled_sgemm(__global const float *restrict a, __global const float *restrict b, __global float *restrict c,
                 int n) {
  __local float ta[TILE][TILE], tb[TILE][TILE];
  const int li = get_local_id(1), lj = get_local_id(0), i = get_global_id(1), j = get_global_id(0);
  float s = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    ta[li][lj] = a[i * n + t + lj];
    tb[li][lj] = b[(t + li) * n + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int k = 0; k < TILE; ++k)
      s += ta[li][k] * tb[k][lj];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[i * n + j] = s;
}
