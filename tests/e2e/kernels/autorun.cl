// Intel's autorun kernels (AutorunBoardTest.cpp): no host enqueues them; they start when the program
// is built and start again each time they finish. The host's kernels talk to them through channels.
#pragma OPENCL EXTENSION cl_intel_channels : enable

channel int to_workers[4] __attribute__((depth(8)));
channel int from_workers[4] __attribute__((depth(8)));

// Four copies of one worker, each with its own pair of channels, chosen by its compute id.
__attribute__((autorun)) __attribute__((max_global_work_dim(0))) __attribute__((num_compute_units(4)))
__kernel void worker() {
  const uint id = get_compute_id(0);
  const int value = read_channel_intel(to_workers[id]);
  write_channel_intel(from_workers[id], value * 10 + (int)id);
}

// Number i goes to worker i % 4 (n is a multiple of 4: a channel's index must be a constant).
__attribute__((max_global_work_dim(0)))
__kernel void deal(__global const int *restrict src, int n) {
  for (int i = 0; i < n; i += 4) {
#pragma unroll
    for (int w = 0; w < 4; ++w)
      write_channel_intel(to_workers[w], src[i + w]);
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void collect(__global int *restrict dst, int n) {
  for (int i = 0; i < n; i += 4) {
#pragma unroll
    for (int w = 0; w < 4; ++w)
      dst[i + w] = read_channel_intel(from_workers[w]);
  }
}

channel int to_total;
channel int from_total __attribute__((depth(4)));

// Never finishes: its running total lives as long as the program.
__attribute__((autorun)) __attribute__((max_global_work_dim(0)))
__kernel void running_total() {
  int total = 0;
  while (1) {
    total += read_channel_intel(to_total);
    write_channel_intel(from_total, total);
  }
}

__attribute__((max_global_work_dim(0)))
__kernel void add_up(__global const int *restrict src, __global int *restrict totals, int n) {
  for (int i = 0; i < n; ++i) {
    write_channel_intel(to_total, src[i]);
    totals[i] = read_channel_intel(from_total);
  }
}

channel int to_squares __attribute__((depth(4)));
channel int from_squares __attribute__((depth(4)));

// An autorun work-group: its four work-items square a packet each, every run.
__attribute__((autorun)) __attribute__((reqd_work_group_size(4, 1, 1)))
__kernel void square_group() {
  const int v = read_channel_intel(to_squares);
  write_channel_intel(from_squares, v * v);
}

// Four packets out, four back (n a multiple of 4).
__attribute__((max_global_work_dim(0)))
__kernel void squares(__global const int *restrict src, __global int *restrict dst, int n) {
  for (int i = 0; i < n; i += 4) {
    for (int k = 0; k < 4; ++k)
      write_channel_intel(to_squares, src[i + k]);
    for (int k = 0; k < 4; ++k)
      dst[i + k] = read_channel_intel(from_squares);
  }
}
