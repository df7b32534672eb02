// SPDX-License-Identifier: Apache-2.0
// Helpers of the tests that call the CPU device directly: kernel arguments, a program cache in a
// directory of the test's own (TemporaryCacheDirectory.h), and a program's work-group functions as the
// CPU device compiles them.
#pragma once

#include "devices/Device.h"
#include "devices/cpu/WorkItemLoops.h"

#include "loom/frontend/KernelInfo.h"
#include "loom/frontend/OpenCLCompiler.h"
#include "loom/frontend/Optimize.h"

#include "../TemporaryCacheDirectory.h"
#include "../TestSupport.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

inline loom::runtime::ArgValue bufferArg(const loom::runtime::Allocation &allocation) {
  loom::runtime::ArgValue arg;
  arg.kind = loom::runtime::ArgValue::Kind::Buffer;
  arg.buffer = allocation;
  return arg;
}

/// `count` signed values spread over the range of an int shifted right by `shift` (a linear
/// congruential sequence from `seed`: repeatable, with every low bit pattern hit).
inline void fillPseudoRandom(int32_t *values, size_t count, uint32_t seed, unsigned shift) {
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 1664525u + 1013904223u;
    values[i] = int32_t(seed) >> shift;
  }
}

template <typename T> loom::runtime::ArgValue scalarArg(T value) {
  loom::runtime::ArgValue arg;
  arg.kind = loom::runtime::ArgValue::Kind::Scalar;
  arg.bytes.resize(sizeof value);
  std::memcpy(arg.bytes.data(), &value, sizeof value);
  return arg;
}

/// A program compiled for this host as CpuProgram compiles it: kernels, their work-group functions.
struct HostProgram {
  std::unique_ptr<llvm::Module> module;
  std::vector<loom::frontend::KernelInfo> kernels;
  std::vector<std::string> symbols; ///< the work-group functions', in `kernels` order
  std::unique_ptr<llvm::TargetMachine> machine;
};

/// `source` compiled for this host with build `options` and its work-group functions added;
/// `beforeWorkGroups` runs on the kernels just before they are.
inline HostProgram lowerForHost(llvm::LLVMContext &context, const char *source, const char *options = "",
                                const std::function<void(HostProgram &)> &beforeWorkGroups = {}) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  HostProgram program;
  auto compiled = loom::frontend::compileOpenCL(context, {source, "host.cl", options}, loom::frontend::Target::Host);
  REQUIRE_OK(compiled);
  program.module = std::move(compiled->module);
  auto kernels = loom::frontend::extractKernels(*program.module);
  REQUIRE_OK(kernels);
  program.kernels = std::move(*kernels);
  if (beforeWorkGroups)
    beforeWorkGroups(program);
  auto functions = loom::runtime::cpu::addWorkGroupFunctions(*program.module, program.kernels);
  REQUIRE_OK(functions);
  for (const loom::runtime::cpu::WorkGroupFunction &function : *functions)
    program.symbols.push_back(function.symbol);
  auto target = llvm::orc::JITTargetMachineBuilder::detectHost();
  REQUIRE_OK(target);
  auto machine = target->createTargetMachine();
  REQUIRE_OK(machine);
  program.machine = std::move(*machine);
  program.module->setDataLayout(program.machine->createDataLayout());
  program.module->setTargetTriple(program.machine->getTargetTriple().str());
  return program;
}

/// O3 for this host, as CpuProgram runs it.
inline void optimiseForHost(HostProgram &program) {
  loom::frontend::optimizeModule(*program.module, llvm::OptimizationLevel::O3, program.machine.get());
}
