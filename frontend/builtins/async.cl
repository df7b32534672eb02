// SPDX-License-Identifier: Apache-2.0
// Async copies and prefetch (OpenCL C 1.2 section 6.12.10): async_work_group_copy and
// async_work_group_strided_copy in both directions for every gentype, prefetch.
//
// The copy is the work-group's: each work-item copies every (local size)-th element, starting at its
// local linear id, so that consecutive work-items move consecutive elements (on the CPU the loop
// over the work-items vectorises). In hardware, where the work-items of a region stream through one
// pipeline at a work-item a cycle, a contiguous copy moves a burst of up to 64 bytes (the board's
// memory width) per work-item instead: the copy is one of the gentype's scalars (a vector's
// components: an on-chip array has one element size), and work-item k copies bursts k,
// k + (local size), ... of up to 16 of them as one wide global access and as many on-chip memory
// ports, and the scalars past the last whole burst one by one; a group of 64 work-items moves
// 4 KiB of floats or of float4s in one pass. Strided copies move an element (a vector: one access)
// at a time. In hardware every work-item also runs its copy loop the same number of times (rounds
// of the whole group, the last one partly idle): a work-item enters a region's inner loop before
// the previous one has left it only when their trip counts cannot differ.
// wait_group_events is a work-group barrier (the lowering stage cuts
// the kernel there), after which every work-item sees the whole copy; the copies are done by then,
// so events carry nothing and the one passed in is returned, as the spec asks of a non-zero event.
// 3-component vectors are copied as 4-component ones (the reference page's rule). prefetch is a
// hint, and does nothing.

// The calling work-item's local linear id and the work-group's size, from the 1.2 functions.
static size_t __attribute__((overloadable, always_inline)) loom_local_linear_id(void) {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}
static size_t __attribute__((overloadable, always_inline)) loom_local_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#ifdef __SPIR__
// The calling work-item's share I of COUNT items: one item in each round of the group, every
// work-item the same rounds (the exit test is the round's first item, the same for all), the last
// round partly idle. Both step by the group's size: adders, with neither a multiplier nor a divider.
#define LOOM_FOR_SHARE(I, COUNT)                                                                    \
  for (size_t first = 0, step = loom_local_items(), I = loom_local_linear_id(); first < (COUNT);     \
       first += step, I += step)                                                                   \
    if (I < (COUNT))
#else
#define LOOM_FOR_SHARE(I, COUNT)                                                                    \
  for (size_t I = loom_local_linear_id(), step = loom_local_items(); I < (COUNT); I += step)
#endif

#define LOOM_GROUP_COPY(DST, DST_STRIDE, SRC, SRC_STRIDE, N)                                       \
  LOOM_FOR_SHARE(i, N) { (DST)[i * (DST_STRIDE)] = (SRC)[i * (SRC_STRIDE)]; }

#ifdef __SPIR__
// Bursts of W scalars (vloadW and vstoreW: one unaligned access of each side), then the rest one by
// one, all in one loop of chunks: two loops would make a work-item's second wait for the first's
// stores to complete, and a work-group's work-items take turns at a region's inner loops.
#define LOOM_BURST_COPY(DST, SRC, N, W)                                                             \
  {                                                                                                \
    const size_t bursts = (N) / W, chunks = bursts + (N) % W;                                      \
    LOOM_FOR_SHARE(chunk, chunks) {                                                                \
      if (chunk < bursts) {                                                                        \
        vstore##W(vload##W(chunk, SRC), chunk, DST);                                               \
      } else {                                                                                     \
        const size_t i = chunk + bursts * (W - 1); /* bursts * W + (chunk - bursts) */             \
        (DST)[i] = (SRC)[i];                                                                       \
      }                                                                                            \
    }                                                                                              \
  }
// N elements of C from SRC (in SRC_AS) to DST (in DST_AS), as C's scalars S in bursts of W.
#define LOOM_CONTIGUOUS_COPY(DST_AS, DST, SRC_AS, SRC, N, C, S, W)                                 \
  LOOM_BURST_COPY((DST_AS S *)(DST), (const SRC_AS S *)(SRC), (N) * (sizeof(C) / sizeof(S)), W)
#else
#define LOOM_CONTIGUOUS_COPY(DST_AS, DST, SRC_AS, SRC, N, C, S, W)                                 \
  LOOM_GROUP_COPY((DST_AS C *)(DST), 1, (const SRC_AS C *)(SRC), 1, N) // the work-item loop vectorises
#endif
// A burst's scalars: 64 bytes, or 16, the widest vloadn.
#define LOOM_BURST_char 16
#define LOOM_BURST_uchar 16
#define LOOM_BURST_short 16
#define LOOM_BURST_ushort 16
#define LOOM_BURST_int 16
#define LOOM_BURST_uint 16
#define LOOM_BURST_float 16
#define LOOM_BURST_long 8
#define LOOM_BURST_ulong 8

// T is the gentype, C the type it is copied as (T, or the 4-component type for a 3-component T), S
// its scalar, W a burst's scalars.
#define LOOM_ASYNC_COPY(T, C, S, W)                                                                \
  LOOM_BUILTIN event_t async_work_group_copy(__local T *dst, const __global T *src, size_t n,      \
                                             event_t event) {                                      \
    LOOM_CONTIGUOUS_COPY(__local, dst, __global, src, n, C, S, W);                                 \
    return event;                                                                                  \
  }                                                                                                \
  LOOM_BUILTIN event_t async_work_group_copy(__global T *dst, const __local T *src, size_t n,      \
                                             event_t event) {                                      \
    LOOM_CONTIGUOUS_COPY(__global, dst, __local, src, n, C, S, W);                                 \
    return event;                                                                                  \
  }                                                                                                \
  LOOM_BUILTIN event_t async_work_group_strided_copy(__local T *dst, const __global T *src,        \
                                                     size_t n, size_t src_stride, event_t event) { \
    LOOM_GROUP_COPY((__local C *)dst, 1, (const __global C *)src, src_stride, n);                  \
    return event;                                                                                  \
  }                                                                                                \
  LOOM_BUILTIN event_t async_work_group_strided_copy(__global T *dst, const __local T *src,        \
                                                     size_t n, size_t dst_stride, event_t event) { \
    LOOM_GROUP_COPY((__global C *)dst, dst_stride, (const __local C *)src, 1, n);                  \
    return event;                                                                                  \
  }                                                                                                \
  LOOM_BUILTIN void prefetch(const __global T *p, size_t n) {}

#define LOOM_ASYNC_SHAPES(T, S, I, U)                                                              \
  LOOM_ASYNC_COPY(S, S, S, LOOM_BURST_##S)                                                         \
  LOOM_ASYNC_COPY(S##2, S##2, S, LOOM_BURST_##S)                                                   \
  LOOM_ASYNC_COPY(S##3, S##4, S, LOOM_BURST_##S)                                                   \
  LOOM_ASYNC_COPY(S##4, S##4, S, LOOM_BURST_##S)                                                   \
  LOOM_ASYNC_COPY(S##8, S##8, S, LOOM_BURST_##S)                                                   \
  LOOM_ASYNC_COPY(S##16, S##16, S, LOOM_BURST_##S)
LOOM_INTEGERS(LOOM_ASYNC_SHAPES, LOOM_SCALAR_ONLY)
LOOM_FLOATS(LOOM_ASYNC_SHAPES, LOOM_SCALAR_ONLY)
