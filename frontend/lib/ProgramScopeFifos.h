//===- ProgramScopeFifos.h - Intel channels and Xilinx program-scope pipes -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// FPGA code declares its FIFOs at program scope, where OpenCL C has none: Intel's
// `channel T c __attribute__((depth(N)));` (cl_intel_channels, and channel arrays), read with
// read_channel_intel / write_channel_intel and their _nb_ forms, and Xilinx's
// `pipe T p __attribute__((xcl_reqd_pipe_depth(N)));` with read_pipe_block / write_pipe_block.
// Loom makes each such FIFO an OpenCL pipe, so both devices and hls/ need one FIFO kind:
//  1. rewriteFifoDeclarations renames the `channel` or `pipe` that starts a file-scope declaration
//     to a prelude macro of the same length (so diagnostics keep their columns), which declares an
//     `extern __constant` variable in the section FifoSection; `depth` and `xcl_reqd_pipe_depth`
//     (VendorExtensions.cpp) add the depth to the section's name. The prelude's macros make every
//     channel or pipe call a call of __loom_fifo_read / __loom_fifo_write on the variable's
//     address (the blocking forms retry until it succeeds).
//  2. bindProgramScopeFifos, on the compiled module, gives each kernel one hidden pipe argument per
//     FIFO (or channel array element) it uses, after its own arguments, and makes the calls the
//     target's pipe calls on it. The kernel's `loom.program_fifos` metadata names the FIFOs; KernelInfo
//     marks those arguments, and the runtime binds them to one pipe per FIFO and program.
// Intel's autorun kernels (`__attribute__((autorun))`: no arguments, a single work-item or one
// work-group of reqd_work_group_size) start when their program is built and start again each time
// they finish; replicateAutorunKernels, before step 2, makes an autorun kernel with
// num_compute_units(N) N kernels, each with its get_compute_id folded in (KernelInfo::autorun marks
// them; the runtime starts them).
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/frontend/OpenCLCompiler.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>

namespace loom::frontend {

/// The section of a program-scope FIFO's variable; `FifoSection.depth.N` when a depth is given.
constexpr llvm::StringLiteral FifoSection = "loom.fifo";

/// The depth of a FIFO declared without one: two packets keep a producer and its consumer moving a
/// packet a cycle.
constexpr unsigned DefaultFifoDepth = 2;

/// The kernel metadata listing its hidden FIFO arguments, the last ones: a tuple per argument of
/// the FIFO's name (`c`, or `c[1][2]` for an element of a channel array), its depth and its packet
/// bytes.
constexpr llvm::StringLiteral ProgramFifosMetadata = "loom.program_fifos";

/// `source` with the `channel` (where the source enables cl_intel_channels or cl_altera_channels)
/// and `pipe` that start file-scope declarations renamed to the prelude's FIFO macros.
std::string rewriteFifoDeclarations(llvm::StringRef source);

/// The macros the rewritten declarations and the vendors' FIFO calls use (part of the prelude).
llvm::StringRef fifoPrelude();

/// Each autorun kernel with N compute units as N kernels `NAME_cu<i>` with their compute ids
/// folded in; get_compute_id is 0 elsewhere. An error (file:line:col first) for get_compute_id in a
/// kernel with compute units that is not autorun, and for printf in an autorun kernel.
llvm::Error replicateAutorunKernels(llvm::Module &module);

/// Step 2 above. An error (file:line:col first) for what cannot be bound: a channel array indexed
/// by a value known only at run time, a kernel that both reads and writes one FIFO.
llvm::Error bindProgramScopeFifos(llvm::Module &module, Target target);

} // namespace loom::frontend
