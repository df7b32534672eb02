# SPDX-License-Identifier: Apache-2.0
# Debian's pyopencl on the simulated board, through the ICD loader: pyopencl.array arithmetic and an
# ElementwiseKernel, and an OpenCL C 2.0 kernel with vload4 and a generic pointer, all built from
# source on the board (clBuildProgram runs the hardware flow), checked bit for bit against numpy.
# Exits non-zero on any mismatch.
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel

platform = next(p for p in cl.get_platforms() if p.name.startswith("Loom"))
board = next(d for d in platform.get_devices() if d.type & cl.device_type.ACCELERATOR)
context = cl.Context([board])
queue = cl.CommandQueue(context)

n = 1000
rng = np.random.default_rng(5)
a_host = rng.standard_normal(n).astype(np.float32)
b_host = rng.standard_normal(n).astype(np.float32)
a = cla.to_device(queue, a_host)
b = cla.to_device(queue, b_host)

failures = []
got = (2 * a + b * b - 1).get()
want = (np.float32(2) * a_host + b_host * b_host - np.float32(1)).astype(np.float32)
if not np.array_equal(got, want):
    failures.append(f"array arithmetic: {np.count_nonzero(got != want)} of {n} differ")

axpy = ElementwiseKernel(context, "float k, float *x, float *y, float *z", "z[i] = k * x[i] + y[i]", "axpy")
z = cla.empty_like(a)
axpy(np.float32(3), a, b, z)
if not np.array_equal(z.get(), np.float32(3) * a_host + b_host):
    failures.append("elementwise kernel: results differ")

# OpenCL C 2.0 from source: vload4/vstore4 (declared for generic pointers only) and a helper taking a
# generic pointer.
generic_source = """
float twice(const float *p) { return 2.0f * *p; }
__kernel void pairs(__global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, x) + twice(x + 4 * i), i, y);
}
"""
pairs = cl.Program(context, generic_source).build(options="-cl-std=CL2.0").pairs
x_pairs = rng.standard_normal(64).astype(np.float32)
x_buffer = cla.to_device(queue, x_pairs)
y_buffer = cla.empty_like(x_buffer)
pairs(queue, (16,), None, x_buffer.data, y_buffer.data)
want_pairs = x_pairs + np.repeat(np.float32(2) * x_pairs[::4], 4)
if not np.array_equal(y_buffer.get(), want_pairs):
    failures.append("OpenCL C 2.0 vload4 and a generic pointer: results differ")

for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
