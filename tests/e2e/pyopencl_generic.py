# SPDX-License-Identifier: Apache-2.0
# What pyopencl_board.py and pyopencl_cpu.py both run (a module, not a test: both import it from beside
# them), each function returning the failures it found: an OpenCL C 2.0 kernel built from source with
# pyopencl (vload4/vstore4 and the C11 atomics (Clang declares them for generic pointers only), helpers
# taking a generic pointer, and to_global, to_local, to_private and get_fence of pointers into each
# memory and of one chosen at run time); and pyopencl's reductions and scans, which its library builds
# on barriers and __local memory, checked against numpy (exact).
import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.reduction import ReductionKernel

SOURCE = """
float twice(const float *p) { return 2.0f * *p; }
void count(volatile atomic_int *n) { atomic_fetch_add_explicit(n, 1, memory_order_relaxed, memory_scope_work_group); }
int where(int *p) {
  return (to_global(p) != 0) + 2 * (to_local(p) != 0) + 4 * (to_private(p) != 0) + 8 * (get_fence(p) == CLK_LOCAL_MEM_FENCE);
}
__kernel void pairs(__global const float *x, __global float *y, __global int *counts, __global int *spaces) {
  __local atomic_int n;
  __local int shared[8];
  if (get_local_id(0) == 0)
    atomic_init(&n, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  vstore4(vload4(i, x) + twice(x + 4 * i), i, y);
  count(&n);
  int mine[2] = {(int)i, 1};
  spaces[4 * i] = where(spaces + 4 * i);
  spaces[4 * i + 1] = where(shared + get_local_id(0));
  spaces[4 * i + 2] = where(mine + (i & 1));
  spaces[4 * i + 3] = where(i & 1 ? (int *)spaces : (int *)shared);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    counts[get_group_id(0)] = atomic_load_explicit(&n, memory_order_relaxed, memory_scope_work_group);
}
"""


def generic_pointer_failures(context, queue, rng):
    """Runs the kernel on the context's device; returns the failures found (none: an empty list)."""
    pairs = cl.Program(context, SOURCE).build(options="-cl-std=CL2.0").pairs
    x_host = rng.standard_normal(64).astype(np.float32)
    x = cla.to_device(queue, x_host)
    y = cla.empty_like(x)
    counts = cla.empty(queue, 2, np.int32)
    spaces = cla.empty(queue, 64, np.int32)
    pairs(queue, (16,), (8,), x.data, y.data, counts.data, spaces.data)
    want = x_host + np.repeat(np.float32(2) * x_host[::4], 4)
    failures = [] if np.array_equal(y.get(), want) else ["OpenCL C 2.0 vload4 and a generic pointer: results differ"]
    # Global 1, __local 2 with its fence 8, private 4; the run-time choice global for odd items.
    want_spaces = [v for i in range(16) for v in (1, 10, 4, 1 if i & 1 else 10)]
    if list(spaces.get()) != want_spaces:
        failures.append(f"to_global/to_local/to_private/get_fence: {list(spaces.get())}, not {want_spaces}")
    if list(counts.get()) != [8, 8]:
        failures.append(f"OpenCL C 2.0 atomics on a generic pointer: counted {list(counts.get())}, not [8, 8]")
    return failures


def _mismatch(what, got, want):
    """The failure, if `got` differs from numpy's `want`: a list of none or one."""
    return [] if np.array_equal(got, want) else [f"{what}: got {got!r}, want {want!r}"]


# pyopencl.array's reductions and scans of int32 arrays, by name: (pyopencl's, numpy's) of arrays a and b.
ARRAY_REDUCTIONS = {
    "sum": (lambda a, b: cla.sum(a), lambda a, b: a.sum(dtype=np.int32)),
    "dot": (lambda a, b: cla.dot(a, b), lambda a, b: np.dot(a, b).astype(np.int32)),
    "min": (lambda a, b: cla.min(a), lambda a, b: a.min()),
    "max": (lambda a, b: cla.max(a), lambda a, b: a.max()),
    "cumsum": (lambda a, b: cla.cumsum(a), lambda a, b: np.cumsum(a, dtype=np.int32)),
}


def array_reduction_failures(queue, rng, sizes, names):
    """pyopencl.array's reductions and scans `names` (of ARRAY_REDUCTIONS) over int32 arrays of each size."""
    failures = []
    for n in sizes:
        a_host = rng.integers(-1000, 1000, n).astype(np.int32)
        b_host = rng.integers(-1000, 1000, n).astype(np.int32)
        a = cla.to_device(queue, a_host)
        b = cla.to_device(queue, b_host)
        for name in names:
            on_device, in_numpy = ARRAY_REDUCTIONS[name]
            failures += _mismatch(f"{name} of {n}", on_device(a, b).get(), in_numpy(a_host, b_host))
    return failures


def sum_of_squares_failures(context, queue, rng):
    """A ReductionKernel mapping ints to 64-bit squares and adding them up."""
    squares = ReductionKernel(context, np.int64, neutral="0", reduce_expr="a+b", map_expr="(long)x[i]*x[i]",
                              arguments="__global const int *x")
    x_host = rng.integers(-50_000, 50_000, 77_777).astype(np.int32)
    return _mismatch("ReductionKernel sum of squares", squares(cla.to_device(queue, x_host)).get(),
                     (x_host.astype(np.int64) ** 2).sum())


def running_max_failures(context, queue, rng, scan_class):
    """A running maximum by `scan_class`: pyopencl.scan's GenericScanKernel, or a class with its interface."""
    running_max = scan_class(context, np.int32, arguments="__global const int *x, __global int *y", input_expr="x[i]",
                             scan_expr="max(a, b)", neutral="-2147483648", output_statement="y[i] = item;")
    x_host = rng.integers(-50_000, 50_000, 7_777).astype(np.int32)
    x = cla.to_device(queue, x_host)
    y = cla.empty_like(x)
    running_max(x, y)
    return _mismatch(f"{scan_class.__name__} running max", y.get(), np.maximum.accumulate(x_host))
