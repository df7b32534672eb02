// SPDX-License-Identifier: Apache-2.0
// The hand-written test kernels (test_kernels.v), their model built once per test executable.
#pragma once

#include "loom/hls/HardwareKernel.h"
#include "loom/sim/LoadedModel.h"

#include <string>
#include <vector>

namespace loom::sim::test {

/// Kernel 0 "add_const": out[i] = in[i] + k (args: in, out, k). Kernel 1 "hang": the same circuit,
/// never done. Kernel 2 "atomic"; 3 "produce" and 4 "consume" move packets through a pipe with
/// read_pipe/write_pipe; 5 "reserve_produce" and 6 "reserve_consume" with reservations (test_kernels.v).
std::vector<hls::HardwareKernel> testKernels();
std::string testVerilog();
/// The model .so bytes, built on first use; later calls reuse it.
const std::string &testModelBytes();
/// Seconds the one build took.
double testModelBuildSeconds();
/// The model loaded into this process, once.
const LoadedModel &testModel();

} // namespace loom::sim::test
