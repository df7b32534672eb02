// SPDX-License-Identifier: Apache-2.0
// Atomics on the board and the CPU device (tests/e2e/AtomicsBoardTest.cpp): every kernel takes
// (data, buffer, n) and leaves its results in `buffer`, which the host compares with its own
// reference. Work-items contend for the same words, so a lost update shows as a wrong count: on
// __global memory the 1.x atomics, their atom_* spellings on int, uint, long and ulong, and the 2.0
// forms; on __local memory one work-item's loops and whole work-groups contending.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// buffer: 16 counts, then 16 sums of the values that fell in each bin.
kernel void histogram(global const int *data, volatile global int *buffer, int n) {
  int v = data[get_global_id(0)];
  atomic_inc(&buffer[v & 15]);
  atomic_add(&buffer[16 + (v & 15)], v);
}

// buffer: signed min, signed max, unsigned min, unsigned max, and, or, xor, sub, dec, and the count of
// odd values (an atomic only some work-items reach).
kernel void reductions(global const int *data, volatile global uint *buffer, int n) {
  int i = get_global_id(0);
  int v = data[i];
  volatile global int *signed_words = (volatile global int *)buffer;
  atomic_min(&signed_words[0], v);
  atomic_max(&signed_words[1], v);
  atomic_min(&buffer[2], (uint)v);
  atomic_max(&buffer[3], (uint)v);
  atomic_and(&buffer[4], ~(1u << (i & 31)) | (uint)v);
  atomic_or(&buffer[5], 1u << (v & 31));
  atomic_xor(&buffer[6], (uint)v);
  atom_sub(&buffer[7], (uint)v);
  atomic_dec(&buffer[8]);
  if (v & 1)
    atomic_inc(&buffer[9]);
}

// buffer: the counter, then each work-item's ticket (the counter's value it saw).
kernel void tickets(global const int *data, volatile global int *buffer, int n) {
  int i = get_global_id(0);
  buffer[1 + i] = atomic_inc(&buffer[0]);
}

// buffer: the slot, then what each work-item took out of it when it put its own id in.
kernel void exchange(global const int *data, volatile global int *buffer, int n) {
  int i = get_global_id(0);
  buffer[1 + i] = atomic_xchg(&buffer[0], i + 1000);
}

// buffer: a sum made by compare-and-swap retries, a maximum made the same way, and the number of
// failed attempts (only that it is not negative is checked).
kernel void cas_loops(global const int *data, volatile global int *buffer, int n) {
  int v = data[get_global_id(0)];
  int old = buffer[0];
  for (;;) {
    int seen = atomic_cmpxchg(&buffer[0], old, old + v);
    if (seen == old)
      break;
    old = seen;
  }
  old = buffer[1];
  while (v > old) {
    int seen = atomic_cmpxchg(&buffer[1], old, v);
    if (seen == old)
      break;
    atomic_inc(&buffer[2]);
    old = seen;
  }
}

// 64 bits, every work-item on the same words, with values spread over all 64 bits (data times
// 4000000007: sums carry across bit 31, and the negative ones are ulongs above 2^63). buffer: [0] a
// long sum (atom_add), [1] a ulong difference (atom_sub), [2] long min, [3] long max, [4] ulong min,
// [5] ulong max, [6] and, [7] or, [8] xor, [9] a sum by atom_cmpxchg retries.
kernel void wide(global const int *data, volatile global ulong *buffer, int n) {
  int i = get_global_id(0);
  long v = (long)data[i] * 4000000007L;
  volatile global long *signed_words = (volatile global long *)buffer;
  atom_add(&signed_words[0], v);
  atom_sub(&buffer[1], (ulong)v);
  atom_min(&signed_words[2], v);
  atom_max(&signed_words[3], v);
  atom_min(&buffer[4], (ulong)v);
  atom_max(&buffer[5], (ulong)v);
  atom_and(&buffer[6], ~(1UL << (i & 63)) | (ulong)v);
  atom_or(&signed_words[7], (long)(1UL << (data[i] & 63)));
  atom_xor(&buffer[8], (ulong)v);
  ulong old = buffer[9];
  for (;;) {
    ulong seen = atom_cmpxchg(&buffer[9], old, old + (ulong)v);
    if (seen == old)
      break;
    old = seen;
  }
}

// 64-bit atomics whose old values are known as a set: buffer[0] counts up (atom_inc, ulong) across
// 2^63, [1] down (atom_dec, long) across 0, [2] climbs by 3 * 2^31 + 1 (atom_add, ulong), [3] by 2^32
// through atom_cmpxchg retries on a long (a compare of the low halves alone would succeed on stale
// values), and [4] is exchanged (atom_xchg, long) for -(i + 1) * (2^33 + 1). Work-item i's five old
// values land in buffer[8 + 5 * i ...].
kernel void wide_tickets(global const int *data, volatile global ulong *buffer, int n) {
  int i = get_global_id(0);
  volatile global long *signed_words = (volatile global long *)buffer;
  volatile global ulong *mine = buffer + 8 + 5 * i;
  mine[0] = atom_inc(&buffer[0]);
  mine[1] = atom_dec(&signed_words[1]);
  mine[2] = atom_add(&buffer[2], 0x180000001UL);
  long old = signed_words[3];
  for (;;) {
    long seen = atom_cmpxchg(&signed_words[3], old, old + 0x100000000L);
    if (seen == old)
      break;
    old = seen;
  }
  mine[3] = old;
  mine[4] = atom_xchg(&signed_words[4], -(long)(i + 1) * 0x200000001L);
}

// The 32-bit spellings the kernels above leave out, on int (aliases_int) and uint (aliases_uint):
// atomic_sub and the atom_* names of cl_khr_global_int32_base/extended_atomics. buffer: [0] a
// difference (atomic_sub), [1] a sum (atom_add), [2] min, [3] max, [4] and, [5] or, [6] xor, [7]
// counted down (atom_dec), [8] a sum by atom_cmpxchg retries, [9] a counter (atom_inc) and [10] a
// slot (atom_xchg), whose old values land in buffer[16 + 2 * i] and buffer[17 + 2 * i].
#define ALIASES(NAME, T)                                                                           \
  kernel void NAME(global const int *data, volatile global T *buffer, int n) {                     \
    int i = get_global_id(0);                                                                      \
    T v = (T)data[i];                                                                              \
    atomic_sub(&buffer[0], v);                                                                     \
    atom_add(&buffer[1], v);                                                                       \
    atom_min(&buffer[2], v);                                                                       \
    atom_max(&buffer[3], v);                                                                       \
    atom_and(&buffer[4], (T)~(1u << (i & 31)) | v);                                                \
    atom_or(&buffer[5], (T)(1u << (data[i] & 31)));                                                \
    atom_xor(&buffer[6], v);                                                                       \
    atom_dec(&buffer[7]);                                                                          \
    T old = buffer[8];                                                                             \
    for (;;) {                                                                                     \
      T seen = atom_cmpxchg(&buffer[8], old, (T)((uint)old + (uint)v));                            \
      if (seen == old)                                                                             \
        break;                                                                                     \
      old = seen;                                                                                  \
    }                                                                                              \
    buffer[16 + 2 * i] = atom_inc(&buffer[9]);                                                     \
    buffer[17 + 2 * i] = atom_xchg(&buffer[10], (T)i);                                             \
  }
ALIASES(aliases_int, int)
ALIASES(aliases_uint, uint)

// One work-item: the histogram of all n values, bin by bin, through atomics in a loop. `data` is
// restrict, so its loads run ahead of the atomics (one port serves its requests in order).
kernel void serial_histogram(global const int *restrict data, volatile global int *buffer, int n) {
  for (int k = 0; k < n; ++k)
    atomic_add(&buffer[data[k] & 15], data[k]);
}

// One work-item, atomics on __local arrays (on-chip memories: a read, the operation and a write):
// buffer gets the 16 bins' sums, the minimum and maximum, the last value (xchg), and 1 from a
// cmpxchg that only the first iteration's compare matches.
kernel void local_atomics(global const int *restrict data, volatile global int *buffer, int n) {
  local int bins[16];
  local int extremes[2];
  local int last[1], first[1];
  for (int b = 0; b < 16; ++b)
    bins[b] = 0;
  extremes[0] = INT_MAX;
  extremes[1] = INT_MIN;
  first[0] = 0;
  for (int k = 0; k < n; ++k) {
    int v = data[k];
    atomic_add(&bins[v & 15], v);
    atomic_min(&extremes[0], v);
    atomic_max(&extremes[1], v);
    atomic_xchg(&last[0], v);
    atomic_cmpxchg(&first[0], 0, k + 1);
  }
  for (int b = 0; b < 16; ++b)
    buffer[b] = bins[b];
  buffer[16] = extremes[0];
  buffer[17] = extremes[1];
  buffer[18] = last[0];
  buffer[19] = first[0];
}

// atomic_init of __global objects (a volatile store through a generic pointer), each work-item its
// own: buffer[i] = 3 * data[i].
kernel void c11_init(global const int *data, global int *buffer, int n) {
  int i = get_global_id(0);
  atomic_init((volatile global atomic_int *)buffer + i, 3 * data[i]);
}

// The OpenCL C 2.0 atomics in the forms every OpenCL 3.0 device has (_explicit with an order and a
// scope; this file is built with -cl-std=CL3.0): buffer[0..15] a histogram, [16] max, [17] min,
// [18] xor, [19] a sum by compare-exchange retries, [20] or, [21] and, [22] a sum subtracted, [23]
// exchanged for each work-item's id, the old value landing in buffer[32 + id].
kernel void c11_relaxed(global const int *data, global int *buffer, int n) {
  int i = get_global_id(0), v = data[i];
  volatile global atomic_int *cells = (volatile global atomic_int *)buffer;
  const memory_order relaxed = memory_order_relaxed;
  const memory_scope group = memory_scope_work_group;
  atomic_fetch_add_explicit(&cells[v & 15], 1, relaxed, group);
  atomic_fetch_max_explicit(&cells[16], v, relaxed, group);
  atomic_fetch_min_explicit(&cells[17], v, relaxed, group);
  atomic_fetch_xor_explicit(&cells[18], v, relaxed, group);
  int expected = atomic_load_explicit(&cells[19], relaxed, group);
  while (!atomic_compare_exchange_weak_explicit(&cells[19], &expected, expected + v, relaxed, relaxed, group))
    ;
  atomic_fetch_or_explicit(&cells[20], 1 << (v & 31), relaxed, group);
  atomic_fetch_and_explicit(&cells[21], ~(1 << ((v >> 5) & 31)), relaxed, group);
  atomic_fetch_sub_explicit(&cells[22], v, relaxed, group);
  buffer[32 + i] = atomic_exchange_explicit(&cells[23], i, relaxed, group);
}

// Work-groups of 128 contending for __local counters (the OpenCL 1.x atomics on local memory), each
// group its own: after a barrier, one work-item writes them to buffer[16 * group ...]: [0] a sum
// (atomic_add), [1] a count (atomic_inc), [2] min, [3] max, [4] unsigned min, [5] unsigned max, [6]
// and, [7] or, [8] xor, [9] a difference (atomic_sub), [10] counted down (atomic_dec), [11] a sum by
// atomic_cmpxchg retries, [12] the slot atomic_xchg left. Work-item i's ticket (atomic_inc's old
// value) and what it took out of the slot land in buffer[16 * groups + 2 * i ...].
kernel __attribute__((reqd_work_group_size(128, 1, 1))) void local_contention(global const int *data,
                                                                              global int *buffer, int n) {
  local int counters[13];
  volatile local uint *unsigned_counters = (volatile local uint *)counters;
  int lid = get_local_id(0);
  if (lid == 0) {
    const int start[13] = {0, 0, INT_MAX, INT_MIN, -1, 0, -1, 0, 0x5a5a5a5a, 7, 0, 0, -1};
    for (int k = 0; k < 13; ++k)
      counters[k] = start[k];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = get_global_id(0), v = data[i];
  global int *mine = buffer + 16 * get_num_groups(0) + 2 * i;
  atomic_add(&counters[0], v);
  mine[0] = atomic_inc(&counters[1]);
  atomic_min(&counters[2], v);
  atomic_max(&counters[3], v);
  atomic_min(&unsigned_counters[4], (uint)v);
  atomic_max(&unsigned_counters[5], (uint)v);
  atomic_and(&unsigned_counters[6], ~(1u << (lid & 31)) | (uint)v);
  atomic_or(&unsigned_counters[7], 1u << (v & 31));
  atomic_xor(&counters[8], v);
  atomic_sub(&counters[9], v);
  atomic_dec(&counters[10]);
  int old = counters[11];
  for (;;) {
    int seen = atomic_cmpxchg(&counters[11], old, (int)((uint)old + (uint)v));
    if (seen == old)
      break;
    old = seen;
  }
  mine[1] = atomic_xchg(&counters[12], lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    for (int k = 0; k < 13; ++k)
      buffer[16 * get_group_id(0) + k] = counters[k];
}

// The OpenCL C 2.0 form on __local objects, contended: the 64 work-items of each group add their
// values and count themselves with atomic_fetch_add_explicit (relaxed, work-group scope); buffer gets
// each group's sum and count, then each work-item's ticket (the count's old value).
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void local_c11(global const int *data, global int *buffer,
                                                                       int n) {
  local atomic_int sum, count;
  const memory_order relaxed = memory_order_relaxed;
  const memory_scope group = memory_scope_work_group;
  int lid = get_local_id(0);
  if (lid == 0) {
    atomic_init(&sum, 0);
    atomic_init(&count, 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = get_global_id(0);
  atomic_fetch_add_explicit(&sum, data[i], relaxed, group);
  buffer[2 * get_num_groups(0) + i] = atomic_fetch_add_explicit(&count, 1, relaxed, group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    buffer[2 * get_group_id(0)] = atomic_load_explicit(&sum, relaxed, group);
    buffer[2 * get_group_id(0) + 1] = atomic_load_explicit(&count, relaxed, group);
  }
}
