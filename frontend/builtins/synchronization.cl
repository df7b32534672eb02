// SPDX-License-Identifier: Apache-2.0
// Memory fences (OpenCL C 1.2 section 6.12.9; atomic_work_item_fence, OpenCL C 2.0 section 6.13.11.6)
// and get_fence (OpenCL C 2.0 section 6.13.9).
// `barrier` and `work_group_barrier` are not defined here: they are where the kernel-lowering stage
// (frontend/lowering/BarrierRegions) cuts a kernel into regions.
//
// A fence orders the calling work-item's own memory accesses as other work-items see them. On the
// CPU device a work-group's work-items take turns on one thread, and work-groups run on several:
// a sequentially consistent fence instruction. In hardware a work-item's accesses to memory that may
// alias already keep program order (hls/ passes tokens between them), so the fence adds nothing.

#ifdef __SPIR__
#define LOOM_FENCE()
#else
#define LOOM_FENCE() __c11_atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

LOOM_BUILTIN void mem_fence(cl_mem_fence_flags flags) { LOOM_FENCE(); }
LOOM_BUILTIN void read_mem_fence(cl_mem_fence_flags flags) { LOOM_FENCE(); }
LOOM_BUILTIN void write_mem_fence(cl_mem_fence_flags flags) { LOOM_FENCE(); }
LOOM_BUILTIN void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope) {
  LOOM_FENCE();
}

// The fence a generic pointer's memory needs: __local's, or global's for the rest (a private
// object needs none, and any valid flag will do). to_local is answered by each back end.
LOOM_BUILTIN cl_mem_fence_flags get_fence(const void *p) {
  return to_local(p) ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
LOOM_BUILTIN cl_mem_fence_flags get_fence(void *p) { return get_fence((const void *)p); }
