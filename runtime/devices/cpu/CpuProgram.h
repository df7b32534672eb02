//===- CpuProgram.h - A program JIT-compiled for the CPU device -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// One LLJIT per program: the module (from source or from a binary's bitcode) gets its work-group
// functions when the program is built (so every error a build can have is a build error), and is
// optimised at O3 for the host CPU and compiled to machine code when a kernel of it first runs, as
// PoCL does: an application pays for code generation only for programs it launches, and
// clBuildProgram returns after the front end. Each kernel is then a function pointer. The program's
// binary is a .loom file carrying only the CPU bitcode. The code is shared: the device's build cache
// hands out programs on it (share()).
//===----------------------------------------------------------------------===//
#pragma once

#include "devices/AutorunKernels.h"
#include "devices/Device.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/lowering/Printf.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace loom::runtime::cpu {

/// The largest program-scope __global variable a program may declare (it lives in the JIT's memory).
constexpr uint64_t MaxGlobalVariableBytes = 64ull << 20;

class CpuProgram : public DeviceProgram {
public:
  struct Entry {
    WorkGroupFn function = nullptr;
    uint64_t staticLocalBytes = 0;
    uint64_t contextBytesPerItem = 0;
    bool prints = false; ///< Calls printf: a launch passes a printf buffer.
  };

  /// Lowers `module` (owned by `context`) for the CPU; an error's message is what the build log
  /// should say.
  /// `buildLog` goes into the program's binary; `inputBinary` is the binary the module came from,
  /// returned unchanged by binary() (empty: a CPU-only binary is made from the module).
  static llvm::Expected<std::unique_ptr<CpuProgram>>
  compile(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
          std::string buildLog, std::string inputBinary = {});

  const std::vector<frontend::KernelInfo> &kernels() const override { return compiled->kernelInfos; }
  std::string binary() const override { return compiled->binaryBytes; }
  uint64_t globalVariableBytes() const override { return compiled->globalVariableBytes; }
  /// Which machine code of the program a launch runs: with cached stores, or the streaming variant
  /// for launches that write more than the cache holds (StreamingStores.h).
  enum class Variant { Cached, Streaming };
  /// A kernel's work-group function, compiling the variant's machine code on its first call. Errors:
  /// code generation failed (a function the kernel calls is missing from the process).
  llvm::Expected<Entry> entry(unsigned kernelIndex, Variant variant = Variant::Cached) const;
  /// The bytes of what each pointer argument of a kernel points to (0 for other arguments).
  const std::vector<uint64_t> &elementBytes(unsigned kernelIndex) const { return compiled->elementBytes[kernelIndex]; }
  /// The program's printf calls, which its printf buffers' records refer to.
  const std::vector<lowering::PrintfCall> &printfCalls() const { return compiled->printfCallTable; }
  /// Where its pipe calls that may wait are (PipeCallSites.h).
  const std::vector<std::string> &pipeCallSites() const { return compiled->pipeCallSiteTable; }
  /// Another program on the same compiled code (the device's build cache hands these out).
  std::unique_ptr<CpuProgram> share() const { return std::unique_ptr<CpuProgram>(new CpuProgram(compiled)); }

  /// Its autorun kernels' runs: they watch `autorun.stopping()` (PipeOperations.h).
  AutorunKernels autorun;
  /// The autorun kernels end before the code they run goes.
  ~CpuProgram() override { autorun.stop([] {}); }

private:
  /// One variant's machine code.
  struct Code {
    std::unique_ptr<llvm::orc::LLJIT> jit; ///< Set once code generation succeeded.
    std::vector<WorkGroupFn> functions;   ///< Per kernel.
    std::string error; ///< Set when code generation failed: every launch of the variant fails so.
  };
  /// Programs built from the same source share it. Only code generation changes it, once per
  /// variant, under its mutex.
  struct Compiled {
    std::vector<frontend::KernelInfo> kernelInfos;
    std::vector<Entry> entries; ///< Their functions are null: Code holds them.
    std::vector<std::string> symbols; ///< The work-group functions' symbols, per kernel.
    std::vector<std::vector<uint64_t>> elementBytes; ///< Per kernel and argument.
    std::vector<lowering::PrintfCall> printfCallTable;
    std::vector<std::string> pipeCallSiteTable;
    std::string binaryBytes;
    uint64_t globalVariableBytes = 0; ///< Program-scope __global variables: never shared.
    mutable std::mutex codegenMutex;
    mutable std::unique_ptr<llvm::LLVMContext> context; ///< With `lowered`, until code generation.
    mutable std::unique_ptr<llvm::Module> lowered;
    mutable std::string loweredBitcode; ///< `lowered` as it was, once the first variant took it.
    mutable Code code[2]; ///< Per Variant.
    llvm::Error generateCode(Variant variant) const;
  };
  explicit CpuProgram(std::shared_ptr<const Compiled> code) : compiled(std::move(code)) {}
  std::shared_ptr<const Compiled> compiled;
};

} // namespace loom::runtime::cpu
