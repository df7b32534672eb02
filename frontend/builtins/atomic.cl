// SPDX-License-Identifier: Apache-2.0
// Atomic functions on __global and __local memory (and generic, for atomic_c11.cl's generic forms
// to call: OpenCL C declares none of these for it): the OpenCL C 1.1 names (atomic_add, atomic_sub,
// atomic_xchg, atomic_inc, atomic_dec, atomic_cmpxchg, atomic_min, atomic_max, atomic_and,
// atomic_or, atomic_xor; OpenCL C 1.2 section 6.12.11) on int and uint, atomic_xchg also on float,
// and the atom_* names of cl_khr_(global|local)_int32_base/extended_atomics on int and uint and of
// cl_khr_int64_base/extended_atomics on long and ulong.
//
// LLVM sees one `atomicrmw` (add, sub, xchg, and, or, xor, min, max, umin, umax) or `cmpxchg` (its
// old value is the result) per call, which the hardware flow lowers to an atomic memory port and
// the CPU device to a locked instruction. The __sync builtins make them: Clang 15 turns the
// __atomic / __c11_atomic / __opencl_atomic builtins into library calls on spir64 (its largest
// lock-free size is 0 there), the __sync ones always into the instruction. Their order is seq_cst,
// stronger than the relaxed order OpenCL 1.x atomics promise (an indivisible read-modify-write);
// the board ignores the order and x86-64 locks every read-modify-write alike. atomic_inc and
// atomic_dec are an add and a sub of 1. __sync_fetch_and_min/max exist for int only: 64-bit min and
// max are __atomic_fetch_min/max on the host (inline there) and, for spir64, atomic64.spir64.ll.

// The functions of one pointer type; MIN_MAX(NAME, T, AS, OP) defines PREFIX##min and PREFIX##max.
#define LOOM_ATOMIC_FUNCTIONS(PREFIX, T, AS, MIN_MAX)                                              \
  LOOM_BUILTIN T PREFIX##add(volatile AS T *p, T v) { return __sync_fetch_and_add(p, v); }        \
  LOOM_BUILTIN T PREFIX##sub(volatile AS T *p, T v) { return __sync_fetch_and_sub(p, v); }        \
  LOOM_BUILTIN T PREFIX##xchg(volatile AS T *p, T v) { return __sync_swap(p, v); }                \
  LOOM_BUILTIN T PREFIX##inc(volatile AS T *p) { return __sync_fetch_and_add(p, (T)1); }          \
  LOOM_BUILTIN T PREFIX##dec(volatile AS T *p) { return __sync_fetch_and_sub(p, (T)1); }          \
  LOOM_BUILTIN T PREFIX##and(volatile AS T *p, T v) { return __sync_fetch_and_and(p, v); }        \
  LOOM_BUILTIN T PREFIX##or(volatile AS T *p, T v) { return __sync_fetch_and_or(p, v); }          \
  LOOM_BUILTIN T PREFIX##xor(volatile AS T *p, T v) { return __sync_fetch_and_xor(p, v); }        \
  LOOM_BUILTIN T PREFIX##cmpxchg(volatile AS T *p, T expected, T v) {                              \
    return __sync_val_compare_and_swap(p, expected, v);                                           \
  }                                                                                                \
  MIN_MAX(PREFIX##min, T, AS, <)                                                                   \
  MIN_MAX(PREFIX##max, T, AS, >)

// 32 bits: atomicrmw min / max (int) and umin / umax (uint).
#define LOOM_MIN_MAX_int(NAME, T, AS, OP)                                                          \
  LOOM_BUILTIN T NAME(volatile AS T *p, T v) {                                                     \
    return 1 OP 0 ? __sync_fetch_and_max(p, v) : __sync_fetch_and_min(p, v);                       \
  }
#define LOOM_MIN_MAX_uint(NAME, T, AS, OP)                                                         \
  LOOM_BUILTIN T NAME(volatile AS T *p, T v) {                                                     \
    return 1 OP 0 ? __sync_fetch_and_umax(p, v) : __sync_fetch_and_umin(p, v);                     \
  }
// 64 bits on the host; spir64's are in atomic64.spir64.ll.
#define LOOM_MIN_MAX_64(NAME, T, AS, OP)                                                           \
  LOOM_BUILTIN T NAME(volatile AS T *p, T v) {                                                     \
    return 1 OP 0 ? __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST) : __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); \
  }
// spir64's: declared for the callers here (atomic_c11.cl), defined in atomic64.spir64.ll.
#define LOOM_MIN_MAX_DECLARED(NAME, T, AS, OP) LOOM_BUILTIN T NAME(volatile AS T *p, T v);
#ifdef __SPIR__
#define LOOM_MIN_MAX_long LOOM_MIN_MAX_DECLARED
#else
#define LOOM_MIN_MAX_long LOOM_MIN_MAX_64
#endif

#define LOOM_ATOMIC_SPACES(PREFIX, T, MIN_MAX)                                                     \
  LOOM_ATOMIC_FUNCTIONS(PREFIX, T, __global, MIN_MAX)                                              \
  LOOM_ATOMIC_FUNCTIONS(PREFIX, T, __local, MIN_MAX)                                               \
  LOOM_ATOMIC_FUNCTIONS(PREFIX, T, __generic, MIN_MAX)

LOOM_ATOMIC_SPACES(atomic_, int, LOOM_MIN_MAX_int)
LOOM_ATOMIC_SPACES(atomic_, uint, LOOM_MIN_MAX_uint)
LOOM_ATOMIC_SPACES(atom_, int, LOOM_MIN_MAX_int)
LOOM_ATOMIC_SPACES(atom_, uint, LOOM_MIN_MAX_uint)
LOOM_ATOMIC_SPACES(atom_, long, LOOM_MIN_MAX_long)
LOOM_ATOMIC_SPACES(atom_, ulong, LOOM_MIN_MAX_long)

// atomic_xchg on float exchanges the bits.
#define LOOM_ATOMIC_XCHG_FLOAT(AS)                                                                 \
  LOOM_BUILTIN float atomic_xchg(volatile AS float *p, float v) {                                  \
    return LOOM_AS(float, atomic_xchg((volatile AS int *)p, LOOM_AS(int, v)));                     \
  }
LOOM_ATOMIC_XCHG_FLOAT(__global)
LOOM_ATOMIC_XCHG_FLOAT(__local)
LOOM_ATOMIC_XCHG_FLOAT(__generic)
