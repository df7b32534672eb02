// Intel's and Xilinx's FPGA attributes and pragmas as public FPGA code writes them: what Loom honours
// (ivdep, ii, unroll, max_global_work_dim, max_work_group_size) and what it ignores with a warning
// (num_compute_units, loop_coalesce). Every kernel takes (a, b, out, n).

// A scatter read-modify-write through a permutation: the iterations never touch the same element,
// which only the programmer knows. Without ivdep each iteration waits for the previous store.
__attribute__((max_global_work_dim(0)))
__kernel void ivdep_scatter(__global const int *a, __global const int *b, __global int *out, int n) {
  #pragma ivdep
  for (int k = 0; k < n; ++k)
    out[b[k]] += a[k];
}

// An accumulation whose II the programmer states (and Loom checks: without `restrict` the stores
// to `out` would have to wait for the loads, and II 2 would be an error naming the memory order).
__attribute__((max_global_work_dim(0))) __attribute__((num_compute_units(2)))
__kernel void ii_prefix(__global const int *restrict a, __global const int *restrict b,
                        __global int *restrict out, int n) {
  int sum = 0;
  #pragma ii 2
  for (int k = 0; k < n; ++k) {
    sum += a[k] ^ b[k];
    out[k] = sum;
  }
}

// Partial unrolling of a loop of unknown trip count, full unrolling of a constant one.
__kernel void unrolled_dot(__global const int *a, __global const int *b, __global int *out, int n) {
  int i = get_global_id(0);
  int dot = 0;
  #pragma unroll 4
  for (int k = 0; k < n; ++k)
    dot += a[(i + k) % n] * b[k];
  int taps = 0;
  #pragma unroll
  for (int k = 0; k < 8; ++k)
    taps += (a[i] >> k) & 1;
  out[i] = dot + taps;
}

// Nested loops under Intel's loop_coalesce (ignored with a warning), launched in work-groups of at
// most 16 work-items.
__attribute__((max_work_group_size(16, 1, 1)))
__kernel void bounded_groups(__global const int *a, __global const int *b, __global int *out, int n) {
  int i = get_global_id(0);
  int acc = 0;
  #pragma loop_coalesce 2
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      acc += a[(i + r * 4 + c) % n] * (b[i] + r - c);
  out[i] = acc + (int)get_local_size(0);
}

// A float sum the programmer lets reassociate (as -cl-fast-relaxed-math does for a whole program):
// in hardware, interleaved partial sums. Whole numbers keep every order of the additions exact.
__attribute__((max_global_work_dim(0)))
__kernel void reassociated_sum(__global const int *a, __global const int *b, __global int *out, int n) {
  #pragma clang fp reassociate(on)
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += (float)(a[k] - b[k]);
  out[0] = (int)sum;
}

// A stream unrolled by 16: each iteration's neighbouring loads and stores become one wide access
// each (CombineAdjacentAccesses), read and written one element off the lines' alignment; the
// remainder loop takes the last n % 16.
__attribute__((max_global_work_dim(0)))
__kernel void unrolled_stream(__global const int *restrict a, __global const int *restrict b,
                              __global int *restrict out, int n) {
  #pragma unroll 16
  for (int k = 1; k < n; ++k)
    out[k] = a[k] * 3 - b[k - 1];
  out[0] = a[0];
}
