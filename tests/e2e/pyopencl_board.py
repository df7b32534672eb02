# SPDX-License-Identifier: Apache-2.0
# Debian's pyopencl on the simulated board, through the ICD loader, every kernel built from source on
# the board (clBuildProgram runs the hardware flow) and checked bit for bit against numpy, in parts
# that each build a few programs (a minute at most with nothing cached):
#   arrays      pyopencl.array arithmetic, an ElementwiseKernel, and an OpenCL C 2.0 kernel with vload4
#               and a generic pointer;
#   reductions  pyopencl.array.sum over several sizes, and a ReductionKernel of 64-bit squares;
#   scans       a running maximum by pyopencl.scan's GenericDebugScanKernel, GenericScanKernel's
#               interface on one work-item. (The parallel GenericScanKernel, cumsum's, sizes itself for
#               the board's groups of 1024 and 9.9 MB of __local memory: a 257 x 257 __local array
#               whose hardware takes minutes to build.)
# Usage: pyopencl_board.py PART. Exits non-zero on any mismatch.
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.scan import GenericDebugScanKernel

from pyopencl_generic import (array_reduction_failures, generic_pointer_failures, running_max_failures,
                              sum_of_squares_failures)


def array_failures(context, queue, rng):
    n = 1000
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
    return failures + generic_pointer_failures(context, queue, rng)


def reduction_failures(context, queue, rng):
    return array_reduction_failures(queue, rng, (1, 1000, 100_003), ["sum"]) + sum_of_squares_failures(context, queue, rng)


def scan_failures(context, queue, rng):
    return running_max_failures(context, queue, rng, GenericDebugScanKernel)


PARTS = {"arrays": array_failures, "reductions": reduction_failures, "scans": scan_failures}

if len(sys.argv) != 2 or sys.argv[1] not in PARTS:
    sys.exit(f"usage: {sys.argv[0]} {'|'.join(PARTS)}")
platform = next(p for p in cl.get_platforms() if p.name.startswith("Loom"))
board = next(d for d in platform.get_devices() if d.type & cl.device_type.ACCELERATOR)
context = cl.Context([board])
queue = cl.CommandQueue(context)
failures = PARTS[sys.argv[1]](context, queue, np.random.default_rng(5))
for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
