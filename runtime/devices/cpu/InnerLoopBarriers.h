//===- InnerLoopBarriers.h - Inner loops run across the work-items -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The work-item loops put a kernel's own loops inside the loop over the local x ids, which the
// vectoriser leaves scalar when its body has a loop: a naive sgemm's k-loop walks a column of b
// per work-item. A barrier at the head of an inner loop that every work-item of the group runs the
// same number of times cuts the kernel there (loom/lowering/BarrierRegions.h): each iteration
// becomes a region, run across the group's work-items by a loop the vectoriser widens (the
// accumulator lives in the group's context, one per work-item; the counter, the same in every
// work-item, once). A barrier is only added where the spec would allow one: the loop has none
// already, every branch leading to it and every exit of it tests a value the same in every
// work-item. Loops of a few iterations known at compile time are left alone (a region per
// iteration costs more than it gives).
//
// Before: for (k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
// After:  for (k = 0; k < n; ++k) { barrier(0); sum += a[row * n + k] * b[k * n + col]; }
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Function.h"

namespace loom::runtime::cpu {

/// Adds the barriers to `workItem`, whose arguments `perWorkItem` (the local ids) differ between
/// work-items. Returns how many it added.
unsigned addInnerLoopBarriers(llvm::Function &workItem, llvm::ArrayRef<const llvm::Argument *> perWorkItem);

} // namespace loom::runtime::cpu
