//===- SpinLoopYields.h - Yields in loops that wait for other work-items -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU device runs a group's sub-groups in turns on one thread. A sub-group that waits in a loop
// for a value another sub-group will store (a flag, a lock, a counter) would wait for ever: the
// other never gets its turn. Sub-groups must make independent forward progress (cl_khr_subgroups;
// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), so such a loop gets a yield on its way back to
// its head (a cut of Scope::WorkItem, loom/lowering/BarrierRegions.h): the work-group function then
// suspends the waiting work-item there and runs the others before it tries again.
//
// A loop waits for another work-item when whether it exits depends on an atomic or volatile read in
// the loop, or on a pipe call (PipeOperations.h: a packet or room another work-item or kernel makes):
// any other read the optimiser may hoist out of it, so no correct kernel waits on one. A
// compare-and-swap loop that succeeds at once never reaches the yield. A kernel with yields gets no
// inner-loop barriers (InnerLoopBarriers.h): a work-item waiting before one would hold up the
// others at it.
//
// Before: while (atomic_load(&flag) != 1) ;
// After:  while (atomic_load(&flag) != 1) __loom_yield();
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/Function.h"

namespace loom::runtime::cpu {

/// Adds the yields to `workItem` (everything inlined). Returns how many it added.
unsigned addSpinLoopYields(llvm::Function &workItem);

} // namespace loom::runtime::cpu
