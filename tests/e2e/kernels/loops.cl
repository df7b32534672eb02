// Loop kernels, run on the board, the CPU device and the host and compared bit for bit.
// Every kernel takes (in a, in b, out, scalar).

// NDRange, a loop per work-item with a constant trip count: an integer dot product.
__kernel void dot_rows(__global const int *a, __global const int *b, __global int *out, int m) {
  size_t i = get_global_id(0);
  int sum = 0;
  for (int k = 0; k < m; ++k)
    sum += a[i * m + k] * b[k];
  out[i] = sum;
}

// NDRange, a float accumulation per work-item (in order, so exact against the host).
__kernel void float_rows(__global const float *a, __global const float *b, __global float *out, int m) {
  size_t i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < m; ++k)
    sum += a[i * m + k] * b[k];
  out[i] = sum;
}

// NDRange, a data-dependent trip count (Collatz steps, capped by the scalar).
__kernel void collatz(__global const int *a, __global const int *b, __global int *out, int cap) {
  size_t i = get_global_id(0);
  unsigned x = (unsigned)a[i];
  int steps = 0;
  while (x > 1 && steps < cap) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  }
  out[i] = steps + b[i];
}

// Single work-item: a running sum over the whole array, a store in every iteration.
__attribute__((max_global_work_dim(0)))
__kernel void prefix_sum(__global const int *a, __global const int *b, __global int *out, int n) {
  int sum = 0;
  for (int j = 0; j < n; ++j) {
    sum += a[j];
    out[j] = sum ^ b[j];
  }
}

// Nested loops with continue and break.
__kernel void nested(__global const int *a, __global const int *b, __global int *out, int m) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int r = 0; r < m; ++r) {
    if ((a[i] + r) % 3 == 0)
      continue;
    for (int c = 0; c <= r; ++c) {
      if (c * r > b[i])
        break;
      acc += (r + 1) * (c + 2);
    }
  }
  out[i] = acc;
}

// A search that returns from inside the loop; a work-item that finds nothing writes -2.
__kernel void find_first(__global const int *a, __global const int *b, __global int *out, int n) {
  size_t i = get_global_id(0);
  for (int j = 0; j < n; ++j) {
    if (a[j] == b[i]) {
      out[i] = j;
      return;
    }
  }
  out[i] = -2;
}

// Single work-item read-modify-write through memory: a histogram (a loop-carried memory dependence).
__attribute__((max_global_work_dim(0)))
__kernel void histogram(__global const int *a, __global const int *b, __global int *out, int n) {
  for (int k = 0; k < 16; ++k)
    out[k] = b[k];
  for (int j = 0; j < n; ++j)
    out[a[j] & 15] += 1;
}

// A loop inside a branch: only some work-items enter it.
__kernel void guarded_loop(__global const int *a, __global const int *b, __global int *out, int m) {
  size_t i = get_global_id(0);
  int v = b[i];
  if (a[i] > 0) {
    for (int k = 0; k < a[i] % m; ++k)
      v = v * 3 + k;
  }
  out[i] = v;
}

// NDRange nests whose work-items do not all run the inner loop alike (OpenCL-CTS
// kernel_call_kernel_function): its trip count is the work-item's own, or some skip it. Work-items
// then overtake each other in the inner loop, and the outer loop's counter, used only after it, must
// still be each one's own.
__kernel void per_item_trip_count(__global const int *a, __global const int *b, __global int *out, int times) {
  int i = get_global_id(0);
  out[i] = 1;
  for (int t = 0; t < times; ++t)
    for (int k = 0; k < i % 29; ++k)
      out[i] += a[k];
}

__kernel void per_item_skip(__global const int *a, __global const int *b, __global int *out, int times) {
  int i = get_global_id(0);
  int acc = b[i];
  for (int t = 0; t < times; ++t) {
    if (i % 3 == 0)
      #pragma unroll 1
      for (int k = 0; k < 12; ++k)
        acc = acc * 3 + a[k];
    acc += t;
  }
  out[i] = acc;
}

// Single work-item streaming through restrict pointers: no order carried between iterations (II 1).
__attribute__((max_global_work_dim(0)))
__kernel void stream_restrict(__global const int *restrict a, __global const int *restrict b,
                              __global int *restrict out, int n) {
  for (int j = 0; j < n; ++j)
    out[j] = a[j] * 3 + b[j];
}

// Mandelbrot over a 2D NDRange: a data-dependent trip count per work-item, with many work-items
// interleaved in the loop while others wait to enter and finished ones store (back-pressure).
__kernel void mandelbrot(__global const int *a, __global const int *b, __global int *out, int maxit) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float cr = -2.0f + 0.046875f * x;
  float ci = -1.5f + 0.046875f * y;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  out[y * w + x] = it + b[0] - a[0];
}

// In-place updates through restrict pointers: the first two loops read and write out[j] only, so
// dependence analysis finds no order to carry (II 1); the third reads what the previous iteration
// wrote (distance 1) and the loops read what the loops before them wrote.
__attribute__((max_global_work_dim(0)))
__kernel void in_place(__global const int *restrict a, __global const int *restrict b,
                       __global int *restrict out, int n) {
  for (int j = 0; j < n; ++j)
    out[j] = b[j];
  for (int j = 0; j < n; ++j)
    out[j] += a[j] * 3;
  for (int j = 1; j < n; ++j)
    out[j] ^= out[j - 1] & 7;
}

// Memory carried several iterations apart: in the second loop iteration j waits only for
// iteration j - 2's accesses (its loads, 2 and 5 back, are too far apart to be one access), so two
// iterations share each memory round trip; in the nests, the outer loop carries a guarded update 3
// rows apart, and rows 2 apart read at a column the analysis cannot follow (the inner loop still
// runs at II 1: only the outer one orders its rows); the last loop keeps it 4 iterations apart on
// the user's word (ivdep safelen).
__attribute__((max_global_work_dim(0)))
__kernel void lagged(__global const int *restrict a, __global const int *restrict b,
                     __global int *restrict out, int n) {
  for (int j = 0; j < n; ++j)
    out[j] = a[j];
  for (int j = 5; j < n; ++j)
    out[j] = ((out[j - 2] & 0xffff) * (b[j] & 3)) ^ (out[j - 5] >> 1);
  for (int row = 3; row < n / 8; ++row)
    for (int k = 0; k < 8; ++k)
      if (b[row * 8 + k] & 4)
        out[row * 8 + k] += out[(row - 3) * 8 + k] ^ 5;
  __global int (*grid)[16] = (__global int (*)[16])out;
  for (int row = 2; row < n / 16; ++row)
    for (int c = 0; c < 16; ++c)
      grid[row][c] = grid[row - 2][c] + (grid[row - 2][(c + 1) & 15] >> 1);
  // A data-dependent distance, 4 to 7: only the user knows no two accesses are closer.
  #pragma ivdep safelen(4)
  for (int j = 8; j < n; ++j)
    out[j] = (out[j - 4 - (b[j] & 3)] >> 2) + (out[j] & 0xfff);
}

// Read-modify-writes served by a forwarding queue (the bins are the loop's only accesses of `out`'s
// memory; the inputs are restrict): a predicated update of 16 bins with frequent repeats, read back
// after the loop, and per-work-item bins with work-items interleaved in the loop.
__attribute__((max_global_work_dim(0)))
__kernel void histogram_forwarded(__global const int *restrict a, __global const int *restrict b,
                                  __global int *out, int n) {
  for (int k = 0; k < 16; ++k)
    out[k] = b[k];
  for (int j = 0; j < n; ++j)
    if (a[j] % 3 != 0)
      out[a[j] & 15] += a[j] >> 8;
  out[16] = out[a[0] & 15] + 1;
}

__kernel void histogram_rows(__global const int *restrict a, __global const int *restrict b,
                             __global int *out, int n) {
  int row = get_global_id(0);
  for (int k = 0; k < 8; ++k)
    out[row * 8 + k] = 0;
  for (int j = 0; j < n; ++j)
    out[row * 8 + (a[row * n + j] & 7)] += b[j];
}

// Single work-item nests (not unrolled). The rows' inner loops run the same 16 steps for every row,
// so a row enters them while earlier rows are still inside: their 4-cycle recurrences interleave.
// rows_nest3 does so at two levels, its middle loop's t starting where it is first used, after the
// innermost loop, as rows_running_total's total does. Rows take turns where the inner trip count
// changes with the row (rows_triangle) or the inner loop starts from the previous row's result
// (rows_chained).
__attribute__((max_global_work_dim(0)))
__kernel void rows_fold(__global const int *restrict a, __global const int *restrict b,
                        __global int *restrict out, int n) {
  for (int r = 0; r < n; ++r) {
    int s = b[r];
    #pragma unroll 1
    for (int k = 0; k < 16; ++k)
      s = s * 3 + a[r * 16 + k];
    out[r] = (s & 1) ? s : s ^ r;
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void rows_nest3(__global const int *restrict a, __global const int *restrict b,
                         __global int *restrict out, int n) {
  for (int r = 0; r < n; ++r) {
    int t = b[r];
    #pragma unroll 1
    for (int c = 0; c < 4; ++c) {
      int s = c;
      #pragma unroll 1
      for (int k = 0; k < 4; ++k)
        s = s * 5 + a[(r * 4 + c) * 4 + k];
      t = t * 7 ^ s;
    }
    out[r] = t;
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void rows_running_total(__global const int *restrict a, __global const int *restrict b,
                                 __global int *restrict out, int n) {
  int total = 0;
  for (int r = 0; r < n; ++r) {
    int s = 0;
    #pragma unroll 1
    for (int k = 0; k < 16; ++k)
      s = s * 3 + a[r * 16 + k];
    total += s;
    out[r] = total;
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void rows_triangle(__global const int *restrict a, __global const int *restrict b,
                            __global int *restrict out, int n) {
  for (int r = 0; r < n; ++r) {
    int s = b[r];
    if (r % 3 != 0)
      for (int k = 0; k <= r % 16; ++k)
        s = s * 3 + a[r * 16 + k];
    out[r] = s;
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void rows_chained(__global const int *restrict a, __global const int *restrict b,
                           __global int *restrict out, int n) {
  int s = 0;
  for (int r = 0; r < n; ++r) {
    #pragma unroll 1
    for (int k = 0; k < 16; ++k)
      s = s * 3 + a[r * 16 + k];
    out[r] = s ^ b[r];
  }
}

// A helper Clang's inliner leaves as a call (noinline here; in Rodinia's myocyte, a large helper
// called from three places): the hardware flow, which has no calls, inlines it.
__attribute__((noinline)) int digit_sum(int x, int base) {
  int sum = 0;
  for (unsigned v = (unsigned)x; v != 0; v /= (unsigned)base)
    sum += v % (unsigned)base;
  return sum;
}

__kernel void helper_calls(__global const int *a, __global const int *b, __global int *out, int base) {
  size_t i = get_global_id(0);
  out[i] = digit_sum(a[i], base) * 100 + digit_sum(b[i], base + 1);
}
