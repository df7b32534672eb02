// SPDX-License-Identifier: Apache-2.0
// The math builtins in hardware, a kernel per family: each work-item applies every function of its
// family to its operands x[i], y[i] (and n[i]), writing function f's result to out[f * size + i].
// MathBoardTest.cpp checks them bit for bit against the same library compiled for the host and
// against the spec's bounds.
#define OUT(f) out[(f) * get_global_size(0) + get_global_id(0)]

__kernel void exp_log(__global const float *x, __global float *out) {
  const float v = x[get_global_id(0)];
  OUT(0) = exp(v), OUT(1) = exp2(v), OUT(2) = exp10(v), OUT(3) = expm1(v);
  OUT(4) = log(v), OUT(5) = log2(v), OUT(6) = log10(v), OUT(7) = log1p(v);
}

__kernel void powers(__global const float *x, __global const float *y, __global const int *n,
                     __global float *out) {
  const size_t i = get_global_id(0);
  const float v = x[i], w = y[i];
  OUT(0) = pow(v, w), OUT(1) = powr(v, w), OUT(2) = pown(v, n[i]), OUT(3) = rootn(v, n[i]);
  OUT(4) = cbrt(v), OUT(5) = rsqrt(v), OUT(6) = hypot(v, w);
}

__kernel void trig(__global const float *x, __global float *out) {
  const float v = x[get_global_id(0)];
  float cosine;
  OUT(0) = sincos(v, &cosine), OUT(1) = cosine, OUT(2) = tan(v);
  OUT(3) = sinpi(v), OUT(4) = cospi(v), OUT(5) = tanpi(v);
}

__kernel void inverse_trig(__global const float *x, __global const float *y, __global float *out) {
  const size_t i = get_global_id(0);
  const float v = x[i], w = y[i];
  OUT(0) = asin(v), OUT(1) = acos(v), OUT(2) = atan(v), OUT(3) = asinpi(v), OUT(4) = acospi(v);
  OUT(5) = atanpi(v), OUT(6) = atan2(v, w), OUT(7) = atan2pi(v, w);
}

__kernel void hyperbolic(__global const float *x, __global float *out) {
  const float v = x[get_global_id(0)];
  OUT(0) = sinh(v), OUT(1) = cosh(v), OUT(2) = tanh(v), OUT(3) = asinh(v), OUT(4) = acosh(v);
  OUT(5) = atanh(v);
}

__kernel void special(__global const float *x, __global float *out, __global int *sign) {
  const size_t i = get_global_id(0);
  const float v = x[i];
  int s;
  OUT(0) = erf(v), OUT(1) = erfc(v), OUT(2) = tgamma(v), OUT(3) = lgamma_r(v, &s);
  sign[i] = s;
}

// The exact ones: rounding, the fields of a float, remainders, fma; and a float4 and a float2 form.
__kernel void exact(__global const float *x, __global const float *y, __global const int *n,
                    __global float *out, __global int *integer) {
  const size_t i = get_global_id(0), size = get_global_size(0);
  const float v = x[i], w = y[i];
  OUT(0) = ceil(v), OUT(1) = floor(v), OUT(2) = rint(v), OUT(3) = round(v), OUT(4) = trunc(v);
  OUT(5) = logb(v), OUT(6) = fdim(v, w), OUT(7) = fmod(v, w), OUT(8) = remainder(v, w);
  OUT(9) = nextafter(v, w), OUT(10) = ldexp(v, n[i]), OUT(11) = fma(v, w, x[(i + 1) % size]);
  int quotient, exponent;
  OUT(12) = remquo(v, w, &quotient), OUT(13) = frexp(v, &exponent);
  integer[i] = quotient, integer[size + i] = exponent, integer[2 * size + i] = ilogb(v);
  const float4 lanes = exp((float4)(v, w, -v, 0.5f * w));
  OUT(14) = lanes.x + lanes.y + lanes.z + lanes.w;
  const float2 powered = pow((float2)(fabs(v), fabs(w)), (float2)(0.5f, 1.5f));
  OUT(15) = powered.x - powered.y;
}
