//===- LowerSwitches.cpp - switch statements to branches ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel function that may contain `switch` terminators. After: the same function with
// each switch a tree of conditional branches (LLVM's LowerSwitch), which the dataflow builder
// if-converts like any other branch. Runs on the IR, before build-dataflow.
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/IR/Instructions.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"

namespace loom::hls {

void lowerSwitches(llvm::Function &kernel) {
  const bool hasSwitch = llvm::any_of(kernel, [](const llvm::BasicBlock &block) {
    return llvm::isa<llvm::SwitchInst>(block.getTerminator());
  });
  if (!hasSwitch)
    return;
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder().registerFunctionAnalyses(analyses);
  llvm::LowerSwitchPass().run(kernel, analyses);
}

} // namespace loom::hls
