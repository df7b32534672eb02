// SPDX-License-Identifier: Apache-2.0
// Vector types, swizzles, vector literals and structs on the board (each lane its own hardware) and
// the CPU device, compared with host references by VectorsBoardTest.cpp. Every kernel is
// (in a, in b, out, scalar) so the shared differential runner drives it.

// float4 arithmetic through vector pointers: mad-free a * b + s, per lane rounding.
__kernel void float4_axpy(__global const float4 *a, __global const float4 *b, __global float4 *out, float s) {
  size_t i = get_global_id(0);
  out[i] = a[i] * b[i] + (float4)(s, s * 2.0f, -s, 0.5f);
}

// uint16 bit operations, shifts by lane and a per-lane select.
__kernel void uint16_mix(__global const uint16 *a, __global const uint16 *b, __global uint16 *out, uint k) {
  size_t i = get_global_id(0);
  uint16 x = a[i], y = b[i];
  uint16 shift = (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  uint16 mixed = (x ^ (y << shift)) + (y >> (shift & 7u)) * k;
  out[i] = x > y ? mixed : ~mixed;
}

// char16 swizzles: halves, even/odd lanes, reversal, wrapping byte arithmetic.
__kernel void char16_swizzle(__global const char16 *a, __global const char16 *b, __global char16 *out, char k) {
  size_t i = get_global_id(0);
  char16 x = a[i], y = b[i];
  char8 lo = x.lo + y.hi, hi = x.even - y.odd;
  char16 r = (char16)(hi, lo);
  r.s0 = k;
  out[i] = r.sFEDCBA9876543210 + x.s0123456789abcdef * (char)3;
}

// float3 (a 16-byte lane group in memory) built from scalars: a cross product.
__kernel void float3_cross(__global const float *a, __global const float *b, __global float *out, int unused) {
  size_t i = get_global_id(0);
  float3 u = (float3)(a[3 * i], a[3 * i + 1], a[3 * i + 2]);
  float3 v = (float3)(b[3 * i], b[3 * i + 1], b[3 * i + 2]);
  float3 c = u.yzx * v.zxy - u.zxy * v.yzx;
  out[3 * i] = c.x;
  out[3 * i + 1] = c.y;
  out[3 * i + 2] = c.z;
}

// A vector argument (int2: 8 bytes, one argument port) and a lane picked by a runtime index.
__kernel void int2_argument(__global const int4 *a, __global const int *b, __global int *out, int2 k) {
  size_t i = get_global_id(0);
  int4 x = a[i] * k.x + k.y;
  out[i] = x[b[i] & 3];
}

// Vector arguments over 8 bytes, each in one argument port as wide as the vector (OpenCL-CTS
// parameter_types passes char4 to float4; long16 is OpenCL C's widest type), a lane of the long16
// picked by a runtime index.
__kernel void long16_argument(__global const int *a, __global const int *b, __global long *out, long16 k) {
  size_t i = get_global_id(0);
  out[i] = k[a[i] & 15] * b[i] + k.sf;
}

// A 3-element vector takes a 4-element one's size: clSetKernelArg gives 32 bytes for a long3.
__kernel void long3_argument(__global const int *a, __global const int *b, __global long *out, long3 k) {
  size_t i = get_global_id(0);
  out[i] = (a[i] & 1 ? k.x : k.z) * b[i] + k.y;
}

__kernel void float4_argument(__global const int *a, __global const float *b, __global float *out, float4 k) {
  size_t i = get_global_id(0);
  out[i] = b[i] * k.x + k.y - k.z * k.w + (float)a[i];
}

// A loop over vector lanes: a float4 dot product accumulated per work-item.
__kernel void float4_dot(__global const float4 *a, __global const float4 *b, __global float *out, int n) {
  size_t i = get_global_id(0);
  float4 acc = (float4)(0.0f);
  for (int k = 0; k < n; ++k)
    acc += a[i * n + k] * b[k];
  out[i] = (acc.x + acc.y) + (acc.z + acc.w);
}

// Structs in global memory (field offsets, mixed widths) and a private struct kept in registers.
typedef struct {
  float x, y;
  short tag;
  uchar flags;
  int count;
} Particle;

typedef struct {
  float sum;
  int hits;
} Tally;

__kernel void particle_step(__global const Particle *in, __global const float *wind, __global Particle *out, float dt) {
  size_t i = get_global_id(0);
  Particle p = in[i];
  Tally t = {0.0f, 0};
  if (p.flags & 1) {
    t.sum = p.x * dt;
    t.hits = 1;
  }
  p.x = p.x + t.sum;
  p.y = p.y + wind[i] * dt;
  p.tag = (short)(p.tag * 3 - 1);
  p.flags = (uchar)(p.flags ^ 0x80);
  p.count = p.count + t.hits;
  out[i] = p;
}

// printf of scalars, vectors, a float and a string literal: records in a buffer the host prints.
__kernel void print_values(__global int *out) {
  int i = get_global_id(0);
  float f = i * 0.25f;
  out[i] = printf("item %d: %5.2f %v4hld %v2hhx %s %c %lu|%-4u|%%\n", i, f, (int4)(i, -i, 2 * i, 7),
                  (uchar2)(i, 255), "ok", 'A' + i, (ulong)i << 33, (uint)i);
}
