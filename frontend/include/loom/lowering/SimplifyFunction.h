//===- SimplifyFunction.h - LLVM's function simplification on one function -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// For a stage that made values constant, or loops trivial, in one function of a module that
// Clang's pipeline already optimised: the rest of that function folds without optimising the
// module again.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/Function.h"

namespace loom::lowering {

/// LLVM's O2 function simplification pipeline on `function` alone, with no library function
/// known: a loop that copies or fills stays a loop, as the hardware compile (-fno-builtin) has it.
void simplifyFunction(llvm::Function &function);

} // namespace loom::lowering
