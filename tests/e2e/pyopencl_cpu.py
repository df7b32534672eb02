# SPDX-License-Identifier: Apache-2.0
# Debian's pyopencl on the CPU device, through the ICD loader: what its library builds on barriers and
# __local memory (reductions: sum, dot, min, max, a ReductionKernel; scans: cumsum and an
# InclusiveScanKernel), and an OpenCL C 2.0 kernel with vload4 and a generic pointer, checked
# against numpy (exact). Exits non-zero on any mismatch.
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import InclusiveScanKernel

from pyopencl_generic import generic_pointer_failures

platform = next(p for p in cl.get_platforms() if p.name.startswith("Loom"))
cpu = next(d for d in platform.get_devices() if d.type & cl.device_type.CPU)
context = cl.Context([cpu])
queue = cl.CommandQueue(context)

failures = []


def check(what, got, want):
    if not np.array_equal(got, want):
        failures.append(f"{what}: got {got!r}, want {want!r}")


rng = np.random.default_rng(11)
for n in (1, 1000, 100_003):
    a_host = rng.integers(-1000, 1000, n).astype(np.int32)
    b_host = rng.integers(-1000, 1000, n).astype(np.int32)
    a = cla.to_device(queue, a_host)
    b = cla.to_device(queue, b_host)
    check(f"sum of {n}", cla.sum(a).get(), a_host.sum(dtype=np.int32))
    check(f"dot of {n}", cla.dot(a, b).get(), np.dot(a_host, b_host).astype(np.int32))
    check(f"min of {n}", cla.min(a).get(), a_host.min())
    check(f"max of {n}", cla.max(a).get(), a_host.max())
    check(f"cumsum of {n}", cla.cumsum(a).get(), np.cumsum(a_host, dtype=np.int32))

squares = ReductionKernel(context, np.int64, neutral="0", reduce_expr="a+b", map_expr="(long)x[i]*x[i]",
                          arguments="__global const int *x")
x_host = rng.integers(-50_000, 50_000, 77_777).astype(np.int32)
check("ReductionKernel sum of squares", squares(cla.to_device(queue, x_host)).get(),
      (x_host.astype(np.int64) ** 2).sum())

running_max = InclusiveScanKernel(context, np.int32, "max(a, b)", neutral="-2147483648")
y = cla.to_device(queue, x_host)
running_max(y)
check("InclusiveScanKernel running max", y.get(), np.maximum.accumulate(x_host))

failures += generic_pointer_failures(context, queue, rng)

for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
