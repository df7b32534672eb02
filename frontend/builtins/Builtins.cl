// SPDX-License-Identifier: Apache-2.0
// Loom's OpenCL C builtin library: definitions of the builtins Clang declares (with
// -fdeclare-opencl-builtins) but leaves to the device, one file per family of the spec. Compiled at
// build time to bitcode for spir64 (hardware) and the host triple (CPU device), embedded in
// loom_frontend and linked into every kernel (frontend/README.md).
#include "builtins.h"

#include "math.cl"
#include "common.cl"
#include "integer.cl"
#include "relational.cl"
#include "atomic.cl"
#include "atomic_c11.cl"
#include "synchronization.cl"
#include "vector_data.cl"
#include "async.cl" // after vector_data.cl: its bursts use the vloadn of each address space
#include "pipes.cl"
#include "conversions.cl"
#include "geometric.cl"
#include "misc_vector.cl"
