//===- InlineIntoKernels.h - Helper functions inlined into their kernels -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Some vendor forms mean something per calling kernel (a channel becomes the kernel's pipe
// argument; aoc's __local array in a helper function, the kernel's own): the frontend inlines the
// helpers that reach them into each kernel before binding them.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace loom::frontend {

/// A kernel of either target: SPIR's calling convention, or Clang's kernel_arg metadata.
bool isKernel(const llvm::Function &function);

/// The calls in `function` of the functions named `callees`.
llvm::SmallVector<llvm::CallInst *, 8> callsOf(llvm::Function &function, llvm::ArrayRef<llvm::StringRef> callees);

/// Inlines into the kernels every function through which they reach a call of `callees`, then
/// drops those functions' bodies: only kernels call `callees` afterwards.
void inlineIntoKernels(llvm::Module &module, llvm::ArrayRef<llvm::StringRef> callees);

} // namespace loom::frontend
