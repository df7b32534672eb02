// SPDX-License-Identifier: Apache-2.0
// Global atomics on the board and the CPU device (tests/e2e/AtomicsBoardTest.cpp): every kernel
// takes (data, buffer, n) and leaves its results in `buffer`, which the host compares with its own
// reference. Work-items contend for the same words, so a lost update shows as a wrong count.
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

// buffer: a 64-bit sum, signed maximum and unsigned maximum of values spread over 64 bits.
kernel void wide(global const int *data, volatile global ulong *buffer, int n) {
  long v = (long)data[get_global_id(0)] * 4000000007L;
  atom_add((volatile global long *)&buffer[0], v);
  atom_max((volatile global long *)&buffer[1], v);
  atom_max(&buffer[2], (ulong)v);
}

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
