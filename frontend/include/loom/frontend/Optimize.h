//===- Optimize.h - LLVM's default optimisation pipeline, set up once -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// For modules that did not come out of Clang's own pipeline: SPIR-V read back by the translator
// (readSpirv) and the CPU device's work-group functions.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Target/TargetMachine.h"

namespace loom::frontend {

/// Runs LLVM's default per-module pipeline at `level`, with the loop and SLP vectorisers on from O2
/// as Clang has them, `machine`'s cost model when one is given, and `library`'s knowledge of the
/// library functions (vector versions of math functions the vectorisers may call) when one is given.
void optimizeModule(llvm::Module &module, llvm::OptimizationLevel level,
                    llvm::TargetMachine *machine = nullptr, const llvm::TargetLibraryInfoImpl *library = nullptr);

/// For the hardware flow, which has no call stack: every function the module defines, other than a
/// kernel, is inlined into its callers, and so is every call to a kernel (which stays a kernel),
/// then the module is optimised at O2 again, so synthesis sees
/// straight-line kernels. Clang's inliner leaves calls across linked units, and to a large helper
/// called from several places (Rodinia's myocyte). Changes nothing when no such call is left.
void inlineDefinedFunctions(llvm::Module &module);

} // namespace loom::frontend
