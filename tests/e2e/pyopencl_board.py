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

from pyopencl_generic import generic_pointer_failures

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

failures += generic_pointer_failures(context, queue, rng)

for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
