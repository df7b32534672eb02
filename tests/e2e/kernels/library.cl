// SPDX-License-Identifier: Apache-2.0
// The OpenCL C builtin library (frontend/builtins/) in hardware and on the CPU device, a kernel per
// family: each work-item applies every builtin of its family to its operands and writes builtin f's
// result to out[f * size + i] (OUT(f)). LibraryBoardTest.cpp checks them against host references.
#define OUT(f) out[(f) * get_global_size(0) + get_global_id(0)]

// The classifications and comparisons: 1/0 on a scalar, -1/0 per lane on a vector.
#define RELATIONAL(T, I)                                                                           \
  __kernel void relational_##T(__global const T *x, __global const T *y, __global I *out) {       \
    const size_t i = get_global_id(0);                                                             \
    const T a = x[i], b = y[i];                                                                    \
    OUT(0) = isnan(a), OUT(1) = isinf(a), OUT(2) = isfinite(a), OUT(3) = isnormal(a);              \
    OUT(4) = signbit(a), OUT(5) = isequal(a, b), OUT(6) = isnotequal(a, b);                        \
    OUT(7) = isgreater(a, b), OUT(8) = isgreaterequal(a, b), OUT(9) = isless(a, b);                \
    OUT(10) = islessequal(a, b), OUT(11) = islessgreater(a, b), OUT(12) = isordered(a, b);         \
    OUT(13) = isunordered(a, b);                                                                   \
  }
RELATIONAL(float, int)
RELATIONAL(float4, int4)

// select on int, uint, float, char and long lanes (a vector's lane picked by its condition's most
// significant bit, a scalar by its condition being non-zero), bitselect, any and all.
__kernel void selects(__global const int4 *a, __global const int4 *b, __global const int4 *c,
                      __global int4 *out) {
  const size_t i = get_global_id(0);
  const int4 p = a[i], q = b[i], r = c[i];
  OUT(0) = select(p, q, r);
  OUT(1) = select(p, q, as_uint4(r));
  OUT(2) = as_int4(select(as_float4(p), as_float4(q), r));
  OUT(3) = as_int4(select(as_char16(p), as_char16(q), as_char16(r)));
  OUT(4) = as_int4(select(as_long2(p), as_long2(q), as_ulong2(r)));
  OUT(5) = bitselect(p, q, r);
  OUT(6) = as_int4(bitselect(as_float4(p), as_float4(q), as_float4(r)));
  OUT(7) = (int4)(select(p.x, q.x, r.x), as_int(select(as_float(p.y), as_float(q.y), as_uint(r.y))),
                  select(p.z, q.z, as_uint(r.z)), select((short)p.w, (short)q.w, (short)r.w));
  OUT(8) = (int4)(any(r), all(r), any(as_char16(r)), all(as_short8(r)));
  OUT(9) = (int4)(any(r.x), all(r.xyz), any(as_long2(r)), all(as_char16(r)));
}

// The common functions on float4, with scalar operands where they have such forms, and on floats
// (the last two outputs). mix's a is in [0, 1], edge0 < edge1 and lo <= hi, as the spec asks.
__kernel void common_functions(__global const float4 *x, __global const float4 *edge0,
                               __global const float4 *edge1, __global const float4 *a,
                               __global float4 *out) {
  const size_t i = get_global_id(0);
  const float4 v = x[i], e0 = edge0[i], e1 = edge1[i], t = a[i];
  OUT(0) = degrees(v), OUT(1) = radians(v), OUT(2) = mix(e0, e1, t), OUT(3) = mix(e0, e1, t.x);
  OUT(4) = step(e0, v), OUT(5) = step(e0.x, v), OUT(6) = smoothstep(e0, e1, v);
  OUT(7) = smoothstep(e0.x, e1.x, v), OUT(8) = sign(v), OUT(9) = clamp(v, e0, e1);
  OUT(10) = clamp(v, e0.x, e1.x), OUT(11) = min(v, e0), OUT(12) = max(v, e1);
  OUT(13) = min(v, e0.y), OUT(14) = max(v, e1.y);
  OUT(15) = (float4)(degrees(v.x), radians(v.y), mix(e0.z, e1.z, t.z), sign(v.w));
  OUT(16) = (float4)(step(e0.x, v.x), smoothstep(e0.y, e1.y, v.y), clamp(v.z, e0.z, e1.z), max(v.w, e1.w));
}

// The geometric functions on float4 and float3 (and float2, float), the fast_ ones apart.
__kernel void geometric(__global const float4 *p, __global const float4 *q, __global float4 *out) {
  const size_t i = get_global_id(0);
  const float4 u = p[i], v = q[i];
  OUT(0) = (float4)(cross(u.xyz, v.xyz), dot(u.xyz, v.xyz));
  OUT(1) = cross(u, v);
  OUT(2) = (float4)(dot(u, v), length(u), distance(u, v), length(u.xy));
  OUT(3) = normalize(u);
  OUT(4) = (float4)(normalize(u.xyz), distance(u.xyz, v.xyz));
}
__kernel void fast_geometric(__global const float4 *p, __global const float4 *q, __global float4 *out) {
  const size_t i = get_global_id(0);
  const float4 u = p[i], v = q[i];
  OUT(0) = fast_normalize(u);
  OUT(1) = (float4)(fast_length(u), fast_distance(u, v), fast_length(u.xyz), fast_distance(u.x, v.x));
}

// The integer functions on one type S (U its unsigned type), each result widened to ulong (signed
// ones sign-extended), and upsample (a to the high half, b's bits to the low) where S has a wider type.
#define INTEGER(S, U, UPSAMPLE)                                                                    \
  __kernel void integer_##S(__global const S *x, __global const S *y, __global const S *z,        \
                            __global ulong *out) {                                                 \
    const size_t i = get_global_id(0);                                                             \
    const S a = x[i], b = y[i], c = z[i];                                                          \
    OUT(0) = abs(a), OUT(1) = abs_diff(a, b), OUT(2) = hadd(a, b), OUT(3) = rhadd(a, b);           \
    OUT(4) = mul_hi(a, b), OUT(5) = mad_hi(a, b, c);                                               \
    UPSAMPLE                                                                                       \
  }
#define UPSAMPLE(U) OUT(6) = upsample(a, as_##U(b));
INTEGER(char, uchar, UPSAMPLE(uchar))
INTEGER(uchar, uchar, UPSAMPLE(uchar))
INTEGER(short, ushort, UPSAMPLE(ushort))
INTEGER(ushort, ushort, UPSAMPLE(ushort))
INTEGER(int, uint, UPSAMPLE(uint))
INTEGER(uint, uint, UPSAMPLE(uint))
INTEGER(long, ulong, )
INTEGER(ulong, ulong, )

// vloadN and vstoreN (N = 2, 3, 4, 8, 16) one element past aligned addresses: region k of `out`
// (16 * size + 2 elements each) takes the k-th width's vectors from its second element on, each
// lane plus N.
#define VECTOR_STORES(T)                                                                           \
  __kernel void vector_stores_##T(__global const T *in, __global T *out) {                        \
    const size_t i = get_global_id(0), region = 16 * get_global_size(0) + 2;                      \
    __global const T *from = in + 1;                                                               \
    vstore2(vload2(i, from) + (T)2, i, out + 1);                                                   \
    vstore3(vload3(i, from) + (T)3, i, out + region + 1);                                          \
    vstore4(vload4(i, from) + (T)4, i, out + 2 * region + 1);                                      \
    vstore8(vload8(i, from) + (T)8, i, out + 3 * region + 1);                                      \
    vstore16(vload16(i, from) + (T)16, i, out + 4 * region + 1);                                   \
  }
VECTOR_STORES(uint)
VECTOR_STORES(uchar)

// A float to half in each rounding mode: vstore_half, _rte, _rtz, _rtp, _rtn, a region of `size`
// halves each.
__kernel void half_rounding(__global const float *x, __global half *out) {
  const size_t i = get_global_id(0), n = get_global_size(0);
  const float v = x[i];
  vstore_half(v, i, out), vstore_half_rte(v, n + i, out), vstore_half_rtz(v, 2 * n + i, out);
  vstore_half_rtp(v, 3 * n + i, out), vstore_half_rtn(v, 4 * n + i, out);
}

// Half vectors from 16 floats a work-item: vstore_half4_rtz, vstore_half3_rtp one half past aligned,
// vstorea_half3_rtn (four halves a step, the fourth not written), vstorea_half8 and vstore_half16_rtn,
// regions of 16 * size + 16 halves (so the aligned forms' addresses are).
__kernel void half_vector_stores(__global const float *x, __global half *out) {
  const size_t i = get_global_id(0), region = 16 * get_global_size(0) + 16;
  vstore_half4_rtz(vload4(i, x), i, out);
  vstore_half3_rtp(vload3(i, x), i, out + region + 1);
  vstorea_half3_rtn(vload3(i, x), i, out + 2 * region);
  vstorea_half8(vload8(i, x), i, out + 3 * region);
  vstore_half16_rtn(vload16(i, x), i, out + 4 * region);
}

// Halves to floats: vload_half16 (every half, with 4096 work-items), vload_half of half i * 17,
// vloada_half3 (four halves a step) and vload_half3 one half past aligned; regions of 16 * size
// floats.
__kernel void half_loads(__global const half *h, __global float *out) {
  const size_t i = get_global_id(0), n = get_global_size(0), region = 16 * n;
  vstore16(vload_half16(i, h), i, out);
  out[region + i] = vload_half((i * 17) % (16 * n), h);
  vstore3(vloada_half3(i, h), i, out + 2 * region);
  vstore3(vload_half3(i, h + 1), i, out + 3 * region);
}

// shuffle and shuffle2 from and to 2, 4, 8 and 16 lanes of uint, char, ushort, float and ulong, and
// as_T between widths: uint8 results.
__kernel void shuffles(__global const uint8 *a, __global const uint8 *b, __global const uint8 *m,
                       __global uint8 *out) {
  const size_t i = get_global_id(0);
  const uint8 x = a[i], y = b[i], mask = m[i];
  OUT(0) = shuffle(x, mask);
  OUT(1) = (uint8)(shuffle(x.lo, mask.lo), shuffle2(x.lo, y.lo, mask.hi));
  OUT(2) = shuffle2(x, y, mask);
  OUT(3) = (uint8)(as_uint4(shuffle(as_char16(x.lo), as_uchar16(mask.lo))),
                   as_uint4(shuffle2(as_char16(x.hi), as_char16(y.hi), as_uchar16(mask.hi))));
  OUT(4) = (uint8)(shuffle(x, mask.lo), as_uint2(shuffle(as_float4(y.lo), mask.s67)),
                   as_uint2(shuffle2(as_ushort4(x.s45), as_ushort4(y.s45), as_ushort4(mask.s45))));
  OUT(5) = as_uint8(shuffle(as_ulong4(x), as_ulong4(mask)));
  OUT(6) = as_uint8(as_ushort16(x) + (ushort)1);
  OUT(7) = (uint8)(as_uint4(as_char16(x.lo) - as_char16(y.lo)), as_uint4(as_long2(x.hi) + as_long2(y.hi)));
  OUT(8) = (uint8)(as_uint(as_char4(x.s0).wzyx), as_uint(as_short2(x.s1).yx), as_uint2(as_long(x.s23) >> 8),
                   as_uint4(as_int3(as_float3(y.s456)).zyxz));
}

// maxmag, minmag, modf (its whole part through a __global pointer), fract (through a __private one),
// lgamma, lgamma_r and its sign, and nan of a code.
__kernel void math_exact(__global const float *x, __global const float *y, __global float *out,
                         __global int *signs) {
  const size_t i = get_global_id(0);
  const float v = x[i], w = y[i];
  float whole;
  int sign;
  OUT(0) = maxmag(v, w), OUT(1) = minmag(v, w), OUT(2) = modf(v, &OUT(3));
  OUT(4) = fract(v, &whole), OUT(5) = whole, OUT(6) = lgamma(v), OUT(7) = lgamma_r(v, &sign);
  OUT(8) = nan(as_uint(w) & 0x3fffffu);
  signs[i] = sign;
}

// The half_ and native_ variants.
#define VARIANTS(PREFIX)                                                                           \
  __kernel void PREFIX##math(__global const float *x, __global const float *y, __global float *out) { \
    const size_t i = get_global_id(0);                                                             \
    const float v = x[i], w = y[i];                                                                \
    OUT(0) = PREFIX##exp(v), OUT(1) = PREFIX##log(v), OUT(2) = PREFIX##sin(v);                     \
    OUT(3) = PREFIX##cos(v), OUT(4) = PREFIX##sqrt(v), OUT(5) = PREFIX##rsqrt(v);                  \
    OUT(6) = PREFIX##recip(v), OUT(7) = PREFIX##divide(v, w), OUT(8) = PREFIX##powr(v, w);         \
  }
VARIANTS(half_)
VARIANTS(native_)
