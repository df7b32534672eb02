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
