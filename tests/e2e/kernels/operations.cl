// SPDX-License-Identifier: Apache-2.0
// Operations on the board: float division and square root (correctly rounded), the common builtins
// (from the builtin library), switch statements, integer division of every width, a struct argument,
// __constant pointer arguments. Each kernel is run on the board and the CPU device and compared with
// a host reference (OperationsBoardTest.cpp).

// One float operation per work-item, chosen by a switch.
__kernel void float_ops(__global const float *a, __global const float *b, __global float *out, int k) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  float r;
  switch (i % 7) {
  case 0: r = x / y; break;
  case 1: r = sqrt(fabs(x)); break;
  case 2: r = fmin(x, y); break;
  case 3: r = fmax(x, y); break;
  case 4: r = copysign(x, y); break;
  case 5: r = mad(x, y, (float)k); break;
  default: r = -x;
  }
  out[i] = r;
}

// One integer builtin per work-item.
__kernel void int_ops(__global const int *a, __global const int *b, __global int *out, int k) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  int r;
  switch (i % 6) {
  case 0: r = min(x, y); break;
  case 1: r = max(x, y); break;
  case 2: r = (int)abs(x); break;
  case 3: r = clamp(x, -k, k); break;
  case 4: r = mul24(x >> 16, y >> 16); break;
  default: r = mad24(x >> 16, y >> 16, k);
  }
  out[i] = r;
}

// Division and remainder at 8, 16, 32 and 64 bits, signed and unsigned.
__kernel void divisions(__global const int *a, __global const int *b, __global int *out, int k) {
  int i = get_global_id(0);
  int x = a[i], y = b[i] | 1;
  char c = (char)x, d = (char)y;
  short s = (short)x, t = (short)y;
  long l = (long)x * k, m = (long)y;
  uint u = (uint)x, v = (uint)y;
  out[i] = (c / d) + (c % d) * 3 + (s / t) * 5 + (s % t) * 7 + (int)(l / m) + (int)(l % m) * 11 +
           (int)((u / v) & 0xffff) + (int)(u % v) * 13;
}

// A state machine in a single work-item loop: a switch on the state every iteration.
__attribute__((max_global_work_dim(0)))
__kernel void state_machine(__global const int *a, __global const int *b, __global int *out, int n) {
  int state = 0, count = 0, total = 0;
  for (int j = 0; j < n; ++j) {
    int v = a[j];
    switch (state) {
    case 0: state = v > 0 ? 1 : 2; break;
    case 1: total += v; state = v > 50 ? 2 : 1; break;
    case 2: ++count; state = v < -50 ? 0 : 3; break;
    default: total -= v; state = 0;
    }
    out[j] = total * 4 + state + count * 1000 + b[j] * 0;
  }
}

// The integer library's bit counts, rotates and saturating arithmetic at every width: LLVM's ctlz,
// cttz, ctpop, fshl and the *_sat intrinsics, each a few stages of compares and selects in hardware.
__kernel void integer_bits(__global const int *a, __global const int *b, __global int *out, int k) {
  const size_t i = get_global_id(0);
  const int x = a[i], y = b[i];
  const uint u = (uint)x, v = (uint)y;
  const ulong w = ((ulong)u << 32) | v;
  const uchar c = (uchar)x;
  const short s = (short)x, t = (short)y;
  uint r = clz(u) + ctz(u) * 3 + popcount(u) * 5 + (int)clz(w) * 7 + (int)ctz(w) * 11 + (int)popcount(w) * 13;
  r += clz(c) + ctz(c) * 17 + popcount(s) * 19 + clz(s) * 23;
  r ^= (int)rotate(u, v) ^ (int)rotate(w, (ulong)y) ^ rotate(c, (uchar)y) ^ rotate(s, t);
  r += add_sat(x, y) ^ sub_sat(x, y) ^ (int)add_sat(u, v) ^ (int)sub_sat(u, v) ^ add_sat(s, t) ^ sub_sat(c, (uchar)y);
  r += mad_sat(x, y, k) ^ (int)mad_sat(u, v, (uint)k);
  out[i] = (int)r;
}

// Explicit conversions with saturation and rounding modes, case k of them (one launch per case):
// float to integer rounds by rint, ceil or floor first (the math library on the board), integer to
// float corrects the nearest float by a step, saturation clamps (NaN to 0).
__kernel void conversions(__global const float *a, __global const int *b, __global int *out, int k) {
  const size_t i = get_global_id(0);
  const float x = a[i];
  const int y = b[i];
  const float bounded = clamp(x, -1e9f, 1e9f); // in int's range: no saturation asked
  int r;
  switch (k) {
  case 0: r = convert_int_sat(x); break;
  case 1: r = convert_int_rte(bounded); break;
  case 2: r = convert_int_rtp(bounded); break;
  case 3: r = convert_int_rtn(bounded); break;
  case 4: r = convert_int_sat_rte(x); break;
  case 5: r = (int)convert_uint_sat_rtp(x); break;
  case 6: r = convert_short_sat_rtn(x) + 65536 * convert_uchar_sat_rte(x); break;
  case 7: { long l = convert_long_sat_rtn(x * 0x1p20f); r = (int)(l ^ (l >> 32)); } break;
  case 8: r = convert_char_sat(y) + 256 * convert_ushort_sat(y); break;
  case 9: r = as_int(convert_float_rtz(y)); break;
  case 10: r = as_int(convert_float_rtp((ulong)(uint)y * 0x10001ul)); break;
  case 11: r = as_int(convert_float_rtn((long)y * -123457l)); break;
  default: {
    int4 lanes = convert_int4_sat_rtp((float4)(x, -x, x * 0.5f, x + 0.5f));
    r = (int)((uint)lanes.x ^ ((uint)lanes.y * 3u) ^ ((uint)lanes.z * 5u) ^ ((uint)lanes.w * 7u));
  }
  }
  out[i] = r;
}

// A struct passed by value (Rodinia's heartwall passes its parameters so): fields of several sizes
// around padding, an array inside read at constant indices, a float. The board takes the struct's
// bytes as one wide argument and reads each field as a slice of it.
typedef struct {
  int scale;
  float gain;
  short offset;
  char shift;
  long bias;
  int table[4];
} Params;

__kernel void struct_argument(__global const int *a, __global const int *b, __global int *out, Params p) {
  size_t i = get_global_id(0);
  int v = a[i] * p.scale + p.offset + (b[i] >> p.shift) + p.table[0] - p.table[3];
  out[i] = v + (int)(p.bias >> 32) + (int)(p.gain * (float)b[i]) + (i & 1 ? p.table[2] : p.table[1]);
}

// __constant pointer arguments: buffers the kernel only reads, here at indices the data chooses. A
// piecewise cubic whose segment (and so the four coefficients read) depends on x.
__kernel void constant_polynomial(__global const float *x, __constant float *coeffs, __global float *out,
                                  int segments) {
  size_t i = get_global_id(0);
  float v = x[i];
  __constant float *c = coeffs + 4 * clamp((int)(v * segments), 0, segments - 1);
  out[i] = ((c[3] * v + c[2]) * v + c[1]) * v + c[0];
}

// A table lookup whose second index comes from the first lookup's result.
__kernel void constant_lookup(__global const int *a, __constant int *table, __global int *out, int mask) {
  size_t i = get_global_id(0);
  int first = table[a[i] & mask];
  out[i] = first + table[(first ^ a[i]) & mask] * 3;
}
