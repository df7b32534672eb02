// SPDX-License-Identifier: Apache-2.0
// On-chip memories: private arrays indexed at run time and __local arrays, on the board (RAMs, the
// work-items taking turns) and the CPU device, compared with host references by OnChipBoardTest.cpp.
// Every kernel is (in a, in b, out, scalar) so the shared differential runner drives it.

// Each work-item fills a private array and reads it back in another order.
__kernel void private_reverse(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int buf[16];
  for (int k = 0; k < m; ++k)
    buf[k] = a[i * m + k];
  for (int k = 0; k < m; ++k)
    out[i * m + k] = buf[m - 1 - k] * 3 + b[k];
}

// A per-work-item insertion sort: data-dependent loops, reads and writes of one private array.
// A private array all of whose 80 bytes are written at once (an unrolled loop) and read at run-time
// indices: an on-chip memory with 80 write ports, more than Verilator unrolls by default
// (OpenCL-CTS vload_private views a char16 array as bytes).
__kernel void many_write_ports(__global const int *a, __global const int *b, __global int *out, int m) {
  size_t i = get_global_id(0);
  uchar bytes[80];
  #pragma unroll
  for (int k = 0; k < 80; ++k)
    bytes[k] = (uchar)(a[i] + k * 3);
  out[i] = bytes[(b[i] & 0xff) % 80] + bytes[((b[i] & 0xff) + 7) % 80];
}

// The addresses of __local arrays of each vector width, stored side by side: one vector of constant
// addresses on the board, where an on-chip address is the offset in its memory. Each must be aligned
// to its type's size (OpenCL-CTS kernel_memory_alignment_local); the uint ones are truncated.
__kernel void local_addresses(__global const int *a, __global const int *b, __global ulong *out, int m) {
  __local int mem1[3];
  __local int2 mem2[3];
  __local int3 mem3[3];
  __local int4 mem4[3];
  __local int8 mem8[3];
  __local int16 mem16[3];
  out[0] = (ulong)&mem1[0];
  out[1] = (ulong)&mem2[0];
  out[2] = (ulong)&mem3[0];
  out[3] = (ulong)&mem4[0];
  out[4] = (ulong)&mem8[0];
  out[5] = (ulong)&mem16[0];
  __global uint *narrow = (__global uint *)(out + 6);
  narrow[0] = (uint)&mem1[0];
  narrow[1] = (uint)&mem2[0];
  narrow[2] = (uint)&mem3[0];
  narrow[3] = (uint)&mem4[0];
}

__kernel void private_sort(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int v[12];
  for (int k = 0; k < m; ++k) {
    int x = a[i * m + k] ^ b[k];
    int j = k;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      --j;
    }
    v[j] = x;
  }
  for (int k = 0; k < m; ++k)
    out[i * m + k] = v[k];
}

// Single work-item histogram in a __local array: a read-modify-write recurrence through on-chip RAM.
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void local_histogram(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int bins[64];
  for (int k = 0; k < 64; ++k)
    bins[k] = 0;
  for (int k = 0; k < n; ++k)
    bins[a[k] & 63] += b[k];
  for (int k = 0; k < 64; ++k)
    out[k] = bins[k];
}

// A circular window of the last 8 samples (a private array written under a condition), single
// work-item: a moving sum where odd samples are skipped.
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void window_sum(__global const int *a, __global const int *b, __global int *out, int n) {
  short window[8];
  for (int k = 0; k < 8; ++k)
    window[k] = (short)b[k];
  int sum = 0;
  for (int k = 0; k < n; ++k) {
    int slot = k & 7;
    if ((a[k] & 1) == 0) {
      sum += a[k] - window[slot];
      window[slot] = (short)a[k];
    }
    out[k] = sum;
  }
}

// A zero-initialised private array (a memset, expanded to a loop) updated at data-dependent indices.
__kernel void private_counts(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int counts[8] = {0};
  for (int k = 0; k < m; ++k)
    counts[a[i * m + k] & 7] += b[k];
  for (int k = 0; k < 8; ++k)
    out[i * 8 + k] = counts[k];
}

// Constant tables become ROMs shared by every work-item: program-scope __constant arrays and a
// constant private array indexed at run time.
__constant int squares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
__constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__kernel void table_lookup(__global const int *a, __global const int *b, __global int *out, int unused) {
  const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  int i = get_global_id(0);
  out[i] = squares[a[i] & 15] * primes[b[i] & 7];
}

__kernel void smooth(__global const float *a, __global const float *b, __global float *out, int n) {
  int i = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < 5; ++k)
    acc += weights[k] * a[min(max(i + k - 2, 0), n - 1)] + b[0] * 0.0f;
  out[i] = acc;
}

// A table's neighbouring elements at a run-time base, and its rows read a vector at a time: each
// stays a read of the ROM's 4-byte words (LLVM combines them into wider loads).
#define SCRAMBLED(k) ((uint)(k) * 2654435761u ^ ((uint)(k) << 27))
__constant uint scrambled[32] = {
    SCRAMBLED(0),  SCRAMBLED(1),  SCRAMBLED(2),  SCRAMBLED(3),  SCRAMBLED(4),  SCRAMBLED(5),  SCRAMBLED(6),
    SCRAMBLED(7),  SCRAMBLED(8),  SCRAMBLED(9),  SCRAMBLED(10), SCRAMBLED(11), SCRAMBLED(12), SCRAMBLED(13),
    SCRAMBLED(14), SCRAMBLED(15), SCRAMBLED(16), SCRAMBLED(17), SCRAMBLED(18), SCRAMBLED(19), SCRAMBLED(20),
    SCRAMBLED(21), SCRAMBLED(22), SCRAMBLED(23), SCRAMBLED(24), SCRAMBLED(25), SCRAMBLED(26), SCRAMBLED(27),
    SCRAMBLED(28), SCRAMBLED(29), SCRAMBLED(30), SCRAMBLED(31)};

__kernel void table_rows(__global const int *a, __global const int *b, __global int *out, int unused) {
  int i = get_global_id(0);
  uint4 row = vload4(a[i] & 7, scrambled);
  int k = b[i] % 28;
  uint neighbours = scrambled[k] ^ (scrambled[k + 1] << 1) ^ (scrambled[k + 2] * 5u) ^ (scrambled[k + 3] + 9u);
  out[i] = (int)(row.x + row.y * 3u + row.z * 7u + row.w * 11u + neighbours);
}

// The FPGA shift-register idiom, single work-item: an 8-sample window shifted by one per iteration
// (unrolled, a chain of registers: no memmove), taps from a buffer.
__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void shift_fir(__global const int *a, __global const int *b, __global int *out, int n) {
  int window[8], taps[8];
  #pragma unroll
  for (int k = 0; k < 8; ++k) {
    window[k] = 0;
    taps[k] = b[k];
  }
  for (int i = 0; i < n; ++i) {
    #pragma unroll
    for (int k = 7; k > 0; --k)
      window[k] = window[k - 1];
    window[0] = a[i];
    int acc = 0;
    #pragma unroll
    for (int k = 0; k < 8; ++k)
      acc += taps[k] * window[k];
    out[i] = acc;
  }
}

// Banked arrays, single work-item: Intel's numbanks/bankwidth (double-pumped), bank_bits and
// register, Xilinx's xcl_array_partition. The unrolled loops' accesses reach one bank each; the
// read-modify-writes at run-time indices, and the writes to `last`, reach every bank.
__attribute__((max_global_work_dim(0)))
__kernel void banked_tile(__global const int *a, __global const int *b, __global int *out, int n) {
  __local int tile[64] __attribute__((numbanks(4), bankwidth(4), doublepump));
  int rows[4][16] __attribute__((xcl_array_partition(complete, 1)));
  short pairs[32] __attribute__((bank_bits(1)));
  int last[4] __attribute__((xcl_array_partition(complete, 0)));
  int recent[6] __attribute__((register));
  for (int i = 0; i < 64; i += 4) {
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
      tile[i + j] = a[i + j];
      rows[j][i / 4] = b[i + j];
    }
  }
  for (int i = 0; i < 32; ++i)
    pairs[i] = (short)(a[i] - b[i]);
  #pragma unroll
  for (int j = 0; j < 4; ++j)
    last[j] = 0;
  #pragma unroll
  for (int j = 0; j < 6; ++j)
    recent[j] = j;
  for (int k = 0; k < n; ++k) {
    int at = a[k] & 63;
    tile[at] += b[k];
    last[k & 3] = tile[at];
    recent[at % 6] ^= recent[k % 6] + k;
  }
  for (int i = 0; i < 64; i += 4) {
    int s = 0;
    #pragma unroll
    for (int j = 0; j < 4; ++j)
      s += tile[i + j] * rows[j][i / 4];
    out[i / 4] = s + pairs[(i / 2) & 31] + pairs[a[i] & 31];
  }
  #pragma unroll
  for (int j = 0; j < 4; ++j)
    out[16 + j] = last[j];
  #pragma unroll
  for (int j = 0; j < 6; ++j)
    out[20 + j] = recent[j];
}

// private_reverse with at most 2 copies of its banked private array: 2 work-items in flight.
__kernel void copies_reverse(__global const int *a, __global const int *b, __global int *out, int m) {
  int i = get_global_id(0);
  int buf[16] __attribute__((private_copies(2), numbanks(2)));
  for (int k = 0; k < m; ++k)
    buf[k] = a[i * m + k];
  for (int k = 0; k < m; ++k)
    out[i * m + k] = buf[m - 1 - k] * 3 + b[k];
}

// One on-chip array read and written in elements of different sizes (as Xilinx's vision examples
// do): a private union of words, shorts and bytes per work-item, and a single work-item's __local
// line of shorts read back through a char pointer.
typedef union {
  uint words[4];
  ushort halves[8];
  uchar bytes[16];
} Line;

__kernel void union_bytes(__global const int *a, __global const int *b, __global int *out, int n) {
  int i = get_global_id(0);
  Line line;
  for (int k = 0; k < 4; ++k)
    line.words[k] = (uint)a[(i * 4 + k) % n];
  uint acc = 0;
  for (int k = 0; k < 16; ++k)
    acc = acc * 31u + line.bytes[(k + b[i]) & 15];
  line.halves[b[i] & 7] = (ushort)acc;
  out[i] = (int)(acc ^ line.words[(b[i] >> 3) & 3]);
}

__attribute__((reqd_work_group_size(1, 1, 1)))
__kernel void local_punned(__global const int *a, __global const int *b, __global int *out, int n) {
  __local short line[64];
  for (int k = 0; k < 64; ++k)
    line[k] = (short)a[k];
  __local const uchar *bytes = (__local const uchar *)line;
  for (int i = 0; i < n; ++i)
    out[i] = bytes[b[i] & 127] + line[(b[i] >> 7) & 63];
}

// A 2 MiB image read thirteen times in three places, as Xilinx's sketch reads its 480x640 images:
// a copy per two reads would be 7 x 456 RAM blocks, the default board has 2,160, so the reads take
// turns at the eight ports of four copies (the second loop's nine reads two turns at port 0).
__attribute__((max_global_work_dim(0)))
__kernel void shared_read_ports(__global const int *a, __global const int *b, __global int *out, int n) {
  int image[1 << 19];
  for (int i = 0; i < n; ++i)
    image[i] = a[i];
  for (int i = 0; i < n; ++i) {
    int k = b[i];
    int near = image[k ^ 1] + image[k ^ 2] + image[k ^ 3] + image[k ^ 4];
    int far = image[k >> 1] + image[k >> 2] + image[k >> 3];
    out[i] = image[i] * 3 + image[k] - (near ^ far);
  }
  for (int i = 0; i < n; ++i)
    out[n + i] = image[n - 1 - i] ^ (image[b[i] >> 2] + image[i >> 1]);
  out[2 * n] = image[b[0]];
}
