// Kernels that go wrong on purpose, for the failure paths of the board.

// Stores at base + offset: the test passes an offset that leaves device memory.
__kernel void wild_store(__global int *base, long offset) {
  size_t i = get_global_id(0);
  base[offset + (long)i] = 1;
}
