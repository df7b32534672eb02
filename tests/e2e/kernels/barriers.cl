// SPDX-License-Identifier: Apache-2.0
// Barriers, __local memory and async copies in NDRange kernels, on the board (a work-group at a
// time, each region between barriers as loops over its work-items) and the CPU device, compared with
// host references by BarriersBoardTest.cpp. Every kernel starts (in a, in b, out, scalar), for the
// differential runner. The board's RAM blocks are nearly all taken (the __local arrays have a copy
// per work-group in flight and per port): keep new arrays small.

// A __local tile reversed within each work-group, any group size up to the default limit.
static void reverse_in(__local int *tile, __global const int *a, __global const int *b, __global int *out,
                       int scale) {
  int lid = get_local_id(0), size = get_local_size(0);
  tile[lid] = a[get_global_id(0)] * scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[size - 1 - lid] + b[get_group_id(0)];
}

__kernel void reverse_groups(__global const int *a, __global const int *b, __global int *out, int scale) {
  __local int tile[256];
  reverse_in(tile, a, b, out, scale);
}

// The same, 4 work-items at a time (Intel's SIMD work-items) in groups of 64.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((num_simd_work_items(4)))
void reverse_simd4(__global const int *a, __global const int *b, __global int *out, int scale) {
  __local int tile[64];
  reverse_in(tile, a, b, out, scale);
}

// A tree reduction: the barrier inside a loop whose trip count is the group's; a private value kept
// across the barriers; one result per group. restrict arguments, as FPGA code has them (their
// inlined scope declarations once ordered the work-items of a region on the board).
static void tree_sum_of(__local int *partial, __global const int *restrict a, __global const int *restrict b,
                        __global int *restrict out) {
  int lid = get_local_id(0), gid = get_global_id(0);
  int mine = a[gid] ^ b[gid];
  partial[lid] = mine;
  for (int stride = 32; stride > 0; stride >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      partial[lid] += partial[lid + stride];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = partial[0] - mine; // every work-item: the group's sum without its own element
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void tree_sum(__global const int *restrict a, __global const int *restrict b, __global int *restrict out,
              int unused) {
  __local int partial[64];
  tree_sum_of(partial, a, b, out);
}

// The same on three compute units, each running a contiguous third of the work-groups.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((num_compute_units(3)))
void tree_sum_cu3(__global const int *restrict a, __global const int *restrict b, __global int *restrict out,
                  int unused) {
  __local int partial[64];
  tree_sum_of(partial, a, b, out);
}

// A 2D tile transposed through __local memory: each group of 8 x 8 work-items reads a tile by rows
// and writes it by columns.
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void transpose_tiles(__global const int *a, __global const int *b, __global int *out, int width) {
  __local int tile[8][8];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  tile[ly][lx] = a[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int tx = get_group_id(1) * 8 + lx, ty = get_group_id(0) * 8 + ly;
  out[ty * width + tx] = tile[lx][ly] + b[0];
}

// Barriers in a work-group uniform branch and through global memory: neighbours exchange values
// written to `out` itself before the barrier.
__kernel void neighbours(__global const int *a, __global const int *b, __global int *out, int rounds) {
  int gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  int base = gid - lid;
  int value = a[gid];
  if (rounds > 0) {
    for (int r = 0; r < rounds; ++r) {
      out[gid] = value;
      barrier(CLK_GLOBAL_MEM_FENCE);
      value += out[base + (lid + 1) % size] * b[r];
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
  }
  out[gid] = value;
}

// Async copies between global and __local memory, each completed by wait_group_events (a barrier):
// a group's 64 elements in, reversed and scaled, and out again.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void async_reverse(__global const int *a, __global const int *b, __global int *out, int scale) {
  __local int tile[64], result[64];
  int lid = get_local_id(0), group = get_group_id(0);
  event_t in = async_work_group_copy(tile, a + group * 64, 64, 0);
  wait_group_events(1, &in);
  result[lid] = tile[63 - lid] * scale + b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(out + group * 64, result, 64, 0);
  wait_group_events(1, &back);
}

// Async copies of a group's n elements as int, long and uchar (whole bursts of 64 bytes, bursts of
// 16 bytes for uchar, several per work-item, a tail), combined through __local memory and copied
// back out.
__kernel void async_bursts(__global const int *a, __global const long *b, __global int *out, int n) {
  __local int tile[1000], result[1000];
  __local long wide[1000];
  __local uchar bytes[1000];
  const size_t group = get_group_id(0);
  event_t in = async_work_group_copy(tile, a + group * n, n, 0);
  in = async_work_group_copy(wide, b + group * n, n, in);
  in = async_work_group_copy(bytes, (__global const uchar *)(b + group * n), n, in);
  wait_group_events(1, &in);
  for (int i = get_local_id(0); i < n; i += get_local_size(0))
    result[i] = tile[n - 1 - i] + (int)(wide[i] >> 3) + bytes[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(out + group * n, result, n, 0);
  wait_group_events(1, &back);
}

// async_bursts' ints, 4 work-items a cycle (Intel's SIMD work-items): the copy regions loop over
// their bursts, each in loops over the work-items of its own, whose lanes all run the copy loop.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((num_simd_work_items(4)))
void async_simd4(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int tile[1000], result[1000];
  const size_t group = get_group_id(0);
  event_t in = async_work_group_copy(tile, a + group * n, n, 0);
  wait_group_events(1, &in);
  for (int i = get_local_id(0); i < n; i += 64)
    result[i] = tile[n - 1 - i] * 3 + b[group * n + i];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(out + group * n, result, n, 0);
  wait_group_events(1, &back);
}

// Async copies of n vectors a group (n <= 64), chained on one event: int4, char3 (copied as char4,
// the reference page's rule), uchar2 (units of 2 bytes in hardware) and short8 in from a, an int2
// column with a stride of 3 in from b; a sum per element, the int4s reversed and the column's pairs
// swapped, then the sums, the int4s and the column (with a stride of 2) back out.
__kernel void async_vectors(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int4 quads[64];
  __local char3 triples[64];
  __local uchar2 pairs[64];
  __local short8 octets[64];
  __local int2 column[64];
  __local int sums[64];
  __global const int *in = a + get_group_id(0) * 1024;
  event_t e = async_work_group_copy(quads, (__global const int4 *)in, n, 0);
  e = async_work_group_copy(triples, (__global const char3 *)(in + 256), n, e);
  e = async_work_group_copy(pairs, (__global const uchar2 *)(in + 320), n, e);
  e = async_work_group_copy(octets, (__global const short8 *)(in + 352), n, e);
  e = async_work_group_strided_copy(column, (__global const int2 *)(b + get_group_id(0) * 1024), n, 3, e);
  wait_group_events(1, &e);
  for (int i = get_local_id(0); i < n; i += get_local_size(0)) {
    const char3 t = triples[i];
    const short8 o = octets[i];
    sums[i] = quads[i].x - quads[i].w + t.x + 2 * t.y + 3 * t.z + 5 * pairs[i].x + 7 * pairs[i].y + o.s0 - o.s3 + o.s7 +
              column[i].x - column[i].y;
    quads[i] = quads[i].wzyx;
    column[i] = column[i].yx;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global int *mine = out + get_group_id(0) * 1024;
  e = async_work_group_copy(mine, sums, n, 0);
  e = async_work_group_copy((__global int4 *)(mine + 64), quads, n, e);
  e = async_work_group_strided_copy((__global int2 *)(mine + 320), column, n, 2, e);
  wait_group_events(1, &e);
}

// Async copies of floats and of 16-wide vectors, n = counts & 3 (at most 2) vectors and m = counts >> 2
// (at most 32) floats a group, waited together by one wait_group_events of the four copies in:
// float16s and floats (in bursts of 16, then one by one) in from a, int16s with a stride of 3 in
// from b, and floats with a stride of 5 in from a; a component of each vector and the floats
// changed; then out again, chained on one event, each kind the other way (float16s with a stride of
// 2, the strided floats with a stride of 3).
__kernel void async_wide(__global const float *a, __global const int *b, __global int *out, int counts) {
  __local float16 blocks[2];
  __local int16 ints[2];
  __local float column[32], plain[32];
  const int n = counts & 3, m = counts >> 2;
  __global const float *in = a + get_group_id(0) * 1024;
  event_t copies[4];
  copies[0] = async_work_group_copy(blocks, (__global const float16 *)in, n, 0);
  copies[1] = async_work_group_strided_copy(ints, (__global const int16 *)(b + get_group_id(0) * 1024), n, 3, 0);
  copies[2] = async_work_group_strided_copy(column, in + 256, m, 5, 0);
  copies[3] = async_work_group_copy(plain, in + 640, m, 0);
  wait_group_events(4, copies);
  for (int i = get_local_id(0); i < m; i += get_local_size(0))
    plain[i] += column[i];
  for (int i = get_local_id(0); i < n; i += get_local_size(0)) {
    blocks[i].s3 += column[i];
    ints[i].sa -= ints[i].s5;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global int *mine = out + get_group_id(0) * 1024;
  event_t e = async_work_group_copy((__global float *)mine, plain, m, 0);
  e = async_work_group_strided_copy((__global float16 *)(mine + 64), blocks, n, 2, e);
  e = async_work_group_copy((__global int16 *)(mine + 192), ints, n, e);
  e = async_work_group_strided_copy((__global float *)(mine + 256), column, m, 3, e);
  wait_group_events(1, &e);
}

// Async copies of chars and shorts (n <= 32 a group) after prefetches of what they read (a hint,
// which must change nothing), each way as two chains of two copies waited by one wait_group_events:
// chars in from a (contiguous, and with a stride of 2 chained on a strided copy of shorts from b);
// then out into the shorts of `out`: shorts contiguous and with a stride of 2, chars with a stride of
// 3 and contiguous.
__kernel void async_narrow(__global const char *a, __global const short *b, __global short *out, int n) {
  __local char bytes[32], picked[32];
  __local short halves[32], sums[32];
  __global const char *in = a + get_group_id(0) * 1024;
  __global const short *column = b + get_group_id(0) * 1024;
  prefetch(in, 1024);
  prefetch(column, 96);
  event_t copies[2];
  copies[0] = async_work_group_copy(bytes, in, n, 0);
  copies[1] = async_work_group_strided_copy(halves, column, n, 3, 0);
  copies[1] = async_work_group_strided_copy(picked, in + 512, n, 2, copies[1]);
  wait_group_events(2, copies);
  for (int i = get_local_id(0); i < n; i += get_local_size(0)) {
    sums[i] = bytes[i] * halves[i] + picked[n - 1 - i];
    bytes[i] ^= picked[i];
    halves[i] >>= 2;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global short *mine = out + get_group_id(0) * 1024;
  copies[0] = async_work_group_copy(mine, sums, n, 0);
  copies[0] = async_work_group_strided_copy((__global char *)(mine + 128), bytes, n, 3, copies[0]);
  copies[1] = async_work_group_strided_copy(mine + 512, halves, n, 2, 0);
  copies[1] = async_work_group_copy((__global char *)(mine + 256), picked, n, copies[1]);
  wait_group_events(2, copies);
}

// printf after a barrier, in a kernel that also takes the work-group arguments (after the printf
// buffer's).
__kernel void print_after_barrier(__global int *out) {
  __local int tile[64];
  int l = get_local_id(0);
  tile[l] = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = printf("group %u item %d sees %d\n", (uint)get_group_id(0), l,
                                 tile[get_local_size(0) - 1 - l]);
}

// __local pointer arguments, sized by clSetKernelArg: the tile reversed per group as reverse_groups
// does, and the group's signs, whose on-chip memory on the board is local_mem_size(2048) bytes (the
// tile's is the default 16 KiB).
__kernel void reverse_local_args(__global const int *a, __global const int *b, __global int *out, int scale,
                                 __local int *tile, __local int *__attribute__((local_mem_size(2048))) signs) {
  int lid = get_local_id(0), size = get_local_size(0);
  tile[lid] = a[get_global_id(0)] * scale;
  signs[lid] = a[get_global_id(0)] < 0 ? -1 : 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[size - 1 - lid] + b[get_group_id(0)] * signs[(lid + 1) % size];
}

// What Rodinia's kernels keep across barriers: a bool per work-item (hotspot's `computed`; the board
// keeps it as a byte), and a __local array of structs each copied whole from global memory
// (lavaMD's rA_shared[i] = d_rv_gpu[j], a memcpy the board runs a field at a time).
typedef struct {
  int key;
  uint bits;
  int x, y;
} Particle;

__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void flags_and_structs(__global const int *a, __global const int *b, __global int *out, int threshold) {
  __local Particle shared[32];
  int lid = get_local_id(0), gid = get_global_id(0);
  bool hot = a[gid] > threshold;
  shared[lid] = ((__global const Particle *)b)[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  Particle other = shared[31 - lid];
  out[gid] = other.key + (int)(other.bits >> 3) - other.x * other.y + (hot ? 1000 : -1);
}
