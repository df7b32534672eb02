//===- CpuProgram.h - A program JIT-compiled for the CPU device -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One LLJIT per program: the module (from source or from a binary's bitcode) gets its work-group
// functions, is optimised at O3 for the host CPU and compiled; each kernel is then a function
// pointer. The program's binary is a .loom file carrying only the CPU bitcode. The compiled code is
// immutable and shared: the device's build cache hands out programs on it (share()).
//===----------------------------------------------------------------------===//
#pragma once

#include "devices/Device.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/lowering/Printf.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>
#include <vector>

namespace loom::runtime::cpu {

class CpuProgram : public DeviceProgram {
public:
  struct Entry {
    WorkGroupFn function = nullptr;
    uint64_t staticLocalBytes = 0;
    uint64_t contextBytesPerItem = 0;
    bool prints = false; ///< Calls printf: a launch passes a printf buffer.
  };

  /// Compiles `module` (owned by `context`); an error's message is what the build log should say.
  /// `buildLog` goes into the program's binary; `inputBinary` is the binary the module came from,
  /// returned unchanged by binary() (empty: a CPU-only binary is made from the module).
  static llvm::Expected<std::unique_ptr<CpuProgram>>
  compile(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
          std::string buildLog, std::string inputBinary = {});

  const std::vector<frontend::KernelInfo> &kernels() const override { return compiled->kernelInfos; }
  std::string binary() const override { return compiled->binaryBytes; }
  const Entry &entry(unsigned kernelIndex) const { return compiled->entries[kernelIndex]; }
  /// The program's printf calls, which its printf buffers' records refer to.
  const std::vector<lowering::PrintfCall> &printfCalls() const { return compiled->printfCallTable; }
  /// Another program on the same compiled code (the device's build cache hands these out).
  std::unique_ptr<CpuProgram> share() const { return std::unique_ptr<CpuProgram>(new CpuProgram(compiled)); }

private:
  /// Immutable once compiled: programs built from the same source share it.
  struct Compiled {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::vector<frontend::KernelInfo> kernelInfos;
    std::vector<Entry> entries;
    std::vector<lowering::PrintfCall> printfCallTable;
    std::string binaryBytes;
  };
  explicit CpuProgram(std::shared_ptr<const Compiled> code) : compiled(std::move(code)) {}
  std::shared_ptr<const Compiled> compiled;
};

} // namespace loom::runtime::cpu
