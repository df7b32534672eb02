//===- InferAddressSpaces.cpp - Generic pointers to the memory they point into ===//
// SPDX-License-Identifier: Apache-2.0
//
// Before: a kernel whose accesses may go through OpenCL C 2.0 generic pointers (address space 4):
// a helper taking `float *`, the library's generic vloadn, fract, sincos, after inlining. The
// board's memories are separate (global ports, on-chip RAMs), so the hardware needs each access's
// named address space. After: every generic pointer that provably comes from one named space is
// rewritten in it (LLVM's InferAddressSpaces, told that SPIR's generic space is the flat one);
// an access left generic is the graph builder's error at its line. Runs on the IR, first (before
// FormWorkGroupLoops).
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"

namespace loom::hls {

void inferAddressSpaces(llvm::Function &kernel) {
  constexpr unsigned SpirGenericAddressSpace = 4;
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder().registerFunctionAnalyses(analyses);
  llvm::InferAddressSpacesPass(SpirGenericAddressSpace).run(kernel, analyses);
}

} // namespace loom::hls
