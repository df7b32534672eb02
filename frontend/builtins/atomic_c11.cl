// SPDX-License-Identifier: Apache-2.0
// The atomics of OpenCL C 2.0 (section 6.13.11): on generic objects (the expected value of a
// compare-exchange generic too), as OpenCL C 2.0 declares them, and in the forms OpenCL C 3.0
// declares without the generic address space: on __global and __local objects, atomic_init, atomic_store, atomic_load,
// atomic_exchange, atomic_compare_exchange_strong/weak (the expected value in __global, __local or
// __private memory) and atomic_fetch_add/sub/or/xor/and/min/max, and atomic_flag_test_and_set/clear;
// each plain, _explicit with an order, and _explicit with an order and a scope. On atomic_int,
// atomic_uint, atomic_long and atomic_ulong (and the mixed intptr_t/uintptr_t forms), loads, stores,
// exchanges and compare-exchanges also on atomic_float.
//
// Each is the sequentially consistent read-modify-write of the same operation (atomic.cl's
// loom_seq_cst_*), at least as strong as any order and scope asked, so those are not looked at. A load is
// an `or` of 0 and a store an exchange: spir64 has no atomic load or store Clang 15 emits inline (its
// __atomic builtins become library calls there), and the hardware's atomic port serves both. A weak
// compare-exchange never fails spuriously. Clang declares the plain forms only with the features
// __opencl_c_atomic_order_seq_cst and __opencl_c_atomic_scope_device, the order-only forms only with
// the latter (OpenCLSupport.cpp says which device has them).

#define LOOM_UNPAREN(...) __VA_ARGS__

// R NAME(PARAMS) and its two _explicit forms, each returning BODY's value (or doing BODY, for void).
#define LOOM_C11_FORMS(R, NAME, PARAMS, BODY)                                                      \
  LOOM_BUILTIN R NAME(LOOM_UNPAREN PARAMS) { BODY }                                                \
  LOOM_BUILTIN R NAME##_explicit(LOOM_UNPAREN PARAMS, memory_order order) { BODY }                 \
  LOOM_BUILTIN R NAME##_explicit(LOOM_UNPAREN PARAMS, memory_order order, memory_scope scope) { BODY }

// A compare-exchange with its two _explicit forms (orders for success and failure).
#define LOOM_C11_CAS_FORMS(NAME, PARAMS, BODY)                                                     \
  LOOM_BUILTIN bool NAME(LOOM_UNPAREN PARAMS) { BODY }                                             \
  LOOM_BUILTIN bool NAME##_explicit(LOOM_UNPAREN PARAMS, memory_order success, memory_order failure) { BODY } \
  LOOM_BUILTIN bool NAME##_explicit(LOOM_UNPAREN PARAMS, memory_order success, memory_order failure, \
                                    memory_scope scope) { BODY }

// Compare-exchange of an object of A (values T, bits B), expected in EAS.
#define LOOM_C11_CAS(A, T, B, AS, EAS)                                                     \
  LOOM_C11_CAS_FORMS(atomic_compare_exchange_strong, (volatile AS A *p, EAS T *expected, T desired), \
                     return loom_compare_exchange(p, expected, desired);)                          \
  LOOM_C11_CAS_FORMS(atomic_compare_exchange_weak, (volatile AS A *p, EAS T *expected, T desired),   \
                     return loom_compare_exchange(p, expected, desired);)

// A compare-exchange's helper and forms with the expected value in EAS.
#define LOOM_C11_CAS_IN(A, T, B, AS, EAS)                                                  \
  LOOM_C11_CAS_BODY(A, T, B, AS, EAS)                                                      \
  LOOM_C11_CAS(A, T, B, AS, EAS)

// Where a compare-exchange's expected value may be: with a named object, in any named space; with a
// generic one, generic.
#define LOOM_C11_EXPECTED_NAMED(A, T, B, AS)                                               \
  LOOM_C11_CAS_IN(A, T, B, AS, __global)                                                   \
  LOOM_C11_CAS_IN(A, T, B, AS, __local)                                                    \
  LOOM_C11_CAS_IN(A, T, B, AS, __private)
#define LOOM_C11_EXPECTED_GENERIC(A, T, B, AS) LOOM_C11_CAS_IN(A, T, B, AS, __generic)

// What every atomic type has: init, store, load, exchange, compare-exchange (EXPECTED's forms).
#define LOOM_C11_VALUE(A, T, B, AS, EXPECTED)                                              \
  LOOM_BUILTIN void atomic_init(volatile AS A *p, T v) { *(volatile AS T *)p = v; }               \
  LOOM_C11_FORMS(void, atomic_store, (volatile AS A *p, T v),                                      \
                 loom_seq_cst_xchg((volatile AS B *)p, LOOM_AS(B, v));)                                 \
  LOOM_C11_FORMS(T, atomic_load, (volatile AS A *p), return LOOM_AS(T, loom_seq_cst_or((volatile AS B *)p, (B)0));) \
  LOOM_C11_FORMS(T, atomic_exchange, (volatile AS A *p, T v),                                      \
                 return LOOM_AS(T, loom_seq_cst_xchg((volatile AS B *)p, LOOM_AS(B, v)));)             \
  EXPECTED(A, T, B, AS)

// The values compare as bits (a float's -0 is not its +0), as C11's compare-exchange does.
#define LOOM_C11_CAS_BODY(A, T, B, AS, EAS)                                                \
  LOOM_BUILTIN bool loom_compare_exchange(volatile AS A *p, EAS T *expected, T desired) {          \
    B want = LOOM_AS(B, *expected);                                                                \
    B old = loom_seq_cst_cmpxchg((volatile AS B *)p, want, LOOM_AS(B, desired));                        \
    if (old == want)                                                                               \
      return true;                                                                                 \
    *expected = LOOM_AS(T, old);                                                                   \
    return false;                                                                                  \
  }

// atomic_fetch_OP of an object of A holding R, the operand converted from V to R.
#define LOOM_C11_FETCH(A, R, V, AS, OP)                                                    \
  LOOM_C11_FORMS(R, atomic_fetch_##OP, (volatile AS A *p, V v), return loom_seq_cst_##OP((volatile AS R *)p, (R)v);)

// The operations the intptr_t / uintptr_t mixes have too.
#define LOOM_C11_FETCH_BITS_MIN(A, R, V, AS)                                               \
  LOOM_C11_FETCH(A, R, V, AS, or) LOOM_C11_FETCH(A, R, V, AS, xor)                 \
  LOOM_C11_FETCH(A, R, V, AS, and) LOOM_C11_FETCH(A, R, V, AS, min)

#define LOOM_C11_INTEGER(A, T, AS, EXPECTED)                                               \
  LOOM_C11_VALUE(A, T, T, AS, EXPECTED)                                                    \
  LOOM_C11_FETCH(A, T, T, AS, add) LOOM_C11_FETCH(A, T, T, AS, sub)                \
  LOOM_C11_FETCH_BITS_MIN(A, T, T, AS) LOOM_C11_FETCH(A, T, T, AS, max)

// atomic_flag is an atomic_int: set is 1, clear 0.
#define LOOM_C11_FLAG(AS)                                                                          \
  LOOM_C11_FORMS(bool, atomic_flag_test_and_set, (volatile AS atomic_flag *p),                     \
                 return loom_seq_cst_xchg((volatile AS int *)p, 1) != 0;)                                \
  LOOM_C11_FORMS(void, atomic_flag_clear, (volatile AS atomic_flag *p), loom_seq_cst_xchg((volatile AS int *)p, 0);)

#define LOOM_C11_SPACE(AS, EXPECTED)                                                               \
  LOOM_C11_INTEGER(atomic_int, int, AS, EXPECTED)                                         \
  LOOM_C11_INTEGER(atomic_uint, uint, AS, EXPECTED)                                       \
  LOOM_C11_INTEGER(atomic_long, long, AS, EXPECTED)                                         \
  LOOM_C11_INTEGER(atomic_ulong, ulong, AS, EXPECTED)                                       \
  LOOM_C11_VALUE(atomic_float, float, int, AS, EXPECTED)                                  \
  LOOM_C11_FETCH(atomic_uintptr_t, uintptr_t, ptrdiff_t, AS, add)                           \
  LOOM_C11_FETCH(atomic_uintptr_t, uintptr_t, ptrdiff_t, AS, sub)                           \
  LOOM_C11_FETCH_BITS_MIN(atomic_uintptr_t, uintptr_t, intptr_t, AS)                        \
  LOOM_C11_FETCH_BITS_MIN(atomic_intptr_t, intptr_t, uintptr_t, AS)                         \
  LOOM_C11_FLAG(AS)

LOOM_C11_SPACE(__global, LOOM_C11_EXPECTED_NAMED)
LOOM_C11_SPACE(__local, LOOM_C11_EXPECTED_NAMED)
LOOM_C11_SPACE(__generic, LOOM_C11_EXPECTED_GENERIC)
