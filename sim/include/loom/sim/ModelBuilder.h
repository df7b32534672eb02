//===- ModelBuilder.h - Verilog of a program -> simulation model .so -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Turns the generated Verilog of a program into the bytes of one shared object implementing
// ModelABI.h: every kernel is Verilated (verilator --cc, prefix Vk<i>) and compiled together with a
// generated C shim by the host C++ compiler. libverilated is not linked in: the loading process
// provides it (target loom_verilated). Tool failures are errors carrying the tool's output.
//===----------------------------------------------------------------------===//
#pragma once

#include "loom/hls/HardwareKernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace loom::sim {

class ModelBuilder {
public:
  /// Receives a short step name ("verilating", "compiling", "linking") as each step begins.
  using ProgressFn = std::function<void(llvm::StringRef step)>;

  void setProgress(ProgressFn progress) { progress_ = std::move(progress); }
  /// Compiler processes run at once (at least 1; default 2).
  void setJobs(unsigned jobs) { jobs_ = jobs ? jobs : 1; }
  /// Keeps the temporary build directory (its path is in the log); for debugging the shim.
  void setKeepTemporaries(bool keep) { keep_ = keep; }
  /// Keeps verilated.h precompiled in `directory` (built there by the first build that needs it),
  /// for the kernels' C++ to include instead of parsing it in every unit; none when empty.
  void setPrecompiledHeaderDirectory(std::string directory) { pchDirectory_ = std::move(directory); }

  /// Builds the model of `kernels` (kernel i is module kernels[i].topModule in `verilog`) and
  /// returns the shared object's bytes. The log() holds every command and its output.
  llvm::Expected<std::string> build(llvm::StringRef verilog,
                                    llvm::ArrayRef<hls::HardwareKernel> kernels);

  /// Output of the tools run by the last build().
  const std::string &log() const { return log_; }

  /// The C++ source mapping ModelABI.h onto kernel `index`'s Verilated class Vk<index>.
  static std::string generateKernelShim(const hls::HardwareKernel &kernel, unsigned index);
  /// The C++ source of the exported ABI functions, dispatching to the kernels.
  static std::string generateDispatchShim(llvm::ArrayRef<hls::HardwareKernel> kernels);

private:
  ProgressFn progress_;
  unsigned jobs_ = 2;
  bool keep_ = false;
  std::string pchDirectory_;
  std::string log_;
};

} // namespace loom::sim
