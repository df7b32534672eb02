// Kernels that finish early only when they run at the same time.

// Polls *flag until another kernel sets it or `limit` polls have gone by; records the polls made.
__kernel void wait_for_flag(volatile __global int *flag, __global int *polls, int limit) {
  int i = 0;
  while (i < limit && *flag == 0)
    ++i;
  *polls = i;
}

__kernel void raise_flag(volatile __global int *flag) { *flag = 1; }
