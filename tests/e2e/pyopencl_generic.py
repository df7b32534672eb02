# SPDX-License-Identifier: Apache-2.0
# An OpenCL C 2.0 kernel built from source with pyopencl: vload4/vstore4 (Clang declares them for
# generic pointers only) and a helper taking a generic pointer; shared by pyopencl_board.py and
# pyopencl_cpu.py (a module, not a test: both import it from beside them).
import numpy as np
import pyopencl as cl
import pyopencl.array as cla

SOURCE = """
float twice(const float *p) { return 2.0f * *p; }
__kernel void pairs(__global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, x) + twice(x + 4 * i), i, y);
}
"""


def generic_pointer_failures(context, queue, rng):
    """Runs the kernel on the context's device; returns the failures found (none: an empty list)."""
    pairs = cl.Program(context, SOURCE).build(options="-cl-std=CL2.0").pairs
    x_host = rng.standard_normal(64).astype(np.float32)
    x = cla.to_device(queue, x_host)
    y = cla.empty_like(x)
    pairs(queue, (16,), None, x.data, y.data)
    want = x_host + np.repeat(np.float32(2) * x_host[::4], 4)
    return [] if np.array_equal(y.get(), want) else ["OpenCL C 2.0 vload4 and a generic pointer: results differ"]
