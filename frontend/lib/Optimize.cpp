//===- Optimize.cpp - LLVM's default optimisation pipeline ----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/frontend/Optimize.h"

#include "llvm/Passes/PassBuilder.h"

namespace loom::frontend {

void optimizeModule(llvm::Module &module, llvm::OptimizationLevel level, llvm::TargetMachine *machine,
                    const llvm::TargetLibraryInfoImpl *library) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgsccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = level.getSpeedupLevel() >= 2;
  tuning.SLPVectorization = level.getSpeedupLevel() >= 2;
  llvm::PassBuilder builder(machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgsccs);
  if (library) // Before the default registration, which then keeps it.
    functions.registerPass([&] { return llvm::TargetLibraryAnalysis(*library); });
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgsccs, modules);
  builder.buildPerModuleDefaultPipeline(level).run(module, modules);
}

void inlineDefinedFunctions(llvm::Module &module) {
  bool called = false;
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL) {
      function.removeFnAttr(llvm::Attribute::NoInline);
      function.addFnAttr(llvm::Attribute::AlwaysInline);
      called |= !function.use_empty();
      continue;
    }
    // A kernel called as a function stays a kernel of its own: its calls, not it, are inlined.
    for (llvm::User *user : function.users())
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledFunction() == &function) {
        call->removeFnAttr(llvm::Attribute::NoInline);
        call->addFnAttr(llvm::Attribute::AlwaysInline);
        called = true;
      }
  }
  if (called)
    optimizeModule(module, llvm::OptimizationLevel::O2);
}

} // namespace loom::frontend
