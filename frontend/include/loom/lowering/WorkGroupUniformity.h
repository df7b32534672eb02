//===- WorkGroupUniformity.h - Values the same in every work-item of a group -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// Part of the kernel-lowering stage: which values of a work-item function are the same in every
// work-item of a work-group (a loop counter bounded by get_local_size, a value computed from the
// kernel's arguments and group ids), so that a back end may keep one copy per group instead of one
// per work-item. LLVM's divergence analysis decides it, from these sources of divergence: the
// arguments the caller names (the local ids), and every instruction that reads memory, has other
// effects or allocates private memory; it follows them through data, divergent branches and loop
// exits.
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Function.h"

namespace loom::lowering {

/// The instructions of `function` whose value, and every use of it, is the same in all work-items of
/// a group, when only `perWorkItem` among its arguments differ between work-items. Empty when the
/// function's control flow is irreducible (which the analysis does not handle).
llvm::DenseSet<const llvm::Value *> workGroupUniformValues(const llvm::Function &function,
                                                           llvm::ArrayRef<const llvm::Argument *> perWorkItem);

} // namespace loom::lowering
