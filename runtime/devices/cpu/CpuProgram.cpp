//===- CpuProgram.cpp - Work-group functions, O3 for the host, ORC LLJIT --===//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU device's compile pipeline, in order: kernel metadata, the program binary (the module as
// bitcode, before any change), the support check (missing builtins), printf calls to records,
// work-item loops, the
// host CPU's target attributes, O3 (PassBuilder with the host TargetMachine, so the loop vectoriser
// has the real cost model), then one LLJIT whose lookups give the work-group function pointers.
//===----------------------------------------------------------------------===//
#include "devices/cpu/CpuProgram.h"

#include "loom/frontend/Binary.h"
#include "loom/frontend/ObjectCode.h"
#include "loom/frontend/Optimize.h"
#include "loom/lowering/Printf.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

namespace loom::runtime::cpu {
namespace {

using namespace llvm;

Error compileError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

void initializeHost() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    // Makes the process's own symbols (libc, libm) searchable, for checkSupported and the JIT.
    sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
}

bool processDefines(StringRef symbol) {
  return sys::DynamicLibrary::SearchForAddressOfSymbol(symbol.str()) != nullptr;
}

/// Owns a module and its context, and destroys them in the right order on every path.
struct OwnedModule {
  std::unique_ptr<LLVMContext> context;
  std::unique_ptr<Module> module;
  ~OwnedModule() { module.reset(); }
};

std::string binaryFor(const Module &module, const std::vector<frontend::KernelInfo> &kernels,
                      const std::string &log) {
  json::Array entries;
  for (const frontend::KernelInfo &kernel : kernels)
    entries.push_back(frontend::toJSON(kernel));
  frontend::ProgramBinary binary;
  // No board: this binary carries CPU code only, and the board device refuses it.
  binary.meta = json::Object{{"board", ""}, {"device", "cpu"}, {"kernels", std::move(entries)}};
  binary.cpuBitcode = frontend::bitcodeOf(module);
  binary.log = log;
  return frontend::writeBinary(binary);
}

} // namespace

Expected<std::unique_ptr<CpuProgram>> CpuProgram::compile(std::unique_ptr<LLVMContext> context,
                                                          std::unique_ptr<Module> module,
                                                          std::string buildLog,
                                                          std::string inputBinary) {
  OwnedModule owned{std::move(context), std::move(module)};
  Module &m = *owned.module;
  initializeHost();
  auto program = std::make_shared<Compiled>();

  auto kernels = frontend::extractKernels(m);
  if (!kernels)
    return kernels.takeError();
  program->kernelInfos = std::move(*kernels);
  program->binaryBytes =
      inputBinary.empty() ? binaryFor(m, program->kernelInfos, buildLog) : std::move(inputBinary);

  if (Error error = checkSupported(m, processDefines))
    return std::move(error);
  auto printfCalls = lowering::lowerPrintfCalls(m);
  if (!printfCalls)
    return printfCalls.takeError();
  program->printfCallTable = std::move(*printfCalls);
  auto groups = addWorkGroupFunctions(m, program->kernelInfos);
  if (!groups)
    return groups.takeError();

  auto target = orc::JITTargetMachineBuilder::detectHost();
  if (!target)
    return target.takeError();
  target->setCodeGenOptLevel(CodeGenOpt::Aggressive);
  auto machine = target->createTargetMachine();
  if (!machine)
    return machine.takeError();
  m.setDataLayout((*machine)->createDataLayout());
  m.setTargetTriple((*machine)->getTargetTriple().str());
  // The frontend compiled for a generic x86-64; the vectoriser should see this CPU's vector units.
  const std::string cpu = target->getCPU();
  const std::string features = target->getFeatures().getString();
  for (Function &function : m)
    if (!function.isDeclaration()) {
      function.addFnAttr("target-cpu", cpu);
      function.addFnAttr("target-features", features);
    }

  std::string verifierMessage;
  raw_string_ostream verifierStream(verifierMessage);
  if (verifyModule(m, &verifierStream))
    return compileError("internal error: the CPU device produced invalid IR (please report):\n" +
                        verifierStream.str());
  frontend::optimizeModule(m, OptimizationLevel::O3, machine->get());

  auto jit = orc::LLJITBuilder().setJITTargetMachineBuilder(*target).create();
  if (!jit)
    return jit.takeError();
  // Unresolved symbols become the build error below, not a line on the application's stderr.
  (*jit)->getExecutionSession().setErrorReporter([](Error error) { consumeError(std::move(error)); });
  auto generator =
      orc::DynamicLibrarySearchGenerator::GetForCurrentProcess((*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  (*jit)->getMainJITDylib().addGenerator(std::move(*generator));
  orc::ThreadSafeModule threadSafe(std::move(owned.module), std::move(owned.context));
  if (Error error = (*jit)->addIRModule(std::move(threadSafe)))
    return std::move(error);

  for (const WorkGroupFunction &group : *groups) {
    auto symbol = (*jit)->lookup(group.symbol);
    if (!symbol)
      return compileError("error: cannot compile kernel '" + group.kernel + "' for the CPU: " +
                          toString(symbol.takeError()) +
                          " (a function the kernel calls is not available on the CPU device)");
    program->entries.push_back(
        {symbol->toPtr<WorkGroupFn>(), group.staticLocalBytes, group.contextBytesPerItem, group.prints});
  }
  program->jit = std::move(*jit);
  return std::unique_ptr<CpuProgram>(new CpuProgram(std::move(program)));
}

} // namespace loom::runtime::cpu
