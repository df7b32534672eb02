//===- Pipeline.h - The hardware flow: LLVM IR -> dataflow -> schedule -> Verilog -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One entry point for loomc and the tests. The passes and their order are listed in lib/Pipeline.cpp.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/board/Board.h"
#include "loom/hls/HardwareKernel.h"
#include "loom/lowering/Printf.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace loom::hls {

struct HlsOptions {
  /// Called after each pass with the pass name and the kernel graph's text form, when set
  /// (loomc --dump-after=all|PASS).
  std::function<void(llvm::StringRef pass, llvm::StringRef kernel, llvm::StringRef text)> dump;
};

struct SynthesizedProgram {
  std::string verilog;                 ///< Every kernel's top module plus the RTL library modules used.
  std::vector<HardwareKernel> kernels; ///< In the module's kernel order.
  std::string report;                  ///< Human-readable: per kernel II, depth, ports, area estimate.
  std::string warnings; ///< "file:line: warning: ..." for what the flow accepts but does not do.
  std::vector<lowering::PrintfCall> printfCalls; ///< What the kernels' printf buffers' records refer to.
};

/// The names of the passes, in pipeline order (for --dump-after).
std::vector<std::string> passNames();

/// Synthesises every kernel of a Hardware-target module (spir64) for `board`. The module's kernels
/// are prepared in place first (switches lowered to branches).
llvm::Expected<SynthesizedProgram> synthesizeProgram(llvm::Module &module,
                                                     const board::Board &board,
                                                     const HlsOptions &options = {});

/// The hand-written RTL library (hls/rtl/*.v), concatenated.
std::string rtlLibrary();

} // namespace loom::hls
