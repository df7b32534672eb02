# SPDX-License-Identifier: Apache-2.0
# Debian's pyopencl on the CPU device, through the ICD loader: what its library builds on barriers and
# __local memory (reductions: sum, dot, min, max, a ReductionKernel; scans: cumsum and a
# GenericScanKernel), and an OpenCL C 2.0 kernel with vload4 and a generic pointer, checked against
# numpy (exact). Exits non-zero on any mismatch.
import sys

import numpy as np
import pyopencl as cl
from pyopencl.scan import GenericScanKernel

from pyopencl_generic import (ARRAY_REDUCTIONS, array_reduction_failures, generic_pointer_failures,
                              running_max_failures, sum_of_squares_failures)

platform = next(p for p in cl.get_platforms() if p.name.startswith("Loom"))
cpu = next(d for d in platform.get_devices() if d.type & cl.device_type.CPU)
context = cl.Context([cpu])
queue = cl.CommandQueue(context)

rng = np.random.default_rng(11)
failures = array_reduction_failures(queue, rng, (1, 1000, 100_003), ARRAY_REDUCTIONS)
failures += sum_of_squares_failures(context, queue, rng)
failures += running_max_failures(context, queue, rng, GenericScanKernel)
failures += generic_pointer_failures(context, queue, rng)

for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
