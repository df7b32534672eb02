// Intel's and Xilinx's FPGA attributes and pragmas as public FPGA code writes them: what Loom honours
// (ivdep, ivdep array, ii, unroll, max_global_work_dim, max_work_group_size, num_simd_work_items,
// num_compute_units) and what it ignores with a warning (num_compute_units on a single work-item
// kernel, loop_coalesce). Every kernel takes (a, b, out, n).

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

// Intel's num_simd_work_items: the hardware takes 8 consecutive work-items a cycle, as lanes of one
// datapath whose neighbouring accesses become one wide access. The lanes diverge (a branch on the
// data), ask for their local and group ids, and run in a 2D range with an offset.
__attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((num_simd_work_items(8)))
__kernel void simd_lanes(__global const int *a, __global const int *b, __global int *out, int n) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  size_t i = y * get_global_size(0) + x;
  int v = a[i] * 3 + (int)get_local_id(0) - 5 * (int)get_group_id(0);
  if (b[i] > 0)
    v -= b[i] * b[i];
  out[i] = v;
}

// Lanes that each run a loop of their own trip count.
__attribute__((reqd_work_group_size(32, 1, 1))) __attribute__((num_simd_work_items(4)))
__kernel void simd_loops(__global const int *restrict a, __global const int *restrict b,
                         __global int *restrict out, int n) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int k = 0; k <= (b[i] & 7); ++k)
    acc += a[(i + k) % n];
  out[i] = acc;
}

// Lanes that update the same counters at once (atomics, 16 lanes).
__attribute__((reqd_work_group_size(16, 1, 1))) __attribute__((num_simd_work_items(16)))
__kernel void simd_histogram(__global const int *a, __global const int *b, __global int *out, int n) {
  size_t i = get_global_id(0);
  atomic_add(&out[a[i] & 15], b[i]);
}

// Intel's num_compute_units: copies of the kernel's hardware, each running a contiguous run of the
// work-groups of the dimension with the most of them, while ids and sizes stay the NDRange's. Each
// work-item loops a data-dependent number of times over a private array indexed at run time (an
// on-chip memory with a copy per work-item in flight, in each unit).
__attribute__((num_compute_units(3)))
__kernel void cu_groups(__global const int *restrict a, __global const int *restrict b,
                        __global int *restrict out, int n) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  size_t i = y * get_global_size(0) + x;
  int window[4];
  for (int k = 0; k < 4; ++k) // a[(i + k) % n] without a 64-bit divider per element
    window[k] = a[i + k < (size_t)n ? i + k : i + k - n];
  int acc = 0;
  for (int k = 0; k <= (b[i] & 7); ++k)
    acc += window[(k + b[i]) & 3] * (k + 1);
  // Each work-group id or local id costs a 64-bit divider in each unit: two of them.
  out[i] = acc + 1000 * (int)get_group_id(1) + (int)get_local_id(0);
}

// Four units updating the same counters (atomics).
__attribute__((num_compute_units(2, 2)))
__kernel void cu_histogram(__global const int *a, __global const int *b, __global int *out, int n) {
  size_t i = get_global_id(0);
  atomic_add(&out[a[i] & 15], b[i]);
}

// Intel's max_interleaving: at most N outer iterations (or work-items) inside the inner loop at
// once; each inner loop's multiply recurs, so it would otherwise take many of them in turn.
__attribute__((max_global_work_dim(0)))
__kernel void interleave_once(__global const int *a, __global const int *b, __global int *out, int n) {
  for (int j = 0; j < n; ++j) {
    int s = 1;
    #pragma max_interleaving 1
    for (int k = 0; k <= (b[j] & 15); ++k)
      s = s * 3 + a[j + k < n ? j + k : j + k - n];
    out[j] = s;
  }
}

__kernel void interleave_two(__global const int *a, __global const int *b, __global int *out, int n) {
  int j = get_global_id(0);
  int s = 1;
  #pragma max_interleaving 2
  for (int k = 0; k <= (b[j] & 15); ++k)
    s = s * 3 + a[j + k < n ? j + k : j + k - n];
  out[j] = s;
}

// ivdep on one array (Intel's `array(x)`): the scatter into `out` never meets itself across
// iterations, while the running counts in `seen` do, and keep their order.
__attribute__((max_global_work_dim(0)))
__kernel void ivdep_array_scatter(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int seen[16];
  for (int k = 0; k < 16; ++k)
    seen[k] = 0;
  #pragma ivdep array(out)
  for (int k = 0; k < n; ++k) {
    const int bin = a[k] & 15;
    seen[bin] += 1;
    out[b[k]] += a[k] * seen[bin];
  }
}
