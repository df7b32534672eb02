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
// the CPU device to a locked instruction. Two sets make them:
// - loom_seq_cst_* (add, sub, xchg, and, or, xor, min, max, cmpxchg): sequentially consistent, for
//   atomic_c11.cl. The __sync builtins make them: Clang 15 turns the __atomic / __c11_atomic /
//   __opencl_atomic builtins into library calls on spir64 (its largest lock-free size is 0 there),
//   the __sync ones always into the instruction. __sync_fetch_and_min/max exist for int only:
//   64-bit min and max are __atomic_fetch_min/max on the host (inline there) and, for spir64,
//   atomic64.spir64.ll.
// - the OpenCL 1.x names: relaxed, all OpenCL 1.x promises (an indivisible read-modify-write, no
//   order). On the host they are __atomic builtins with __ATOMIC_RELAXED, which x86-64 locks as it
//   locks every read-modify-write, and which tell the CPU device's lowering that a work-group's
//   updates may be combined (runtime/devices/cpu/CombineGroupAtomics.h). The board ignores the
//   order: on spir64 they are the sequentially consistent set. atomic_inc and atomic_dec are an add
//   and a sub of 1.

// The sequentially consistent set on one pointer type; MIN_MAX(NAME, T, AS, OP) defines NAME as
// min (OP <) or max (OP >).
#define LOOM_SEQ_CST_FUNCTIONS(T, MIN_MAX, AS)                                                     \
  LOOM_BUILTIN T loom_seq_cst_add(volatile AS T *p, T v) { return __sync_fetch_and_add(p, v); }    \
  LOOM_BUILTIN T loom_seq_cst_sub(volatile AS T *p, T v) { return __sync_fetch_and_sub(p, v); }    \
  LOOM_BUILTIN T loom_seq_cst_xchg(volatile AS T *p, T v) { return __sync_swap(p, v); }            \
  LOOM_BUILTIN T loom_seq_cst_and(volatile AS T *p, T v) { return __sync_fetch_and_and(p, v); }    \
  LOOM_BUILTIN T loom_seq_cst_or(volatile AS T *p, T v) { return __sync_fetch_and_or(p, v); }      \
  LOOM_BUILTIN T loom_seq_cst_xor(volatile AS T *p, T v) { return __sync_fetch_and_xor(p, v); }    \
  LOOM_BUILTIN T loom_seq_cst_cmpxchg(volatile AS T *p, T expected, T v) {                         \
    return __sync_val_compare_and_swap(p, expected, v);                                           \
  }                                                                                                \
  MIN_MAX(loom_seq_cst_min, T, AS, <)                                                              \
  MIN_MAX(loom_seq_cst_max, T, AS, >)

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
// spir64's: declared for the callers here, defined in atomic64.spir64.ll.
#define LOOM_MIN_MAX_DECLARED(NAME, T, AS, OP) LOOM_BUILTIN T NAME(volatile AS T *p, T v);
#ifdef __SPIR__
#define LOOM_MIN_MAX_long LOOM_MIN_MAX_DECLARED
#else
#define LOOM_MIN_MAX_long LOOM_MIN_MAX_64
#endif

// A set's functions in the three address spaces: FUNCTIONS(..., AS).
#define LOOM_ATOMIC_SPACES(FUNCTIONS, ...)                                                         \
  FUNCTIONS(__VA_ARGS__, __global) FUNCTIONS(__VA_ARGS__, __local) FUNCTIONS(__VA_ARGS__, __generic)

LOOM_ATOMIC_SPACES(LOOM_SEQ_CST_FUNCTIONS, int, LOOM_MIN_MAX_int)
LOOM_ATOMIC_SPACES(LOOM_SEQ_CST_FUNCTIONS, uint, LOOM_MIN_MAX_uint)
LOOM_ATOMIC_SPACES(LOOM_SEQ_CST_FUNCTIONS, long, LOOM_MIN_MAX_long)
LOOM_ATOMIC_SPACES(LOOM_SEQ_CST_FUNCTIONS, ulong, LOOM_MIN_MAX_long)

// The OpenCL 1.x set: RMW(OP, T, AS, p, v) is the read-modify-write OP (add, sub, xchg, and, or,
// xor, min, max) and CAS(T, AS, p, expected, v) the compare-exchange, returning the old value.
#ifdef __SPIR__
#define LOOM_LEGACY_RMW(OP, T, AS, p, v) loom_seq_cst_##OP(p, v)
#define LOOM_LEGACY_CAS(T, AS, p, expected, v) loom_seq_cst_cmpxchg(p, expected, v)
#else
// The object is not volatile to the CPU device's lowering: OpenCL 1.x declares every atomic
// function's pointer volatile, whatever the kernel meant.
#define LOOM_LEGACY_RMW(OP, T, AS, p, v) LOOM_RELAXED_##OP((AS T *)p, v, __ATOMIC_RELAXED)
#define LOOM_RELAXED_add __atomic_fetch_add
#define LOOM_RELAXED_sub __atomic_fetch_sub
#define LOOM_RELAXED_xchg __atomic_exchange_n
#define LOOM_RELAXED_and __atomic_fetch_and
#define LOOM_RELAXED_or __atomic_fetch_or
#define LOOM_RELAXED_xor __atomic_fetch_xor
#define LOOM_RELAXED_min __atomic_fetch_min
#define LOOM_RELAXED_max __atomic_fetch_max
#define LOOM_LEGACY_CAS(T, AS, p, expected, v)                                                     \
  ({                                                                                               \
    T old = expected;                                                                              \
    __atomic_compare_exchange_n((AS T *)p, &old, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);    \
    old;                                                                                           \
  })
#endif

#define LOOM_LEGACY_FUNCTIONS(PREFIX, T, AS)                                                       \
  LOOM_BUILTIN T PREFIX##add(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(add, T, AS, p, v); }  \
  LOOM_BUILTIN T PREFIX##sub(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(sub, T, AS, p, v); }  \
  LOOM_BUILTIN T PREFIX##xchg(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(xchg, T, AS, p, v); } \
  LOOM_BUILTIN T PREFIX##and(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(and, T, AS, p, v); }  \
  LOOM_BUILTIN T PREFIX##or(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(or, T, AS, p, v); }    \
  LOOM_BUILTIN T PREFIX##xor(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(xor, T, AS, p, v); }  \
  LOOM_BUILTIN T PREFIX##min(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(min, T, AS, p, v); }  \
  LOOM_BUILTIN T PREFIX##max(volatile AS T *p, T v) { return LOOM_LEGACY_RMW(max, T, AS, p, v); }  \
  LOOM_BUILTIN T PREFIX##inc(volatile AS T *p) { return LOOM_LEGACY_RMW(add, T, AS, p, (T)1); }    \
  LOOM_BUILTIN T PREFIX##dec(volatile AS T *p) { return LOOM_LEGACY_RMW(sub, T, AS, p, (T)1); }    \
  LOOM_BUILTIN T PREFIX##cmpxchg(volatile AS T *p, T expected, T v) {                              \
    return LOOM_LEGACY_CAS(T, AS, p, expected, v);                                                 \
  }

LOOM_ATOMIC_SPACES(LOOM_LEGACY_FUNCTIONS, atomic_, int)
LOOM_ATOMIC_SPACES(LOOM_LEGACY_FUNCTIONS, atomic_, uint)
LOOM_ATOMIC_SPACES(LOOM_LEGACY_FUNCTIONS, atom_, int)
LOOM_ATOMIC_SPACES(LOOM_LEGACY_FUNCTIONS, atom_, uint)
LOOM_ATOMIC_SPACES(LOOM_LEGACY_FUNCTIONS, atom_, long)
LOOM_ATOMIC_SPACES(LOOM_LEGACY_FUNCTIONS, atom_, ulong)

// atomic_xchg on float exchanges the bits.
#define LOOM_ATOMIC_XCHG_FLOAT(AS)                                                                 \
  LOOM_BUILTIN float atomic_xchg(volatile AS float *p, float v) {                                  \
    return LOOM_AS(float, atomic_xchg((volatile AS int *)p, LOOM_AS(int, v)));                     \
  }
LOOM_ATOMIC_XCHG_FLOAT(__global)
LOOM_ATOMIC_XCHG_FLOAT(__local)
LOOM_ATOMIC_XCHG_FLOAT(__generic)
