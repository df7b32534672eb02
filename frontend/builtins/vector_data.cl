// SPDX-License-Identifier: Apache-2.0
// Vector data load and store (OpenCL C 1.2 section 6.12.7): vloadN and vstoreN for N = 2, 3, 4, 8,
// 16 on every integer type and float, from and to every address space a pointer may have (__global,
// __local, __private, __constant for loads, and OpenCL C 2.0's generic). Element offset * N on:
// vload3 reads three elements, not four. The address needs only the element's alignment, so lanes
// move one by one; LLVM makes one (unaligned) vector access of them at -O2, and the hardware flow
// merges neighbouring accesses (CombineAdjacentAccesses).

#define LOOM_VLOAD(N, S, AS)                                                                       \
  LOOM_BUILTIN S##N vload##N(size_t offset, const AS S *p) {                                       \
    const AS S *q = p + offset * N;                                                                \
    S##N value;                                                                                    \
    for (int lane = 0; lane < N; ++lane)                                                           \
      value[lane] = q[lane];                                                                       \
    return value;                                                                                  \
  }
#define LOOM_VSTORE(N, S, AS)                                                                      \
  LOOM_BUILTIN void vstore##N(S##N data, size_t offset, AS S *p) {                                 \
    AS S *q = p + offset * N;                                                                      \
    for (int lane = 0; lane < N; ++lane)                                                           \
      q[lane] = data[lane];                                                                        \
  }
#define LOOM_VECTOR_DATA_WIDTHS(M, S, AS) M(2, S, AS) M(3, S, AS) M(4, S, AS) M(8, S, AS) M(16, S, AS)
#define LOOM_VECTOR_DATA(T, S, I, U)                                                               \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VLOAD, S, __global)                                                 \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VLOAD, S, __local)                                                  \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VLOAD, S, __private)                                                \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VLOAD, S, __constant)                                               \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VLOAD, S, )                                                         \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VSTORE, S, __global)                                                \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VSTORE, S, __local)                                                 \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VSTORE, S, __private)                                               \
  LOOM_VECTOR_DATA_WIDTHS(LOOM_VSTORE, S, )
LOOM_INTEGERS(LOOM_VECTOR_DATA, LOOM_SCALAR_ONLY)
LOOM_FLOATS(LOOM_VECTOR_DATA, LOOM_SCALAR_ONLY)

// Half-precision data (OpenCL C 1.2 section 6.12.7): vload_half[N], vloada_halfN, vstore_half[N] and
// vstorea_halfN, each store with the default rounding (to nearest even) and _rte, _rtz, _rtp, _rtn.
// half is a storage format here (no cl_khr_fp16): the bits move as ushort and convert in integer
// arithmetic, exactly, so both targets give the same bits and the hardware needs no float unit. The
// aligned forms address whole vectors: vloada_half3 and vstorea_half3 step by four halves.

// A half's bits to the float of the same value (exact: every half is a float).
static float __attribute__((overloadable, always_inline)) loom_half_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  uint bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13) | (mantissa ? 0x400000u : 0); // Infinity, or a quiet NaN.
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else { // A subnormal half is a normal float: shift its leading one into the implicit bit.
    uint shift = clz(mantissa) - 21;
    bits = sign | ((113 - shift) << 23) | (((mantissa << shift) & 0x3ff) << 13);
  }
  return LOOM_AS(float, bits);
}

// The rounding modes of the stores.
#define LOOM_RTE 0
#define LOOM_RTZ 1
#define LOOM_RTP 2
#define LOOM_RTN 3

// A float to half bits, rounded as `mode` says. The float's significand is shifted right to the
// half's precision (further for a half subnormal); the bits shifted out decide the rounding, and an
// increment that carries out of the mantissa raises the exponent (up to infinity) as it should.
static ushort __attribute__((overloadable, always_inline)) loom_float_to_half(float value, int mode) {
  uint bits = LOOM_AS(uint, value);
  uint sign = (bits >> 16) & 0x8000, magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000u)
    return (ushort)(sign | 0x7e00 | ((magnitude >> 13) & 0x3ff)); // A quiet NaN.
  int exponent = (int)(magnitude >> 23) - 127 + 15;
  bool awayFromZero = mode == LOOM_RTE || (mode == LOOM_RTP && !sign) || (mode == LOOM_RTN && sign);
  if (exponent >= 31) // Beyond the largest half, infinity included.
    return (ushort)(sign | (awayFromZero || magnitude == 0x7f800000u ? 0x7c00 : 0x7bff));
  uint significand = magnitude < 0x00800000u ? magnitude : (magnitude & 0x7fffff) | 0x800000;
  uint shift = min(exponent >= 1 ? 13u : (uint)(14 - exponent), 30u);
  uint rounded = (exponent >= 1 ? (uint)(exponent - 1) << 10 : 0u) + (significand >> shift);
  uint rest = significand & ((1u << shift) - 1), midpoint = 1u << (shift - 1);
  bool up = mode == LOOM_RTE ? rest > midpoint || (rest == midpoint && (rounded & 1))
                             : rest != 0 && mode != LOOM_RTZ && awayFromZero;
  return (ushort)(sign | (rounded + (up ? 1 : 0)));
}

#define LOOM_VLOAD_HALF(AS)                                                                        \
  LOOM_BUILTIN float vload_half(size_t offset, const AS half *p) {                                 \
    return loom_half_to_float(((const AS ushort *)p)[offset]);                                     \
  }
#define LOOM_VLOAD_HALF_N(N, STEP, NAME, AS)                                                       \
  LOOM_BUILTIN float##N NAME##N(size_t offset, const AS half *p) {                                 \
    const AS ushort *q = (const AS ushort *)p + offset * STEP;                                     \
    float##N value;                                                                                \
    for (int lane = 0; lane < N; ++lane)                                                           \
      value[lane] = loom_half_to_float(q[lane]);                                                   \
    return value;                                                                                  \
  }
#define LOOM_VSTORE_HALF(SUFFIX, MODE, AS)                                                         \
  LOOM_BUILTIN void vstore_half##SUFFIX(float data, size_t offset, AS half *p) {                   \
    ((AS ushort *)p)[offset] = loom_float_to_half(data, MODE);                                     \
  }
#define LOOM_VSTORE_HALF_N(N, STEP, NAME, SUFFIX, MODE, AS)                                        \
  LOOM_BUILTIN void NAME##N##SUFFIX(float##N data, size_t offset, AS half *p) {                    \
    AS ushort *q = (AS ushort *)p + offset * STEP;                                                 \
    for (int lane = 0; lane < N; ++lane)                                                           \
      q[lane] = loom_float_to_half(data[lane], MODE);                                              \
  }
#define LOOM_VSTORE_HALF_MODES(N, STEP, NAME, AS)                                                  \
  LOOM_VSTORE_HALF_N(N, STEP, NAME, , LOOM_RTE, AS)                                                \
  LOOM_VSTORE_HALF_N(N, STEP, NAME, _rte, LOOM_RTE, AS)                                            \
  LOOM_VSTORE_HALF_N(N, STEP, NAME, _rtz, LOOM_RTZ, AS)                                            \
  LOOM_VSTORE_HALF_N(N, STEP, NAME, _rtp, LOOM_RTP, AS)                                            \
  LOOM_VSTORE_HALF_N(N, STEP, NAME, _rtn, LOOM_RTN, AS)
// The vector widths; 3 steps by 3 halves, or by 4 in the aligned forms.
#define LOOM_HALF_WIDTHS(M, NAME, STEP3, AS)                                                       \
  M(2, 2, NAME, AS) M(3, STEP3, NAME, AS) M(4, 4, NAME, AS) M(8, 8, NAME, AS) M(16, 16, NAME, AS)
#define LOOM_HALF_LOADS(AS)                                                                        \
  LOOM_VLOAD_HALF(AS)                                                                              \
  LOOM_HALF_WIDTHS(LOOM_VLOAD_HALF_N, vload_half, 3, AS)                                           \
  LOOM_HALF_WIDTHS(LOOM_VLOAD_HALF_N, vloada_half, 4, AS)
#define LOOM_HALF_STORES(AS)                                                                       \
  LOOM_VSTORE_HALF(, LOOM_RTE, AS)                                                                 \
  LOOM_VSTORE_HALF(_rte, LOOM_RTE, AS)                                                             \
  LOOM_VSTORE_HALF(_rtz, LOOM_RTZ, AS)                                                             \
  LOOM_VSTORE_HALF(_rtp, LOOM_RTP, AS)                                                             \
  LOOM_VSTORE_HALF(_rtn, LOOM_RTN, AS)                                                             \
  LOOM_HALF_WIDTHS(LOOM_VSTORE_HALF_MODES, vstore_half, 3, AS)                                     \
  LOOM_HALF_WIDTHS(LOOM_VSTORE_HALF_MODES, vstorea_half, 4, AS)
LOOM_HALF_LOADS(__global)
LOOM_HALF_LOADS(__local)
LOOM_HALF_LOADS(__private)
LOOM_HALF_LOADS(__constant)
LOOM_HALF_LOADS()
LOOM_HALF_STORES(__global)
LOOM_HALF_STORES(__local)
LOOM_HALF_STORES(__private)
LOOM_HALF_STORES()
