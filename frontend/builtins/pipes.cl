// SPDX-License-Identifier: Apache-2.0
// Pipes (OpenCL C 2.0 section 6.13.16): the work-group and sub-group reservations, which
// pipes.host.ll's __work_group_reserve_read_pipe, ... call on the CPU device. The group's first
// work-item makes the reservation and the others get it through a reduction (CLK_NULL_RESERVE_ID
// is all ones: the largest); a commit waits at a barrier for every work-item's packets, then the
// first work-item commits them. The rest of the pipe functions are pipes.host.ll's. The hardware
// flow's group forms (the same scheme, over the pipe port's reservations) are pipes.spir64.ll.
#ifndef __SPIR__
ulong __loom_pipe_reserve(__global void *storage, uint packets, int write, uint site);
void __loom_pipe_commit(__global void *storage, ulong reservation, int write);
// Clang declares the sub-group functions for the targets that have cl_khr_subgroups only.
uint __attribute__((overloadable)) get_sub_group_local_id(void);
ulong __attribute__((overloadable)) sub_group_reduce_max(ulong x);
void __attribute__((overloadable)) sub_group_barrier(cl_mem_fence_flags flags);

// A group's reservation and commit: SCOPE is work_group or sub_group, FIRST its first work-item.
#define LOOM_GROUP_PIPE(SCOPE, FIRST)                                                              \
  ulong __attribute__((always_inline)) __loom_##SCOPE##_reserve(__global void *storage, uint packets, int write) { \
    return SCOPE##_reduce_max(FIRST ? __loom_pipe_reserve(storage, packets, write, 0) : 0);           \
  }                                                                                                \
  void __attribute__((always_inline)) __loom_##SCOPE##_commit(__global void *storage, ulong reservation, int write) { \
    SCOPE##_barrier(CLK_GLOBAL_MEM_FENCE);                                                         \
    if (FIRST)                                                                                     \
      __loom_pipe_commit(storage, reservation, write);                                             \
  }
LOOM_GROUP_PIPE(work_group, get_local_linear_id() == 0)
LOOM_GROUP_PIPE(sub_group, get_sub_group_local_id() == 0)
#endif
