// Program-scope FIFOs on both devices (ChannelsBoardTest.cpp), as FPGA code declares them for
// Intel's aoc (channels, OpenCL C 1.2) and AMD's Vitis (program-scope pipes): Loom makes each one a
// pipe that the runtime binds to the kernels using it, a hardware FIFO of its depth on the board.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int numbers __attribute__((depth(4)));
// No depth: Loom's default.
channel float4 vectors;
struct sample {
  int id;
  float value;
};
channel struct sample samples __attribute__((depth(8)));
// A channel array: each element a FIFO of its own, indexed by constants once loops are unrolled.
channel int lanes[2][2] __attribute__((depth(2)));
channel int tries __attribute__((depth(16)));

// Tasks (max_global_work_dim(0): one work-item) that run at the same time.
__attribute__((max_global_work_dim(0)))
__kernel void produce_numbers(__global const int *src, int n) {
  for (int i = 0; i < n; ++i)
    write_channel_intel(numbers, src[i]);
}
__attribute__((max_global_work_dim(0)))
__kernel void consume_numbers(__global int *dst, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = read_channel_intel(numbers) * 3;
}

__kernel void produce_vectors(__global const float4 *src) {
  const float4 v = src[get_global_id(0)] * 2.0f;
  // Intel's fence flag for channel calls: the calls before it are done before those after it.
  mem_fence(CLK_CHANNEL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  write_channel_intel(vectors, v);
}
__kernel void consume_vectors(__global float4 *dst) {
  // The older spelling of the same call.
  dst[get_global_id(0)] = read_channel_altera(vectors) + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}

// Channel calls in a helper function: inlined into each kernel that calls it.
void send_sample(int id, float value) {
  struct sample s = {id, value};
  write_channel_intel(samples, s);
}
__attribute__((max_global_work_dim(0)))
__kernel void produce_samples(__global const float *src, int n) {
  for (int i = n - 1; i >= 0; --i)
    send_sample(i, src[i]);
}
__attribute__((max_global_work_dim(0)))
__kernel void consume_samples(__global float *dst, int n) {
  for (int i = 0; i < n; ++i) {
    struct sample s = read_channel_intel(samples);
    dst[s.id] = s.value * 0.5f;
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void scatter_lanes(__global const int *src, int n) {
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int l = 0; l < 4; ++l)
      write_channel_intel(lanes[l / 2][l % 2], src[i * 4 + l] + l);
  }
}
__attribute__((max_global_work_dim(0)))
__kernel void gather_lanes(__global int *dst, int n) {
  for (int i = 0; i < n; ++i) {
    int sum = 0;
#pragma unroll
    for (int l = 0; l < 4; ++l)
      sum += read_channel_intel(lanes[l / 2][l % 2]) * (l + 1);
    dst[i] = sum;
  }
}

// Non-blocking calls, retried by hand; `failures` counts the tries that moved nothing.
__attribute__((max_global_work_dim(0)))
__kernel void produce_trying(__global const int *src, int n, __global int *failures) {
  int failed = 0;
  for (int i = 0; i < n;) {
    if (write_channel_nb_intel(tries, src[i]))
      ++i;
    else
      ++failed;
  }
  failures[0] = failed;
}
__attribute__((max_global_work_dim(0)))
__kernel void consume_trying(__global int *dst, int n, __global int *failures) {
  int failed = 0;
  for (int i = 0; i < n;) {
    bool valid = false;
    int v = read_channel_nb_intel(tries, &valid);
    if (valid)
      dst[i++] = v;
    else
      ++failed;
  }
  failures[1] = failed;
}

// Vitis's dataflow: three kernels over program-scope pipes.
pipe int stage_in __attribute__((xcl_reqd_pipe_depth(16)));
pipe int stage_out __attribute__((xcl_reqd_pipe_depth(32)));
__kernel void xilinx_read(__global const int *src, int n) {
  for (int i = 0; i < n; ++i)
    write_pipe_block(stage_in, &src[i]);
}
__kernel void xilinx_compute(int n) {
  for (int i = 0; i < n; ++i) {
    int v;
    read_pipe_block(stage_in, &v);
    v = v * v + 1;
    write_pipe_block(stage_out, &v);
  }
}
__kernel void xilinx_write(__global int *dst, int n) {
  for (int i = 0; i < n; ++i)
    read_pipe_block(stage_out, &dst[i]);
}

// aoc's forms that Clang rejects: a __local array in a helper function (each calling kernel gets
// its own) and opencl_unroll_hint before a labelled loop.
float group_sum(float value) {
  __local float partial[64];
  partial[get_local_id(0)] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  __attribute__((opencl_unroll_hint(4)))
  sum_loop: for (int i = 0; i < 64; ++i)
    sum += partial[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  return sum;
}
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void group_sums(__global const float *src, __global float *dst) {
  dst[get_global_id(0)] = group_sum(src[get_global_id(0)]) - src[get_global_id(0)];
}

// A channel no kernel writes: its reader deadlocks, which both devices diagnose.
channel int unfed;
__attribute__((max_global_work_dim(0)))
__kernel void starve_channel(__global int *dst) {
  dst[0] = read_channel_intel(unfed);
}
