//===- SimplifyFunction.cpp - LLVM's function simplification on one function ===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "loom/lowering/SimplifyFunction.h"

#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

namespace loom::lowering {

void simplifyFunction(llvm::Function &function) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgsccs;
  llvm::ModuleAnalysisManager modules;
  llvm::TargetLibraryInfoImpl library(llvm::Triple(function.getParent()->getTargetTriple()));
  library.disableAllFunctions();
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgsccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgsccs, modules);
  builder.buildFunctionSimplificationPipeline(llvm::OptimizationLevel::O2, llvm::ThinOrFullLTOPhase::None)
      .run(function, functions);
}

} // namespace loom::lowering
