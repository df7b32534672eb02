// SPDX-License-Identifier: Apache-2.0
// The QoR benchmark's kernels (tests/benchmarks/qor.py): the loops and memory patterns FPGA OpenCL
// users compare compilers on. Written for Loom; results are checked against numpy by the driver.

#include "gsum.cl"
#include "rows.cl"

// The same rows in a single work-item kernel: the inner trip count is the same for every row, so a
// row enters the inner loop while earlier ones are still inside and the rows hide each other's
// recurrence, as the NDRange rows' work-items do.
__attribute__((max_global_work_dim(0)))
__kernel void rows_swi(__global const int *restrict a, __global int *restrict out, int n, int m) {
  for (int j = 0; j < n; ++j) {
    int s = 0;
    for (int k = 0; k < m; ++k)
      s = s * 3 + a[j * m + k];
    out[j] = s;
  }
}

// Float weights into bins: a read-modify-write through memory every iteration.
__attribute__((max_global_work_dim(0)))
__kernel void histogram(__global const int *restrict bin, __global const float *restrict weight,
                        __global float *hist, int n) {
  for (int i = 0; i < n; ++i)
    hist[bin[i]] += weight[i];
}

// Each work-item counts its own row of bins: a read-modify-write through memory every iteration, which
// the next waits for (the pointers may overlap), a ring of some 250 cycles. Other work-items fill it.
__kernel void row_counts(__global const int *bin, __global float *counts, int n) {
  int i = get_global_id(0);
  for (int k = 0; k < n; ++k)
    counts[i * 64 + bin[i * n + k]] += 1.0f;
}

// Integer matrix multiply, single work-item: n^3 multiply-accumulates.
__attribute__((max_global_work_dim(0)))
__kernel void gemm(__global const int *restrict a, __global const int *restrict b,
                   __global int *restrict c, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int acc = 0;
      for (int k = 0; k < n; ++k)
        acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

// Integer matrix multiply, single work-item, over __local tiles (the FPGA vendors' style): each
// 16 x 16 block of c sums the products of a 16-column strip of a and a 16-row strip of b, copied on
// chip a tile at a time. The inner product is unrolled: each iteration reads a row of ta and a
// column of tb, one element from each of their 16 banks (Xilinx's partition of ta's columns,
// Intel's banks of tb's rows). The block's sums stay on chip until its last strip.
#define TILE 16
__attribute__((max_global_work_dim(0)))
__kernel void tiled_gemm(__global const int *restrict a, __global const int *restrict b,
                         __global int *restrict c, int n) {
  __local int ta[TILE][TILE] __attribute__((xcl_array_partition(complete, 2)));
  __local int tb[TILE][TILE] __attribute__((numbanks(TILE), bankwidth(4 * TILE)));
  int sums[TILE * TILE];
  for (int bi = 0; bi < n; bi += TILE)
    for (int bj = 0; bj < n; bj += TILE)
      for (int bk = 0; bk < n; bk += TILE) {
        for (int ij = 0; ij < TILE * TILE; ++ij) {
          const int i = ij / TILE, j = ij % TILE;
          ta[i][j] = a[(bi + i) * n + bk + j];
          tb[i][j] = b[(bk + i) * n + bj + j];
        }
        for (int ij = 0; ij < TILE * TILE; ++ij) {
          const int i = ij / TILE, j = ij % TILE;
          int s = bk == 0 ? 0 : sums[ij];
          #pragma unroll
          for (int k = 0; k < TILE; ++k)
            s += ta[i][k] * tb[k][j];
          if (bk + TILE < n)
            sums[ij] = s;
          else
            c[(bi + i) * n + bj + j] = s;
        }
      }
}

// STREAM triad, single work-item.
__attribute__((max_global_work_dim(0)))
__kernel void triad_swi(__global const float *restrict b, __global const float *restrict c,
                        __global float *restrict a, float s, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

// STREAM triad, NDRange.
__kernel void triad(__global const float *restrict b, __global const float *restrict c,
                    __global float *restrict a, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}

// STREAM triad on float16 vectors, single work-item and NDRange: each access one 64-byte request,
// 16 elements an iteration or work-item, as written for FPGAs to fill the memory's width.
__attribute__((max_global_work_dim(0)))
__kernel void triad16_swi(__global const float16 *restrict b, __global const float16 *restrict c,
                          __global float16 *restrict a, float s, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

__attribute__((max_global_work_dim(0)))
__kernel void triad_unroll16_swi(__global const float *restrict b, __global const float *restrict c,
                                 __global float *restrict a, float s, int n) {
  #pragma unroll 16
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

__kernel void triad16(__global const float16 *restrict b, __global const float16 *restrict c,
                      __global float16 *restrict a, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}

// STREAM triad, NDRange, scalar as written for a CPU, with Intel's num_simd_work_items: 16
// work-items a cycle, whose neighbouring accesses become one 64-byte access each.
__attribute__((reqd_work_group_size(32, 1, 1))) __attribute__((num_simd_work_items(16)))
__kernel void triad_simd16(__global const float *restrict b, __global const float *restrict c,
                           __global float *restrict a, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}

// Naive sgemm: one work-item per element, the k-loop's float add carried per work-item.
__kernel void sgemm(__global const float *a, __global const float *b, __global float *c, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}

// Mandelbrot: a data-dependent trip count per work-item.
static int escape_time(float cr, float ci, int maxit) {
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  return it;
}

__kernel void mandelbrot(__global int *out, float x0, float y0, float step, int maxit) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = escape_time(x0 + step * x, y0 + step * y, maxit);
}

// The same with Intel's num_compute_units(4): four copies of the hardware, each a quarter of the
// rows' work-groups.
__attribute__((num_compute_units(4)))
__kernel void mandelbrot_cu4(__global int *out, float x0, float y0, float step, int maxit) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = escape_time(x0 + step * x, y0 + step * y, maxit);
}

#include "fir.cl"

// 2D 5-point stencil, NDRange over the interior.
__kernel void stencil(__global const float *restrict in, __global float *restrict out, int w) {
  int x = get_global_id(0) + 1, y = get_global_id(1) + 1;
  out[y * w + x] = 0.5f * in[y * w + x] +
                   0.125f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

// The same stencil, single work-item, over a sliding window (the FPGA vendors' line-buffer idiom):
// each input is read once and shifts through a window of two rows and one point, whose centre and
// four neighbours feed the output a row behind, so the loop makes a point a cycle.
#define STENCIL_W 130
__attribute__((max_global_work_dim(0)))
__kernel void stencil_window(__global const float *restrict in, __global float *restrict out, int h) {
  float window[2 * STENCIL_W + 1];
  #pragma unroll
  for (int k = 0; k < 2 * STENCIL_W + 1; ++k)
    window[k] = 0.0f;
  const int n = h * STENCIL_W;
  for (int t = 0; t < n + STENCIL_W; ++t) {
    #pragma unroll
    for (int k = 0; k < 2 * STENCIL_W; ++k)
      window[k] = window[k + 1];
    window[2 * STENCIL_W] = t < n ? in[t] : 0.0f;
    const int p = t - STENCIL_W, x = p % STENCIL_W, y = p / STENCIL_W;
    if (y >= 1 && y < h - 1 && x >= 1 && x < STENCIL_W - 1)
      out[p] = 0.5f * window[STENCIL_W] + 0.125f * (window[STENCIL_W - 1] + window[STENCIL_W + 1] +
                                                     window[0] + window[2 * STENCIL_W]);
  }
}

// A per-work-item insertion sort, largest first, in a private array (NDRange): each work-item in
// flight has a copy of the array of its own, so work-items interleave in the data-dependent loops.
__kernel void private_sort(__global const int *restrict in, __global int *restrict out, int m) {
  int i = get_global_id(0);
  int v[16];
  for (int k = 0; k < m; ++k) {
    int x = in[i * m + k], j = k - 1;
    for (; j >= 0 && v[j] < x; --j)
      v[j + 1] = v[j];
    v[j + 1] = x;
  }
  for (int k = 0; k < m; ++k)
    out[i * m + k] = v[k];
}
