// SPDX-License-Identifier: Apache-2.0
// Geometric functions (OpenCL C 1.2 section 6.12.5) on float, float2, float3 and float4: dot, cross
// (float3, float4), length, distance, normalize and their fast_ forms (the same functions: the
// spec's bounds for them are looser). length scales by the largest magnitude first, so it neither
// overflows nor underflows where the result is representable, and normalize by the power of two
// nearest it; normalize of a zero vector is that vector, of one with an infinite lane the unit
// vector along the infinite lanes.

#define LOOM_GEOMETRIC(T)                                                                          \
  LOOM_BUILTIN float dot(T p0, T p1) { return loom_sum(p0 * p1); }                               \
  LOOM_BUILTIN float length(T p) {                                                                 \
    float scale = loom_largest(fabs(p));                                                           \
    if (scale == 0.0f || isinf(scale) || isnan(scale))                                             \
      return scale;                                                                                \
    return scale * sqrt(dot(p / scale, p / scale));                                                \
  }                                                                                                \
  LOOM_BUILTIN float distance(T p0, T p1) { return length(p0 - p1); }                             \
  LOOM_BUILTIN T normalize(T p) {                                                                  \
    T infinite = select((T)0.0f, copysign((T)1.0f, p), isinf(p));                                  \
    if (loom_largest(fabs(infinite)) > 0.0f)                                                       \
      p = infinite;                                                                                \
    float largest = loom_largest(fabs(p));                                                         \
    if (largest == 0.0f)                                                                           \
      return p;                                                                                    \
    T scaled = loom_scale_to_one(p, largest);                                                      \
    return scaled / sqrt(dot(scaled, scaled));                                                     \
  }                                                                                                \
  LOOM_BUILTIN float fast_length(T p) { return length(p); }                                        \
  LOOM_BUILTIN float fast_distance(T p0, T p1) { return distance(p0, p1); }                        \
  LOOM_BUILTIN T fast_normalize(T p) { return normalize(p); }

// The sum and the largest lane of a vector, lane 0 first (the float scalar is itself).
static float __attribute__((overloadable, always_inline)) loom_sum(float x) { return x; }
static float __attribute__((overloadable, always_inline)) loom_sum(float2 x) { return x.x + x.y; }
static float __attribute__((overloadable, always_inline)) loom_sum(float3 x) { return x.x + x.y + x.z; }
static float __attribute__((overloadable, always_inline)) loom_sum(float4 x) { return x.x + x.y + x.z + x.w; }
static float __attribute__((overloadable, always_inline)) loom_largest(float x) { return x; }
static float __attribute__((overloadable, always_inline)) loom_largest(float2 x) { return fmax(x.x, x.y); }
static float __attribute__((overloadable, always_inline)) loom_largest(float3 x) { return fmax(fmax(x.x, x.y), x.z); }
static float __attribute__((overloadable, always_inline)) loom_largest(float4 x) { return fmax(fmax(x.x, x.y), fmax(x.z, x.w)); }

// `p` times the power of two that brings `largest` (its largest magnitude, not zero) into [1, 2):
// exact, so a huge or tiny vector's length neither overflows nor underflows. Two factors, each a
// normal float, cover every exponent.
#define LOOM_SCALE_TO_ONE(T)                                                                       \
  static T __attribute__((overloadable, always_inline)) loom_scale_to_one(T p, float largest) {    \
    const int shift = 127 - (int)((as_uint(largest) >> 23) & 0xff);                                \
    return p * as_float((uint)(127 + shift / 2) << 23) * as_float((uint)(127 + shift - shift / 2) << 23); \
  }
LOOM_SCALE_TO_ONE(float)
LOOM_SCALE_TO_ONE(float2)
LOOM_SCALE_TO_ONE(float3)
LOOM_SCALE_TO_ONE(float4)

LOOM_GEOMETRIC(float)
LOOM_GEOMETRIC(float2)
LOOM_GEOMETRIC(float3)
LOOM_GEOMETRIC(float4)

LOOM_BUILTIN float3 cross(float3 p0, float3 p1) {
  return (float3)(p0.y * p1.z - p0.z * p1.y, p0.z * p1.x - p0.x * p1.z, p0.x * p1.y - p0.y * p1.x);
}
LOOM_BUILTIN float4 cross(float4 p0, float4 p1) { return (float4)(cross(p0.xyz, p1.xyz), 0.0f); }
