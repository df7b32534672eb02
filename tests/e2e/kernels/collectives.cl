// SPDX-License-Identifier: Apache-2.0
// The work-group and sub-group functions of OpenCL C 2.0 (built with -cl-std=CL3.0), with the
// work-item functions, barriers with fences and scopes, and fences, on the board (one more pass of
// a group's work-items through the pipeline per function) and the CPU device, compared with host
// references by CollectivesBoardTest.cpp. Every kernel is (in a, in b, out, scalar) for the
// differential runner.

// Reductions and scans over int, picked by `op`, each a work-group function in a uniform branch:
// every kind (reduce, inclusive, exclusive) with every operation (add, min, max) but the reductions'
// max and the inclusive add, as each function is hardware of its own (the CPU device's own tests
// take every pairing).
__kernel void int_folds(__global const int *a, __global const int *b, __global int *out, int op) {
  int v = a[get_global_id(0)], r;
  switch (op) {
  case 0: r = work_group_reduce_add(v); break;
  case 1: r = work_group_reduce_min(v); break;
  case 2: r = work_group_scan_inclusive_max(v); break;
  case 3: r = work_group_scan_exclusive_add(v); break;
  case 4: r = work_group_scan_inclusive_min(v); break;
  case 5: r = work_group_scan_exclusive_min(v); break;
  default: r = work_group_scan_exclusive_max(v); break;
  }
  out[get_global_id(0)] = r;
}

// all, any and broadcast from the work-item at local id `source`, in one result:
// broadcast * 4 + all(v > b[0]) * 2 + any(v == b[1]).
__kernel void votes(__global const int *a, __global const int *b, __global int *out, int source) {
  int v = a[get_global_id(0)];
  int all = work_group_all(v > b[0]), any = work_group_any(v == b[1]);
  out[get_global_id(0)] = work_group_broadcast(v, (size_t)source) * 4 + all * 2 + any;
}

// Other element types: unsigned min, long sum, float sum (in local linear id order on both devices)
// and float exclusive max, whose identity is -inf for the first work-item.
__kernel void typed_folds(__global const float *a, __global const int *b, __global float *out, int op) {
  float x = a[get_global_id(0)];
  int i = b[get_global_id(0)];
  float r;
  switch (op) {
  case 0: r = (float)work_group_reduce_min((uint)i); break;
  case 1: r = (float)(work_group_reduce_add((long)i * 1000003L) % 1000000L); break;
  case 2: r = work_group_reduce_add(x); break;
  default: r = work_group_scan_exclusive_max(x); break;
  }
  out[get_global_id(0)] = r;
}

// Scans over 64-bit elements (their values past 32 bits), picked by `op`: long and ulong, whose
// orders differ for the negative ones.
__kernel void long_scans(__global const long *a, __global const int *b, __global long *out, int op) {
  const long v = a[get_global_id(0)];
  long r;
  switch (op) {
  case 0: r = work_group_scan_inclusive_add(v); break;
  case 1: r = (long)work_group_scan_exclusive_add((ulong)v); break;
  case 2: r = work_group_scan_exclusive_min(v); break;
  default: r = (long)work_group_scan_inclusive_max((ulong)v); break;
  }
  out[get_global_id(0)] = r;
}

// A 2D group: the broadcast from local id (1, 2), a sum, and a scan in local linear id order.
__kernel __attribute__((reqd_work_group_size(4, 8, 1)))
void grid(__global const int *a, __global const int *b, __global int *out, int unused) {
  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  int v = a[g];
  out[g] = work_group_broadcast(v, 1, 2) + work_group_reduce_add(v) * 3 + work_group_scan_inclusive_add(v) * 7;
}

// Work-group functions in a loop whose trip count comes from the data (uniform per group): each
// round adds the group's maximum and its running sum.
__kernel void rounds(__global const int *a, __global const int *b, __global int *out, int unused) {
  int v = a[get_global_id(0)];
  for (int r = 0; r < b[get_group_id(0)]; ++r)
    v = (v + work_group_reduce_max(v) + work_group_scan_exclusive_add(v)) % 1009;
  out[get_global_id(0)] = v;
}

// sub_groups' ids and sizes (ops 0 and 1) alone: no barrier and no collective, so one region.
__kernel void sub_group_queries(__global const int *a, __global const int *b, __global int *out, int op) {
  out[get_global_id(0)] =
      op == 0 ? (int)(get_sub_group_local_id() + 1000 * get_sub_group_id() + 100000 * get_num_sub_groups())
              : (int)(get_sub_group_size() + 1000 * get_max_sub_group_size() + 1000000 * get_enqueued_num_sub_groups());
}

// Sub-groups, whatever their size on the device (runs of work-items in local linear id order: the
// CPU's of 8, the board's of 64): the ids and sizes, the sub-group functions, and an
// exchange between neighbours through global memory between sub_group_barriers.
__kernel void sub_groups(__global const int *a, __global const int *b, __global int *out, int op) {
  size_t g = get_global_id(0);
  int v = a[g], r;
  switch (op) {
  case 0: r = (int)(get_sub_group_local_id() + 1000 * get_sub_group_id() + 100000 * get_num_sub_groups()); break;
  case 1: r = (int)(get_sub_group_size() + 1000 * get_max_sub_group_size() + 1000000 * get_enqueued_num_sub_groups()); break;
  case 2: r = sub_group_reduce_add(v); break;
  case 3: r = sub_group_scan_inclusive_max(v); break;
  case 4: r = sub_group_broadcast(v, 1); break;
  default:
    out[g] = v;
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
    r = out[g ^ 1] * 2;
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    break;
  }
  out[g] = r;
}

// The sub-group votes, reductions and exclusive scans sub_groups leaves out, over int and over uint
// (the same bits: the negative ints are the large uints), picked by `op`; op 0 is the votes,
// all(v > b[0]) * 2 + any(v == b[1]).
__kernel void sub_group_folds(__global const int *a, __global const int *b, __global int *out, int op) {
  const int v = a[get_global_id(0)];
  const uint u = (uint)v;
  int r;
  switch (op) {
  case 0: r = sub_group_all(v > b[0]) * 2 + sub_group_any(v == b[1]); break;
  case 1: r = sub_group_reduce_min(v); break;
  case 2: r = sub_group_reduce_max(v); break;
  case 3: r = sub_group_scan_exclusive_add(v); break;
  case 4: r = sub_group_scan_exclusive_min(v); break;
  case 5: r = sub_group_scan_exclusive_max(v); break;
  case 6: r = (int)sub_group_reduce_min(u); break;
  case 7: r = (int)sub_group_reduce_max(u); break;
  case 8: r = (int)sub_group_scan_exclusive_add(u); break;
  case 9: r = (int)sub_group_scan_exclusive_min(u); break;
  default: r = (int)sub_group_scan_exclusive_max(u); break;
  }
  out[get_global_id(0)] = r;
}

// Sub-groups on different paths between two work-group cuts: sub-group k runs k % 3 rounds of an
// exchange between neighbours between sub_group_barriers with a sub-group reduction, the odd ones a
// sub-group scan, and then all meet at a work-group barrier and reduction.
__kernel void divergent_sub_groups(__global const int *a, __global const int *b, __global int *out, int unused) {
  size_t g = get_global_id(0);
  uint rounds = get_sub_group_id() % 3;
  int v = a[g];
  for (uint r = 0; r < rounds; ++r) {
    out[g] = v;
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
    v += out[g ^ 1] + sub_group_reduce_add(v);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  }
  if (get_sub_group_id() & 1)
    v = sub_group_scan_inclusive_add(v);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = v + work_group_reduce_max(v);
}

// The work-item functions of a launch whose last work-groups are partial (OpenCL 2.0).
__kernel void group_shape(__global const int *a, __global const int *b, __global int *out, int unused) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  size_t i = (y * get_global_size(0) + x) * 4;
  out[i] = get_local_size(0) * 100 + get_local_size(1);
  out[i + 1] = get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1);
  out[i + 2] = get_num_groups(0) * 100 + get_num_groups(1);
  out[i + 3] = (get_local_id(1) * get_local_size(0) + get_local_id(0)) * 100 + get_group_id(0) * 10 + get_group_id(1);
}

// Neighbours exchange through __local and __global memory at once, cut by work_group_barriers with
// both fences (with a scope, then flags only, before the values the others read are overwritten),
// and the fences of OpenCL C 1.x and 2.0 between a work-item's own accesses: none may change a
// result.
__kernel void fenced_exchange(__global const int *a, __global const int *b, __global int *out, int unused) {
  __local int tile[256];
  const size_t lid = get_local_id(0), size = get_local_size(0), g = get_global_id(0), base = g - lid;
  tile[lid] = a[g];
  out[g] = b[g];
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  const int own = out[g] - tile[lid];
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  const int v = tile[(lid + 1) % size] * 3 + out[base + (lid + 2) % size] + own;
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[g] = v;
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  tile[lid] = out[g] ^ 0x55;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  out[g] = out[g] * 5 + tile[size - 1 - lid];
}

// Every work-item function of each dimension of a 3D NDRange, a byte each in one ulong per
// dimension (global, local and group id, global and local size, groups, offset, enqueued local
// size, from the low byte up), then the linear ids and get_work_dim; four ulongs a work-item, at
// its place from its ids alone.
__kernel void work_items_3d(__global const ulong *a, __global const int *b, __global ulong *out, int unused) {
  const size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1),
               z = get_global_id(2) - get_global_offset(2);
  __global ulong *mine = out + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 4;
  for (uint d = 0; d < 3; ++d)
    mine[d] = get_global_id(d) | get_local_id(d) << 8 | get_group_id(d) << 16 | get_global_size(d) << 24 |
              (ulong)get_local_size(d) << 32 | (ulong)get_num_groups(d) << 40 | (ulong)get_global_offset(d) << 48 |
              (ulong)get_enqueued_local_size(d) << 56;
  mine[3] = get_global_linear_id() | get_local_linear_id() << 16 | (ulong)get_work_dim() << 32;
}

// The work-item functions asked with a dimension known only at run time, up to one past
// get_work_dim() (`extra`): the CTS's loop over the dimensions; a load at such an id; the linear ids,
// and a store at the global one.
__kernel void work_item_dims(__global const int *a, __global const int *b, __global int *out, int extra) {
  size_t y = get_global_id(1) - get_global_offset(1);
  uint sum = get_global_linear_id() * 29 + get_local_linear_id() * 37;
  for (uint d = 0; d < get_work_dim() + extra; ++d)
    sum = sum * 31 + get_global_size(d) * 7 + get_global_id(d) * 5 + get_local_size(d) * 3 + get_num_groups(d) * 11 +
          get_group_id(d) * 13 + get_local_id(d) * 17 + get_enqueued_local_size(d) * 19 + get_global_offset(d) * 23;
  // An address from such an id: a different element for each work-item.
  sum = sum * 31 + a[y * get_global_size(0) + get_global_id(extra - 1) - get_global_offset(0)];
  out[get_global_linear_id()] = sum;
}

// Loops whose trip count is the work-group's size, which a partial last group changes (OpenCL C
// 2.0): a group copies twice as many elements of `a` as it has work-items into __local memory, and
// each work-item adds up every (group size)-th of them from its own local linear id.
__kernel void group_strided_sums(__global const int *a, __global const int *b, __global int *out, int unused) {
  __local int tile[2 * 64];
  const size_t items = get_local_size(0) * get_local_size(1), lid = get_local_linear_id();
  const size_t group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
  const size_t base = group * 2 * get_enqueued_local_size(0) * get_enqueued_local_size(1);
  event_t copied = async_work_group_copy(tile, a + base, 2 * items, 0);
  wait_group_events(1, &copied);
  int sum = 0;
  for (size_t i = lid; i < 2 * items; i += items)
    sum += tile[i] * (int)(i / items + 1);
  out[get_global_linear_id()] = sum;
}

// Async copies in partial groups (OpenCL C 2.0): each group copies its own work-items' elements in,
// reversed, and out again. The copy regions loop over their bursts (a count known at run time), each
// in loops over the work-items of its own.
__kernel void async_partial_groups(__global const int *a, __global const int *b, __global int *out, int scale) {
  __local int tile[256];
  const size_t start = get_group_id(0) * get_enqueued_local_size(0), size = get_local_size(0);
  const size_t lid = get_local_id(0);
  event_t in = async_work_group_copy(tile, a + start, size, 0);
  wait_group_events(1, &in);
  const int mirrored = tile[size - 1 - lid] * scale + b[start + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[lid] = mirrored;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(out + start, tile, size, 0);
  wait_group_events(1, &back);
}

// One event array for two phases of async copies, each chaining a copy on events[1] (b is unused):
// Clang computes the slot's address once for both phases, so it is used after the barrier and must
// still name its array there (loomc refused this before). Groups of 16, n <= 16.
__kernel void async_events_reused(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int x[16], y[16], z[16];
  __global const int *in = a + get_group_id(0) * 48;
  event_t events[2];
  events[0] = async_work_group_copy(x, in, n, 0);
  events[1] = async_work_group_copy(y, in + 16, n, 0);
  events[1] = async_work_group_copy(z, in + 32, n, events[1]);
  wait_group_events(2, events);
  for (int i = get_local_id(0); i < n; i += get_local_size(0))
    y[i] += x[n - 1 - i] - z[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  __global int *mine = out + get_group_id(0) * 48;
  events[0] = async_work_group_copy(mine, x, n, 0);
  events[1] = async_work_group_copy(mine + 16, y, n, 0);
  events[1] = async_work_group_copy(mine + 32, z, n, events[1]);
  wait_group_events(2, events);
}
