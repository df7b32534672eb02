// Pipes on both devices (PipesBoardTest.cpp): the kernels the board's hardware flow builds, whose
// pipe arguments are stream ports bound at each launch to the board's FIFO of the pipe object.

// A task (one work-item) each: the packets keep their order. The retry loops are the portable way
// to wait for a packet or for room; on the board they become a wait at the FIFO's handshake.
__kernel void produce(__write_only pipe int out, __global const int *src, int n) {
  for (int i = 0; i < n; ++i)
    while (write_pipe(out, &src[i]) != 0)
      ;
}
__kernel void consume(__read_only pipe int in, __global int *dst, int n) {
  for (int i = 0; i < n; ++i) {
    int v;
    while (read_pipe(in, &v) != 0)
      ;
    dst[i] = v;
  }
}

// A chain of four kernels: produce -> add_one -> times_two -> consume.
__kernel void add_one(__read_only pipe int in, __write_only pipe int out, int n) {
  for (int i = 0; i < n; ++i) {
    int v;
    while (read_pipe(in, &v) != 0)
      ;
    v += 1;
    while (write_pipe(out, &v) != 0)
      ;
  }
}
__kernel void times_two(__read_only pipe int in, __write_only pipe int out, int n) {
  for (int i = 0; i < n; ++i) {
    int v;
    while (read_pipe(in, &v) != 0)
      ;
    v *= 2;
    while (write_pipe(out, &v) != 0)
      ;
  }
}

// NDRange kernels: a packet per work-item, in no set order between work-items.
__kernel void produce_items(__write_only pipe float2 out, __global const float *src) {
  const int i = get_global_id(0);
  float2 packet = (float2)(src[i], i);
  while (write_pipe(out, &packet) != 0)
    ;
}
__kernel void consume_items(__read_only pipe float2 in, __global float2 *dst) {
  float2 packet;
  while (read_pipe(in, &packet) != 0)
    ;
  dst[get_global_id(0)] = packet;
}

// Packets of every size a board stream port takes, and a struct.
typedef struct {
  short tag;
  uchar flags;
  uchar weight;
} item;
__kernel void produce_sizes(__write_only pipe uchar bytes, __write_only pipe short shorts,
                            __write_only pipe ulong longs, __write_only pipe item items, int n) {
  for (int i = 0; i < n; ++i) {
    uchar b = (uchar)(i * 7);
    short s = (short)(-300 * i);
    ulong l = 0x0123456789abcdefUL * (ulong)(i + 1);
    item it = {(short)(i - 5), (uchar)i, (uchar)(255 - i)};
    while (write_pipe(bytes, &b) != 0)
      ;
    while (write_pipe(shorts, &s) != 0)
      ;
    while (write_pipe(longs, &l) != 0)
      ;
    while (write_pipe(items, &it) != 0)
      ;
  }
}
__kernel void consume_sizes(__read_only pipe uchar bytes, __read_only pipe short shorts,
                            __read_only pipe ulong longs, __read_only pipe item items,
                            __global ulong *dst, int n) {
  for (int i = 0; i < n; ++i) {
    uchar b;
    short s;
    ulong l;
    item it;
    while (read_pipe(bytes, &b) != 0)
      ;
    while (read_pipe(shorts, &s) != 0)
      ;
    while (read_pipe(longs, &l) != 0)
      ;
    while (read_pipe(items, &it) != 0)
      ;
    dst[4 * i] = b;
    dst[4 * i + 1] = (ulong)(long)s;
    dst[4 * i + 2] = l;
    dst[4 * i + 3] = (ulong)(long)it.tag * 65536 + it.flags * 256 + it.weight;
  }
}

// Packets wider than a register travel whole: a float4, an int16 (a line of the board's memory), a
// long16 (the widest) and a 16-byte struct, read straight into global memory.
typedef struct {
  int id;
  float weight;
  long stamp;
} record;
__kernel void produce_wide(__write_only pipe float4 vectors, __write_only pipe int16 lines,
                           __write_only pipe long16 longs, __write_only pipe record records, int n) {
  for (int i = 0; i < n; ++i) {
    float4 v = (float4)(i, i + 0.5f, -i, i * 2.0f);
    int16 l = (int16)(i) + (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    long16 w = (long16)((long)i << 33) - (long16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    record r = {i, i * 0.25f, (long)i << 40};
    while (write_pipe(vectors, &v) != 0)
      ;
    while (write_pipe(lines, &l) != 0)
      ;
    while (write_pipe(longs, &w) != 0)
      ;
    while (write_pipe(records, &r) != 0)
      ;
  }
}
__kernel void consume_wide(__read_only pipe float4 vectors, __read_only pipe int16 lines,
                           __read_only pipe long16 longs, __read_only pipe record records,
                           __global float4 *vdst, __global int16 *ldst, __global long16 *wdst,
                           __global record *rdst, int n) {
  for (int i = 0; i < n; ++i) {
    while (read_pipe(vectors, &vdst[i]) != 0)
      ;
    while (read_pipe(lines, &ldst[i]) != 0)
      ;
    while (read_pipe(longs, &wdst[i]) != 0)
      ;
    while (read_pipe(records, &rdst[i]) != 0)
      ;
  }
}

// The largest packet a pipe takes (CL_DEVICE_PIPE_MAX_PACKET_SIZE: 1 KiB), through reservations
// like the CTS's, and structs of sizes that are no power of two: 12 and 3 bytes.
typedef struct {
  uchar bytes[1024];
} kilobyte;
typedef struct {
  float x, y, z;
} point;
typedef struct {
  uchar r, g, b;
} colour;
__kernel void produce_odd(__global const kilobyte *src, __write_only pipe kilobyte blocks,
                          __write_only pipe point points, __write_only pipe colour colours, int n) {
  for (int i = 0; i < n; ++i) {
    reserve_id_t r;
    do
      r = reserve_write_pipe(blocks, 1);
    while (!is_valid_reserve_id(r));
    write_pipe(blocks, r, 0, &src[i]);
    commit_write_pipe(blocks, r);
    point p = {i, i * 0.5f, -i};
    colour c = {(uchar)i, (uchar)(3 * i), (uchar)(255 - i)};
    while (write_pipe(points, &p) != 0)
      ;
    while (write_pipe(colours, &c) != 0)
      ;
  }
}
__kernel void consume_odd(__read_only pipe kilobyte blocks, __read_only pipe point points,
                          __read_only pipe colour colours, __global kilobyte *dst, __global point *pdst,
                          __global colour *cdst, int n) {
  for (int i = 0; i < n; ++i) {
    reserve_id_t r;
    do
      r = reserve_read_pipe(blocks, 1);
    while (!is_valid_reserve_id(r));
    read_pipe(blocks, r, 0, &dst[i]);
    commit_read_pipe(blocks, r);
    while (read_pipe(points, &pdst[i]) != 0)
      ;
    while (read_pipe(colours, &cdst[i]) != 0)
      ;
  }
}

// read_pipe and write_pipe as the spec has them: a try that returns 0, or -1 when the pipe is
// empty or full, and moves nothing then.
__kernel void try_write(__write_only pipe int out, __global int *status) {
  const int i = get_global_id(0);
  int v = 100 + i;
  status[i] = write_pipe(out, &v);
}
__kernel void try_read(__read_only pipe int in, __global int *dst) {
  const int i = get_global_id(0);
  int v = -7;
  const int status = read_pipe(in, &v);
  dst[i] = status == 0 ? v : status * 1000 + v;
}

// Waits for packets that never come: the deadlock diagnosis names this line.
__kernel void starve(__read_only pipe int in, __global int *dst) {
  int v;
  while (read_pipe(in, &v) != 0)
    ;
  dst[get_global_id(0)] = v;
}

// Reservations of work-items: each reserves `per_item` packets (trying until the pipe has room) and
// writes them by index, last first: their order is the positions', not the writes'. A reader
// reserves `per_item` packets and reads them by index, last first too.
__kernel void produce_reserved(__write_only pipe int out, int per_item) {
  const int i = get_global_id(0);
  reserve_id_t r;
  do
    r = reserve_write_pipe(out, per_item);
  while (!is_valid_reserve_id(r));
  for (int k = per_item - 1; k >= 0; --k) {
    int v = i * per_item + k;
    write_pipe(out, r, k, &v);
  }
  commit_write_pipe(out, r);
}
__kernel void consume_reserved(__read_only pipe int in, __global int *dst, int per_item) {
  const int i = get_global_id(0);
  reserve_id_t r;
  do
    r = reserve_read_pipe(in, per_item);
  while (!is_valid_reserve_id(r));
  for (int k = per_item - 1; k >= 0; --k)
    read_pipe(in, r, k, &dst[i * per_item + k]);
  commit_read_pipe(in, r);
}

// Reservations of work-groups, one packet per work-item at its local id (the CTS's shape).
__kernel void produce_group_reserved(__write_only pipe int out, __global const int *src) {
  reserve_id_t r = work_group_reserve_write_pipe(out, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    write_pipe(out, r, get_local_id(0), &src[get_global_id(0)]);
    work_group_commit_write_pipe(out, r);
  }
}
__kernel void consume_group_reserved(__read_only pipe int in, __global int *dst) {
  reserve_id_t r = work_group_reserve_read_pipe(in, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    read_pipe(in, r, get_local_id(0), &dst[get_global_id(0)]);
    work_group_commit_read_pipe(in, r);
  }
}

// A work-item reserves want[i] packets, writes them if it got them, and asks the pipe's fill and depth.
__kernel void reserve_and_ask(__write_only pipe int out, __global const int *want, __global int *answers) {
  const int i = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(out, want[i]);
  answers[3 * i] = is_valid_reserve_id(r);
  if (is_valid_reserve_id(r)) {
    for (int k = 0; k < want[i]; ++k)
      write_pipe(out, r, k, &k);
    commit_write_pipe(out, r);
  }
  answers[3 * i + 1] = get_pipe_num_packets(out);
  answers[3 * i + 2] = get_pipe_max_packets(out);
}

// Several calls on one pipe: a work-item's keep their order. Each number and then its square; and a
// reservation of 4 written by a loop the compiler unrolls into four writes, last first.
__kernel void produce_pairs(__write_only pipe int out, int n) {
  for (int i = 0; i < n; ++i) {
    while (write_pipe(out, &i) != 0)
      ;
    const int square = i * i;
    while (write_pipe(out, &square) != 0)
      ;
  }
}
__kernel void consume_pairs(__read_only pipe int in, __global int *dst, int n) {
  for (int i = 0; i < n; ++i) {
    while (read_pipe(in, &dst[2 * i]) != 0)
      ;
    while (read_pipe(in, &dst[2 * i + 1]) != 0)
      ;
  }
}
__kernel void produce_reserved_four(__write_only pipe int out) {
  const int i = get_global_id(0);
  reserve_id_t r;
  do
    r = reserve_write_pipe(out, 4);
  while (!is_valid_reserve_id(r));
  for (int k = 3; k >= 0; --k) {
    int v = i * 4 + k;
    write_pipe(out, r, k, &v);
  }
  commit_write_pipe(out, r);
}

// A pipe chosen by the data: each value to one of three pipes by a switch, and to one of two by an
// if/else. LLVM merges the if/else's two write_pipe calls into one call on a pipe chosen at run
// time; the hardware flow splits it back into a call per pipe.
__kernel void route(__global const int *src, __write_only pipe int low, __write_only pipe int mid,
                    __write_only pipe int high, __write_only pipe int odd, __write_only pipe int even, int n) {
  for (int i = 0; i < n; ++i) {
    const int v = src[i];
    switch (v % 3) {
    case 0:
      while (write_pipe(low, &v) != 0)
        ;
      break;
    case 1:
      while (write_pipe(mid, &v) != 0)
        ;
      break;
    default:
      while (write_pipe(high, &v) != 0)
        ;
      break;
    }
    if (v & 1)
      write_pipe(odd, &v);
    else
      write_pipe(even, &v);
  }
}
