// Kernels run on the board, the CPU device and the host, and compared bit for bit.
__kernel void int_mix(__global const int *a, __global const int *b, __global int *out, int k) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  int m = x * k + (y >> 3);
  int s = x < y ? m : (x ^ y);
  out[i] = s - (int)(i & 7) + (int)((unsigned)y >> 5);
}

__kernel void float_mix(__global const float *a, __global const float *b, __global float *out, float s) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float d = (x - y) * s;
  out[i] = d + -x;
}

__kernel void widen(__global const short *in, __global long *out, long bias) {
  size_t i = get_global_id(0);
  out[i] = (long)in[i] * 3 + bias;
}

__kernel void transpose_scale(__global const float *in, __global float *out, float s) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0), h = get_global_size(1);
  out[x * h + y] = in[y * w + x] * s;
}

// a * x + y: two roundings on both devices (no contraction unless -cl-mad-enable).
__kernel void saxpy(__global const float *x, __global const float *y, __global float *out, float a) {
  size_t i = get_global_id(0);
  out[i] = a * x[i] + y[i];
}

// s * s depends on arguments only, yet the board computes it in a float unit per work-item.
__kernel void scaled_difference(__global const float *a, __global const float *b, __global float *out, float s) {
  size_t i = get_global_id(0);
  out[i] = a[i] * (s * s) - b[i];
}

// Float comparison feeding a select.
__kernel void select_compare(__global const float *a, __global const float *b, __global float *out, float s) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i] * s; // both loads happen: no branch around one of them
  out[i] = x >= s ? x : y;
}

// Signed and unsigned integers to float (round to nearest even).
__kernel void int_to_float(__global const int *a, __global const uint *b, __global float *out, float s) {
  size_t i = get_global_id(0);
  out[i] = (float)a[i] * s + (float)b[i];
}

// Float to 32- and 64-bit integers (toward zero).
__kernel void float_to_int(__global const float *a, __global const float *b, __global int *out, int s) {
  size_t i = get_global_id(0);
  out[i] = (int)a[i] * s + (int)((long)(b[i] * 4096.0f) >> 8);
}

// An if guard: work-items past n touch nothing (host code rounds launches up).
__kernel void guarded_product(__global const float *a, __global const float *b, __global float *out, int n) {
  size_t i = get_global_id(0);
  if (i < n)
    out[i] = a[i] * b[i];
}

// if/else with a load on one side only; the two results meet in a phi.
__kernel void branchy(__global const int *a, __global const int *b, __global int *out, int k) {
  size_t i = get_global_id(0);
  int x = a[i];
  int r;
  if (x > k)
    r = x - b[i];
  else
    r = b[i / 2] * 3;
  out[i] = r;
}

// An early return.
__kernel void early_exit(__global const int *a, __global const int *b, __global int *out, int k) {
  size_t i = get_global_id(0);
  if (a[i] % 4 == k)
    return;
  out[i] = a[i] + b[i];
}

// Work-group functions in two dimensions, with a global offset.
__kernel void work_groups(__global const int *a, __global const int *b, __global int *out, int k) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  size_t i = y * get_global_size(0) + x;
  int group = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
  int item = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
  out[i] = a[i] * k + group * 1000 + item + (int)get_work_dim() * 1000000;
}
